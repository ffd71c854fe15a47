import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { randomUUID } from 'node:crypto';
import { advantageClaims, advantagePlugin } from './advantage.ts';
import { autoPostForm, messagePage, parseAutoPostForm } from './html.ts';
import { signIdToken, verifyDeepLinkResponse } from './tokens.ts';
import {
  makeSigningPair,
  type DeepLinkResponse,
  type LaunchSpec,
  type Placement,
  type SimulatorState,
  type ToolEndpoints,
} from './state.ts';

export type LmsSimulatorOptions = {
  tool: ToolEndpoints & {
    /** Reads the tool's public keys without HTTP (a tool under test through inject()); default: GET jwksUrl. */
    fetchJwks?: () => Promise<{ keys: Array<Record<string, unknown>> }>;
  };
  clientId?: string;
  deploymentId?: string;
  /** Host name in the simulator's origin and issuer; `localhost` listens on every loopback address. */
  host?: string;
  port?: number;
};

/** What a test holds: the registration to enter in the tool, launch starters and what the simulator recorded. */
export type LmsSimulator = {
  origin: string;
  issuer: string;
  clientId: string;
  deploymentId: string;
  authLoginUrl: string;
  authTokenUrl: string;
  jwksUrl: string;
  /** The body of the tool's "register a platform" request for this simulator. */
  registration(name?: string): {
    name: string;
    issuer: string;
    clientId: string;
    authLoginUrl: string;
    authTokenUrl: string;
    jwksUrl: string;
    deploymentIds: string[];
  };
  /** A URL on the simulator that starts the launch in a browser (redirects to the tool's login initiation). */
  launchUrl(launch: LaunchSpec): string;
  /** The tool's login initiation URL for the launch (LTI Core 1.3 §5.1.1.1), for tests that drive the tool directly. */
  loginInitiationUrl(launch: LaunchSpec): string;
  /** Sends the tool's authentication request to the simulator and reads the form it answers with. */
  authorize(authRequestUrl: string): Promise<{ action: string; fields: Record<string, string> }>;
  /** Where the simulator receives deep-linking responses. */
  deepLinkReturnUrl: string;
  deepLinkResponses: DeepLinkResponse[];
  /** Resource links made from deep-linking responses (what an LMS puts in the course). */
  placements: Map<string, Placement>;
  authErrors: string[];
  state: SimulatorState;
  close(): Promise<void>;
};

/** A small LMS speaking LTI 1.3 to the tool: its own keys and JWKS, OIDC authorization, deep-linking returns. */
export async function createLmsSimulator(options: LmsSimulatorOptions): Promise<LmsSimulator> {
  const app = Fastify({ logger: false });
  await app.register(formbody);
  const host = options.host ?? '127.0.0.1';
  // The origin is known once listening; the routes read it from the state when they run.
  const state: SimulatorState = {
    origin: '',
    issuer: '',
    clientId: options.clientId ?? `sim-client-${randomUUID().slice(0, 8)}`,
    deploymentId: options.deploymentId ?? 'deployment-1',
    tool: options.tool,
    key: await makeSigningPair(),
    strayKey: await makeSigningPair(),
    launches: new Map(),
    deepLinkResponses: [],
    placements: new Map(),
    authErrors: [],
  };
  routes(app, state, options.tool.fetchJwks);
  await app.register(advantagePlugin, { state });
  await app.listen({ host, port: options.port ?? 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('The simulator has no TCP address');
  const origin = `http://${host}:${address.port}`;
  state.origin = origin;
  state.issuer = origin;
  const urls = {
    authLoginUrl: `${origin}/auth`,
    authTokenUrl: `${origin}/token`,
    jwksUrl: `${origin}/.well-known/jwks.json`,
    deepLinkReturnUrl: `${origin}/deep-links/return`,
  };

  const loginInitiationUrl = (launch: LaunchSpec) => loginInitiationFor(state, randomUUID(), launch);

  return {
    origin,
    issuer: state.issuer,
    clientId: state.clientId,
    deploymentId: state.deploymentId,
    ...urls,
    registration: (name = 'LMS simulator') => ({
      name,
      issuer: state.issuer,
      clientId: state.clientId,
      authLoginUrl: urls.authLoginUrl,
      authTokenUrl: urls.authTokenUrl,
      jwksUrl: urls.jwksUrl,
      deploymentIds: [state.deploymentId],
    }),
    launchUrl(launch) {
      const launchId = randomUUID();
      state.launches.set(launchId, launch);
      return `${origin}/launches/${launchId}`;
    },
    loginInitiationUrl,
    async authorize(authRequestUrl) {
      const response = await fetch(authRequestUrl, { redirect: 'manual' });
      const body = await response.text();
      if (!response.ok) throw new Error(`The simulator refused the authentication request: ${body}`);
      return parseAutoPostForm(body);
    },
    deepLinkResponses: state.deepLinkResponses,
    placements: state.placements,
    authErrors: state.authErrors,
    state,
    close: () => app.close(),
  };
}

function targetOf(launch: LaunchSpec, state: SimulatorState): string {
  if (launch.targetLinkUri) return launch.targetLinkUri;
  if (launch.messageType === 'LtiDeepLinkingRequest') return state.tool.deepLinkingUrl ?? state.tool.launchUrl;
  return state.tool.launchUrl;
}

function routes(app: FastifyInstance, state: SimulatorState, fetchJwks: LmsSimulatorOptions['tool']['fetchJwks']) {
  app.get('/.well-known/jwks.json', async () => ({ keys: [state.key.publicJwk] }));

  // A browser opening launchUrl: the LMS sends it to the tool's login initiation (third-party initiated login).
  app.get<{ Params: { id: string } }>('/launches/:id', async (request, reply) => {
    const launch = state.launches.get(request.params.id);
    if (!launch) return reply.status(404).type('text/html').send(messagePage('Unknown launch', request.params.id));
    return reply.redirect(loginInitiationFor(state, request.params.id, launch));
  });

  // OIDC authentication request from the tool (LTI Core 1.3 §5.1.1.2; OpenID Connect Core §3.1.2.1), GET or POST.
  const authorize = async (params: Record<string, string | undefined>, reply: FastifyReply) => {
    const refuse = (reason: string) => {
      state.authErrors.push(reason);
      return reply.status(400).type('text/html').send(messagePage('Authentication request refused', reason));
    };
    const expected: Record<string, string> = {
      scope: 'openid',
      response_type: 'id_token',
      response_mode: 'form_post',
      prompt: 'none',
      client_id: state.clientId,
    };
    for (const [name, value] of Object.entries(expected))
      if (params[name] !== value) return refuse(`${name} must be ${value}, got ${params[name] ?? 'nothing'}`);
    const redirectUris = [state.tool.launchUrl, state.tool.deepLinkingUrl].filter(Boolean);
    if (!params.redirect_uri || !redirectUris.includes(params.redirect_uri))
      return refuse(`redirect_uri ${params.redirect_uri ?? '(none)'} is not registered`);
    if (!params.state) return refuse('state is missing');
    if (!params.nonce) return refuse('nonce is missing');
    const launchId = params.lti_message_hint;
    const launch = launchId ? state.launches.get(launchId) : undefined;
    if (!launch) return refuse('lti_message_hint names no launch');
    if (params.login_hint !== launch.user.sub) return refuse('login_hint is not the user who launched');
    state.launches.delete(launchId!);
    const idToken = await signIdToken(state, launch, {
      nonce: launch.faults?.nonce ?? params.nonce,
      target: targetOf(launch, state),
      returnUrl: launch.deepLinking?.returnUrl ?? `${state.origin}/deep-links/return`,
      extraClaims: launch.messageType === 'LtiDeepLinkingRequest' ? {} : advantageClaims(state, launch),
    });
    return reply.type('text/html').send(autoPostForm(params.redirect_uri, { id_token: idToken, state: params.state }));
  };
  app.get<{ Querystring: Record<string, string> }>('/auth', (request, reply) => authorize(request.query, reply));
  app.post<{ Body: Record<string, string> }>('/auth', (request, reply) => authorize(request.body ?? {}, reply));

  // Deep Linking 2.0 §4.5: the tool's response, verified against the tool's JWKS, recorded, and placed in the course.
  app.post<{ Body: Record<string, string> }>('/deep-links/return', async (request, reply) => {
    const response = await verifyDeepLinkResponse(state, request.body?.JWT, fetchJwks);
    state.deepLinkResponses.push(response);
    if (!response.ok) return reply.status(400).type('text/html').send(messagePage('Deep link refused', response.error));
    const titles = response.contentItems.map((item) => String(item.title ?? item.url ?? 'item'));
    return reply.type('text/html').send(messagePage('Deep link received', titles.join(', ')));
  });
}

/** The tool's login initiation URL; the launch stays known until the tool's authentication request names it. */
function loginInitiationFor(state: SimulatorState, launchId: string, launch: LaunchSpec): string {
  state.launches.set(launchId, launch);
  const url = new URL(state.tool.loginUrl);
  url.searchParams.set('iss', state.issuer);
  url.searchParams.set('login_hint', launch.user.sub);
  url.searchParams.set('target_link_uri', targetOf(launch, state));
  url.searchParams.set('lti_message_hint', launchId);
  url.searchParams.set('client_id', state.clientId);
  url.searchParams.set('lti_deployment_id', launch.deploymentId ?? state.deploymentId);
  return url.toString();
}
