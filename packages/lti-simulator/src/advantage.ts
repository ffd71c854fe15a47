import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createLocalJWKSet, createRemoteJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import type { LaunchSpec, SimulatorState } from './state.ts';

const AGS = 'https://purl.imsglobal.org/spec/lti-ags';
const NRPS = 'https://purl.imsglobal.org/spec/lti-nrps';
export const AdvantageScopes = {
  lineItem: `${AGS}/scope/lineitem`,
  lineItemReadonly: `${AGS}/scope/lineitem.readonly`,
  resultReadonly: `${AGS}/scope/result.readonly`,
  score: `${AGS}/scope/score`,
  memberships: `${NRPS}/scope/contextmembership.readonly`,
} as const;
const GRANTABLE = new Set<string>(Object.values(AdvantageScopes));
const SCORE_MEDIA_TYPE = 'application/vnd.ims.lis.v1.score+json';
const LINE_ITEM_MEDIA_TYPE = 'application/vnd.ims.lis.v2.lineitem+json';
const MEMBERSHIP_MEDIA_TYPE = 'application/vnd.ims.lti-nrps.v2.membershipcontainer+json';
const DEFAULT_CONTEXT = 'course-101';

/** A member of a simulated course (NRPS 2.0 §2.2). */
export type SimMember = {
  user_id: string;
  roles: string[];
  status?: 'Active' | 'Inactive' | 'Deleted';
  name?: string;
  given_name?: string;
  family_name?: string;
  email?: string;
};

export type SimLineItem = {
  id: string;
  contextId: string;
  resourceLinkId: string;
  label: string;
  scoreMaximum: number;
  /** The URL the launch's AGS claim names: it carries a query string, as Canvas's and Moodle's do. */
  url: string;
};

/** A Score as the LMS received it (AGS 2.0 §3.4), with the line item it was posted to. */
export type ReceivedScore = {
  lineItemId: string;
  resourceLinkId: string;
  userId: string;
  scoreGiven?: number;
  scoreMaximum?: number;
  activityProgress: string;
  gradingProgress: string;
  timestamp: string;
  comment?: string;
};

/** What the Advantage services keep and record; tests reach it through advantageOf(simulator.state). */
export type AdvantageState = {
  lineItems: Map<string, SimLineItem>;
  /** Course members by context id. */
  members: Map<string, SimMember[]>;
  /** Members per NRPS page (the Link header points at the next). */
  pageSize: number;
  scores: ReceivedScore[];
  /** Access tokens issued: how many, and the live ones with their scopes. */
  tokenRequests: Array<{ scopes: string[]; granted: boolean; error?: string; kid?: string }>;
  tokens: Map<string, { scopes: string[]; expiresAt: number }>;
  usedJtis: Set<string>;
  /** Statuses the scores endpoint answers next, one per request, before it records anything again. */
  scoreFaults: number[];
  /** Statuses the token endpoint answers next, one per request (an LMS that is down), before it grants again. */
  tokenFaults: number[];
  /**
   * Every request that reached a course's services (line items, scores, memberships), authorized or not: a test of
   * the tool's origin binding asserts that nothing reached an LMS the tool was not registered with.
   */
  serviceRequests: Array<{ method: string; path: string; authorized: boolean }>;
  /** Makes every access token issued so far invalid (the next service call gets a 401). */
  revokeTokens(): void;
};

const states = new WeakMap<SimulatorState, AdvantageState>();

/** The Advantage side of a simulator (line items, members, recorded scores and tokens). */
export function advantageOf(state: SimulatorState): AdvantageState {
  let found = states.get(state);
  if (!found) {
    const tokens = new Map<string, { scopes: string[]; expiresAt: number }>();
    found = {
      lineItems: new Map(),
      members: new Map(),
      pageSize: 2,
      scores: [],
      tokenRequests: [],
      tokens,
      usedJtis: new Set(),
      scoreFaults: [],
      tokenFaults: [],
      serviceRequests: [],
      revokeTokens: () => tokens.clear(),
    };
    states.set(state, found);
  }
  return found;
}

/** The line item of a resource link, made at its first launch (the LMS's gradebook column for the placement). */
function lineItemFor(state: SimulatorState, contextId: string, resourceLinkId: string): SimLineItem {
  const advantage = advantageOf(state);
  const existing = [...advantage.lineItems.values()].find((l) => l.resourceLinkId === resourceLinkId);
  if (existing) return existing;
  const placement = state.placements.get(resourceLinkId);
  const id = `li-${advantage.lineItems.size + 1}`;
  const item: SimLineItem = {
    id,
    contextId,
    resourceLinkId,
    label: placement?.lineItem?.label ?? placement?.title ?? 'Exam',
    scoreMaximum: placement?.lineItem?.scoreMaximum ?? 100,
    url: `${state.origin}/courses/${encodeURIComponent(contextId)}/lineitems/${id}?type=exam`,
  };
  advantage.lineItems.set(id, item);
  return item;
}

/** The AGS endpoint claim (AGS 2.0 §3.1) and the NRPS claim (NRPS 2.0 §3.6.1) of a resource-link launch. */
export function advantageClaims(state: SimulatorState, launch: LaunchSpec): Record<string, unknown> {
  const contextId = launch.context?.id ?? DEFAULT_CONTEXT;
  const course = `${state.origin}/courses/${encodeURIComponent(contextId)}`;
  const lineItem = launch.resourceLink ? lineItemFor(state, contextId, launch.resourceLink.id) : undefined;
  return {
    [`${AGS}/claim/endpoint`]: {
      scope: [AdvantageScopes.lineItem, AdvantageScopes.resultReadonly, AdvantageScopes.score],
      lineitems: `${course}/lineitems`,
      ...(lineItem ? { lineitem: lineItem.url } : {}),
    },
    [`${NRPS}/claim/namesroleservice`]: {
      context_memberships_url: `${course}/memberships`,
      service_versions: ['2.0'],
    },
  };
}

type ToolWithJwks = SimulatorState['tool'] & {
  fetchJwks?: () => Promise<{ keys: Array<Record<string, unknown>> }>;
};

/**
 * LTI Advantage services of the simulated LMS: the OAuth 2 token endpoint (client credentials with a JWT
 * client assertion), Assignment and Grade Services (line items, scores) and Names and Role Provisioning.
 * createLmsSimulator registers this plugin with the shared state.
 */
export async function advantagePlugin(app: FastifyInstance, opts: { state: SimulatorState }): Promise<void> {
  const { state } = opts;
  const advantage = advantageOf(state);
  const tool = state.tool as ToolWithJwks;
  const remoteJwks = tool.fetchJwks ? undefined : createRemoteJWKSet(new URL(state.tool.jwksUrl));

  // The score and line item media types are JSON: parse them as such.
  app.addContentTypeParser([SCORE_MEDIA_TYPE, LINE_ITEM_MEDIA_TYPE], { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, JSON.parse(body as string));
    } catch (err) {
      (err as { statusCode?: number }).statusCode = 400;
      done(err as Error, undefined);
    }
  });

  // RFC 6749 §4.4 with RFC 7523 §2.2 client authentication; 1EdTech Security Framework 1.0 §4.1.
  app.post<{ Body: Record<string, string> }>('/token', async (request, reply) => {
    const body = request.body ?? {};
    const scopes = (body.scope ?? '').split(' ').filter(Boolean);
    const refuse = (status: number, error: string, description: string) => {
      advantage.tokenRequests.push({ scopes, granted: false, error: `${error}: ${description}` });
      return reply.status(status).send({ error, error_description: description });
    };
    const fault = advantage.tokenFaults.shift();
    if (fault) return refuse(fault, 'temporarily_unavailable', `simulated ${fault}`);
    if (body.grant_type !== 'client_credentials')
      return refuse(400, 'unsupported_grant_type', 'grant_type must be client_credentials');
    if (body.client_assertion_type !== 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer')
      return refuse(400, 'invalid_request', 'client_assertion_type must be jwt-bearer');
    if (!body.client_assertion) return refuse(400, 'invalid_request', 'client_assertion is missing');
    let kid: string | undefined;
    try {
      const keys = tool.fetchJwks ? createLocalJWKSet((await tool.fetchJwks()) as JSONWebKeySet) : remoteJwks!;
      const { payload, protectedHeader } = await jwtVerify(body.client_assertion, keys, {
        issuer: state.clientId,
        subject: state.clientId,
        audience: `${state.origin}/token`,
        algorithms: ['RS256'],
        requiredClaims: ['exp', 'iat', 'jti'],
      });
      if (advantage.usedJtis.has(payload.jti!)) return refuse(401, 'invalid_client', 'jti was used before');
      advantage.usedJtis.add(payload.jti!);
      kid = protectedHeader.kid;
    } catch (err) {
      return refuse(401, 'invalid_client', err instanceof Error ? err.message : String(err));
    }
    if (scopes.length === 0 || scopes.some((s) => !GRANTABLE.has(s)))
      return refuse(400, 'invalid_scope', `cannot grant ${body.scope ?? '(none)'}`);
    const token = randomBytes(24).toString('base64url');
    const expiresIn = 3600;
    advantage.tokens.set(token, { scopes, expiresAt: Date.now() + expiresIn * 1000 });
    advantage.tokenRequests.push({ scopes, granted: true, ...(kid ? { kid } : {}) });
    return { access_token: token, token_type: 'Bearer', expires_in: expiresIn, scope: scopes.join(' ') };
  });

  /** The bearer token's grant when it is live and holds one of `scopes`; otherwise answers 401 and returns undefined. */
  const authorized = (request: FastifyRequest, reply: FastifyReply, scopes: string[]) => {
    const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    const grant = token ? advantage.tokens.get(token) : undefined;
    const ok = !!grant && grant.expiresAt >= Date.now() && grant.scopes.some((s) => scopes.includes(s));
    advantage.serviceRequests.push({ method: request.method, path: request.url, authorized: ok });
    if (!ok) {
      void reply
        .status(401)
        .header('www-authenticate', 'Bearer error="invalid_token"')
        .send({ error: 'invalid_token' });
      return undefined;
    }
    return grant;
  };

  type LineItemParams = { Params: { context: string; id: string } };
  const findLineItem = (params: LineItemParams['Params']) => {
    const item = advantage.lineItems.get(params.id);
    return item && item.contextId === params.context ? item : undefined;
  };

  // AGS 2.0 §3.2: a line item.
  app.get<LineItemParams>('/courses/:context/lineitems/:id', async (request, reply) => {
    if (!authorized(request, reply, [AdvantageScopes.lineItem, AdvantageScopes.lineItemReadonly])) return reply;
    const item = findLineItem(request.params);
    if (!item) return reply.status(404).send({ error: 'no such line item' });
    return reply.type(LINE_ITEM_MEDIA_TYPE).send({
      id: item.url,
      label: item.label,
      scoreMaximum: item.scoreMaximum,
      resourceLinkId: item.resourceLinkId,
    });
  });

  // AGS 2.0 §3.4: the Score publish service.
  app.post<LineItemParams & { Body: Record<string, unknown> }>(
    '/courses/:context/lineitems/:id/scores',
    async (request, reply) => {
      if (!authorized(request, reply, [AdvantageScopes.score])) return reply;
      const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim();
      if (type !== SCORE_MEDIA_TYPE) return reply.status(415).send({ error: `expected ${SCORE_MEDIA_TYPE}` });
      const item = findLineItem(request.params);
      if (!item) return reply.status(404).send({ error: 'no such line item' });
      const fault = advantage.scoreFaults.shift();
      if (fault) return reply.status(fault).send({ error: `simulated ${fault}` });
      const score = request.body ?? {};
      const problem = scoreProblem(score);
      if (problem) return reply.status(400).send({ error: problem });
      advantage.scores.push({
        ...(score as unknown as ReceivedScore),
        lineItemId: item.id,
        resourceLinkId: item.resourceLinkId,
      });
      return reply.status(204).send();
    },
  );

  // NRPS 2.0 §2: the context's memberships, paged with a Link header (§2.4).
  app.get<{ Params: { context: string }; Querystring: { page?: string } }>(
    '/courses/:context/memberships',
    async (request, reply) => {
      if (!authorized(request, reply, [AdvantageScopes.memberships])) return reply;
      const all = advantage.members.get(request.params.context) ?? [];
      const page = Math.max(1, Number(request.query.page ?? '1') || 1);
      const members = all.slice((page - 1) * advantage.pageSize, page * advantage.pageSize);
      const url = `${state.origin}/courses/${encodeURIComponent(request.params.context)}/memberships`;
      if (page * advantage.pageSize < all.length) reply.header('link', `<${url}?page=${page + 1}>; rel="next"`);
      return reply.type(MEMBERSHIP_MEDIA_TYPE).send({
        id: page === 1 ? url : `${url}?page=${page}`,
        context: { id: request.params.context },
        members,
      });
    },
  );
}

/** What AGS 2.0 §3.4 requires of a Score; undefined when it is well formed. */
function scoreProblem(score: Record<string, unknown>): string | undefined {
  if (typeof score.userId !== 'string' || !score.userId) return 'userId is required';
  if (typeof score.timestamp !== 'string' || Number.isNaN(Date.parse(score.timestamp)))
    return 'timestamp must be an ISO 8601 date-time';
  if (typeof score.activityProgress !== 'string') return 'activityProgress is required';
  if (typeof score.gradingProgress !== 'string') return 'gradingProgress is required';
  if (score.scoreGiven !== undefined) {
    if (typeof score.scoreGiven !== 'number' || score.scoreGiven < 0) return 'scoreGiven must be a number ≥ 0';
    if (typeof score.scoreMaximum !== 'number' || score.scoreMaximum <= 0)
      return 'scoreMaximum must accompany scoreGiven';
  }
  return undefined;
}
