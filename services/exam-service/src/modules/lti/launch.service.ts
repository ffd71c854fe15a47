import { AppError, ErrorCode, notFound } from '@exam/domain/errors';
import {
  examMaxPoints,
  isInstructorLaunch,
  launchDisplayName,
  LTI_VERSION,
  LtiClaim,
  LtiMessages,
  LtiMessageType,
  type LtiDeepLinkResponse,
  type LtiLaunchNext,
  type LtiLaunchSession,
} from '@exam/domain/lti';
import { signLtiGrant } from '@exam/server-kit/lti-grant';
import { SignJWT, type JWTVerifyGetKey } from 'jose';
import { createHash, randomBytes } from 'node:crypto';
import type { Deps } from '../../deps.ts';
import type { AuthRepository } from '../auth/auth.repository.ts';
import type { CreatorSignIn } from '../auth/creator-sign-in.ts';
import type { ExamsRepository } from '../exams/exams.repository.ts';
import { LtiLaunchError, verifyIdToken, type LaunchClaims } from './id-token.ts';
import type { LaunchRepository, TicketRow } from './launch.repository.ts';
import { isRegisteredOrigin } from './platform-origins.ts';
import type { LtiPlatformRow, PlatformsRepository } from './platforms.repository.ts';
import type { ToolKeys } from './tool-keys.ts';

/** What an instructor's ticket carries across the redirect into the creator app. */
type TicketLaunch =
  | { kind: 'exam'; sub: string; examId: string }
  | { kind: 'deep-link'; sub: string; deploymentId: string; returnUrl: string; data?: string };

export type LoginParams = {
  iss?: string;
  login_hint?: string;
  target_link_uri?: string;
  lti_message_hint?: string;
  client_id?: string;
  lti_deployment_id?: string;
};

export type LaunchOptions = {
  toolOrigin: string;
  creatorOrigin: string;
  takerOrigin: string;
  jwtSecret: string;
  stateTtlSeconds: number;
  ticketTtlSeconds: number;
  grantTtlSeconds: number;
  clockToleranceSeconds: number;
  /** LTI_IAT_SKEW_SECONDS: how far ahead of this clock an id_token's iat may be. */
  iatSkewSeconds: number;
  /** LTI_ALLOW_LOOPBACK_HTTP: a registration's authorization endpoint may be plain http (one machine only). */
  allowLoopbackHttp: boolean;
};

/** A registration that shares its client ID and token endpoint with an earlier one (see lti_platforms.token_origin). */
const SUSPENDED =
  "This LMS registration shares its client ID and token endpoint with another creator's and is suspended: its owner must correct it";

const randomToken = () => randomBytes(32).toString('base64url');
const hashTicket = (ticket: string) => createHash('sha256').update(ticket).digest('hex');
const invalidTicket = () =>
  new AppError(ErrorCode.VALIDATION, LtiMessages.ticketInvalid, [
    { path: 'ticket', message: LtiMessages.ticketInvalid },
  ]);

/**
 * LTI 1.3 logins and launches (ARCHITECTURE.md "LTI"): the login stores its state and nonce, the launch spends them
 * and validates the id_token, then sends an instructor to the creator app with a ticket and a learner to the taker
 * app with a signed grant. Every step reads and writes the database only, so any replica can take any step.
 */
export function createLaunchService(
  repos: {
    platforms: PlatformsRepository;
    launches: LaunchRepository;
    exams: ExamsRepository;
    auth: AuthRepository;
  },
  deps: Pick<Deps, 'clock' | 'ids'> & {
    toolKeys: ToolKeys;
    signIn: CreatorSignIn;
    /** The key set of a platform's JWKS URL (jose's remote set, cached per URL). */
    platformKeys: (jwksUrl: string) => JWTVerifyGetKey;
  },
  opts: LaunchOptions,
) {
  const launchUrl = `${opts.toolOrigin}/lti/launch`;
  const later = (seconds: number) => new Date(deps.clock.now().getTime() + seconds * 1000);

  async function issueTicket(platformId: string, launch: TicketLaunch): Promise<string> {
    const ticket = randomToken();
    await repos.launches.insertTicket({
      ticketHash: hashTicket(ticket),
      platformId,
      launch,
      expiresAt: later(opts.ticketTtlSeconds),
    });
    // In the fragment: never sent to a server, so never in an access log or a Referer.
    return `${opts.creatorOrigin}/lti-launch#ticket=${encodeURIComponent(ticket)}`;
  }

  /** The exam a resource link opens: the deep link's custom exam_id, else the link's; the platform owner's only. */
  async function examOfLink(platform: LtiPlatformRow, claims: LaunchClaims) {
    const resourceLinkId = claims[LtiClaim.resourceLink]!.id;
    const deploymentId = claims[LtiClaim.deploymentId];
    const custom = claims[LtiClaim.custom]?.exam_id;
    const link = await repos.launches.findLink(platform.id, deploymentId, resourceLinkId);
    const examId = typeof custom === 'string' && custom ? custom : link?.examId;
    if (!examId)
      throw new LtiLaunchError('This LMS link has no exam yet: an instructor chooses one through deep linking', 404);
    const exam = await repos.exams.findOwned(platform.creatorId, examId);
    if (!exam) throw new LtiLaunchError('The exam of this LMS link is not available', 404);
    return exam;
  }

  async function resourceLinkLaunch(platform: LtiPlatformRow, claims: LaunchClaims, now: Date): Promise<string> {
    const exam = await examOfLink(platform, claims);
    const ags = claims[LtiClaim.agsEndpoint];
    const resourceLink = claims[LtiClaim.resourceLink]!;
    // The Advantage services are used only on the registration's own origins: a URL elsewhere (another LMS's course)
    // is not stored, so the launch works and that service is simply not offered.
    const onPlatform = (url: string | undefined) => (url && isRegisteredOrigin(platform, url) ? url : null);
    const link = await repos.launches.upsertLink({
      id: deps.ids.next(),
      platformId: platform.id,
      deploymentId: claims[LtiClaim.deploymentId],
      contextId: claims[LtiClaim.context]?.id ?? null,
      resourceLinkId: resourceLink.id,
      title: resourceLink.title ?? null,
      examId: exam.id,
      lineItemUrl: onPlatform(ags?.lineitem),
      lineItemsUrl: onPlatform(ags?.lineitems),
      agsScopes: ags?.scope ?? [],
      contextMembershipsUrl: onPlatform(claims[LtiClaim.nrpsService]?.context_memberships_url),
      createdAt: now,
      updatedAt: now,
    });
    if (isInstructorLaunch(claims[LtiClaim.roles]))
      return issueTicket(platform.id, { kind: 'exam', sub: claims.sub, examId: exam.id });

    // A learner: the candidate ID is the LMS's `sub`, the id AGS scores and NRPS memberships use for the same
    // person (lis.person_sourcedid is optional and not stable across LMSs); the name is the launch's.
    const grant = await signLtiGrant(
      {
        examId: exam.id,
        name: launchDisplayName(claims) || claims.sub,
        studentId: claims.sub,
        lti: {
          platformId: platform.id,
          deploymentId: link.deploymentId,
          resourceLinkId: link.resourceLinkId,
          lineItemUrl: link.lineItemUrl,
          sub: claims.sub,
        },
      },
      { jwtSecret: opts.jwtSecret, ttlSeconds: opts.grantTtlSeconds, now },
    );
    return `${opts.takerOrigin}/exam/${encodeURIComponent(exam.id)}#lti=${encodeURIComponent(grant)}`;
  }

  /** The ticket's launch, if it is live, and the creator account its LMS user is linked to. */
  async function liveTicket(ticket: string) {
    const now = deps.clock.now();
    const row = await repos.launches.findTicket(hashTicket(ticket), now);
    if (!row) throw invalidTicket();
    return { row, launch: row.launch as TicketLaunch, now };
  }

  /** Opens the ticket's way on: the exam's ticket is spent now, the deep-linking one when the picker answers. */
  async function redeem(row: TicketRow, launch: TicketLaunch, now: Date): Promise<LtiLaunchNext> {
    if (!(await repos.launches.redeemTicket(row.ticketHash, now))) throw invalidTicket();
    if (launch.kind === 'exam') {
      await repos.launches.consumeTicket(row.ticketHash, now);
      return { kind: 'exam', examId: launch.examId };
    }
    return { kind: 'deep-link' };
  }

  return {
    /** OIDC third-party initiated login (LTI Core 1.3 §5.1.1.1): answers where to send the browser, and the state. */
    async login(params: LoginParams): Promise<{ redirect: string; state: string }> {
      const { iss, login_hint: loginHint, target_link_uri: target } = params;
      if (!iss || !loginHint || !target) throw new LtiLaunchError('A login needs iss, login_hint and target_link_uri');
      if (!target.startsWith(`${opts.toolOrigin}/lti/`))
        throw new LtiLaunchError('target_link_uri is not a launch URL of this tool');
      const platform = await repos.platforms.byIssuerAndClient(iss, params.client_id || undefined);
      if (!platform)
        throw new LtiLaunchError(
          `No platform is registered with issuer ${iss}${params.client_id ? ` and client ID ${params.client_id}` : ''}`,
        );
      if (platform.tokenOrigin === null) throw new LtiLaunchError(SUSPENDED);
      // The browser goes to the registered authorization endpoint and nowhere else, over https outside loopback mode
      // (a registration stored before or while http was allowed is not followed off this machine's setting).
      const url = new URL(platform.authLoginUrl);
      if (url.protocol !== 'https:' && !(opts.allowLoopbackHttp && url.protocol === 'http:'))
        throw new LtiLaunchError("This LMS registration's authorization endpoint is not an https:// URL");
      if (params.lti_deployment_id && !platform.deploymentIds.includes(params.lti_deployment_id))
        throw new LtiLaunchError(`Deployment ${params.lti_deployment_id} is not registered for this platform`);
      const state = randomToken();
      const nonce = randomToken();
      await repos.launches.insertState({
        state,
        nonce,
        platformId: platform.id,
        targetLinkUri: target,
        expiresAt: later(opts.stateTtlSeconds),
      });
      // The authentication request (LTI Core 1.3 §5.1.1.2, OpenID Connect Core §3.1.2.1).
      const query: Record<string, string> = {
        scope: 'openid',
        response_type: 'id_token',
        response_mode: 'form_post',
        prompt: 'none',
        client_id: platform.clientId,
        redirect_uri: launchUrl,
        login_hint: loginHint,
        state,
        nonce,
        ...(params.lti_message_hint ? { lti_message_hint: params.lti_message_hint } : {}),
      };
      for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
      return { redirect: url.toString(), state };
    },

    /**
     * The authentication response (LTI Core 1.3 §5.1.1.3): spends the state, validates the id_token, and answers
     * where the browser goes. A refusal throws LtiLaunchError with the reason; nothing of the launch is stored.
     */
    async launch(form: { id_token?: string; state?: string }, cookieState: string | undefined): Promise<string> {
      if (!form.state) throw new LtiLaunchError('The launch carries no state');
      if (!form.id_token) throw new LtiLaunchError('The launch carries no id_token');
      const login = await repos.launches.consumeState(form.state);
      const now = deps.clock.now();
      if (!login) throw new LtiLaunchError('This login is unknown or was already used: start it again from the LMS');
      if (login.expiresAt <= now) throw new LtiLaunchError('This login took too long: start it again from the LMS');
      // The browser-bound check, when the browser kept the cookie (see ARCHITECTURE.md "LTI" on blocked cookies).
      if (cookieState !== undefined && cookieState !== form.state)
        throw new LtiLaunchError('This launch did not come back to the browser that started the login');
      const platform = await repos.platforms.byId(login.platformId);
      if (!platform) throw new LtiLaunchError('The platform of this login is no longer registered');
      if (platform.tokenOrigin === null) throw new LtiLaunchError(SUSPENDED);
      const claims = await verifyIdToken(
        form.id_token,
        platform,
        { nonce: login.nonce, targetLinkUri: login.targetLinkUri },
        {
          keys: deps.platformKeys(platform.jwksUrl),
          clockToleranceSeconds: opts.clockToleranceSeconds,
          iatSkewSeconds: opts.iatSkewSeconds,
          now,
        },
      );
      const messageType = claims[LtiClaim.messageType];
      const instructor = isInstructorLaunch(claims[LtiClaim.roles]);
      if (messageType === LtiMessageType.deepLinkingRequest && !instructor)
        throw new LtiLaunchError(LtiMessages.notInstructor, 403);
      if (messageType === LtiMessageType.resourceLink) await examOfLink(platform, claims);
      // The nonce is spent only for a launch that will be acted on, until the token could no longer be valid.
      const tokenExpiry = new Date(((claims.exp ?? 0) + opts.clockToleranceSeconds) * 1000);
      if (!(await repos.launches.spendNonce(platform.id, claims.nonce as string, tokenExpiry)))
        throw new LtiLaunchError('This id_token was already used');

      if (messageType === LtiMessageType.resourceLink) return resourceLinkLaunch(platform, claims, now);
      const settings = claims[LtiClaim.deepLinkingSettings]!;
      return issueTicket(platform.id, {
        kind: 'deep-link',
        sub: claims.sub,
        deploymentId: claims[LtiClaim.deploymentId],
        returnUrl: settings.deep_link_return_url,
        ...(settings.data !== undefined ? { data: settings.data } : {}),
      });
    },

    /** An instructor's ticket: a creator session when the LMS user is linked, else what to link. */
    async openSession(ticket: string): Promise<LtiLaunchSession> {
      const { row, launch, now } = await liveTicket(ticket);
      if (row.redeemedAt) throw invalidTicket();
      const account = await repos.launches.findAccount(row.platformId, launch.sub);
      if (!account) {
        const platform = await repos.platforms.byId(row.platformId);
        return { status: 'link-required', platformName: platform?.name ?? '' };
      }
      const found = await repos.auth.findById(account.userId);
      if (!found) throw invalidTicket();
      const { passwordHash: _hash, ...user } = found;
      const next = await redeem(row, launch, now);
      const { token } = await deps.signIn(user);
      return { status: 'signed-in', token, user, next };
    },

    /** The signed-in creator links the ticket's LMS user to their account: only on a platform they registered. */
    async linkAccount(creatorId: string, ticket: string): Promise<{ next: LtiLaunchNext }> {
      const { row, launch, now } = await liveTicket(ticket);
      if (row.redeemedAt) throw invalidTicket();
      const platform = await repos.platforms.byId(row.platformId);
      if (!platform || platform.creatorId !== creatorId)
        throw new AppError(ErrorCode.FORBIDDEN, LtiMessages.notPlatformOwner);
      const account = await repos.launches.linkAccount({
        platformId: row.platformId,
        sub: launch.sub,
        userId: creatorId,
        createdAt: now,
      });
      if (account.userId !== creatorId) throw new AppError(ErrorCode.CONFLICT, LtiMessages.alreadyLinked);
      return { next: await redeem(row, launch, now) };
    },

    /** Deep Linking 2.0 §4.5: the picked exam as one ltiResourceLink, signed with the registration's key. */
    async respondDeepLink(creatorId: string, choice: { ticket: string; examId: string }): Promise<LtiDeepLinkResponse> {
      const { row, launch, now } = await liveTicket(choice.ticket);
      if (launch.kind !== 'deep-link' || !row.redeemedAt) throw invalidTicket();
      const account = await repos.launches.findAccount(row.platformId, launch.sub);
      if (account?.userId !== creatorId) throw invalidTicket();
      const exam = await repos.exams.findOwned(creatorId, choice.examId);
      if (!exam) throw notFound('Exam');
      const platform = await repos.platforms.byId(row.platformId);
      if (!platform || !(await repos.launches.consumeTicket(row.ticketHash, now))) throw invalidTicket();

      // Signed with the registration's own key: no other registration's messages verify as this one's.
      const { kid, privateKey } = await deps.toolKeys.signingKey(platform.id);
      const contentItem = {
        type: 'ltiResourceLink',
        title: exam.title,
        url: launchUrl,
        custom: { exam_id: exam.id },
        // AGS 2.0 §3.2 (Deep Linking 2.0 §3.4.7): the LMS makes a gradebook column for the link.
        lineItem: { scoreMaximum: examMaxPoints(exam.questions, exam.pools), label: exam.title, resourceId: exam.id },
      };
      const jwt = await new SignJWT({
        nonce: randomToken(),
        [LtiClaim.messageType]: LtiMessageType.deepLinkingResponse,
        [LtiClaim.version]: LTI_VERSION,
        [LtiClaim.deploymentId]: launch.deploymentId,
        [LtiClaim.contentItems]: [contentItem],
        ...(launch.data !== undefined ? { [LtiClaim.deepLinkingData]: launch.data } : {}),
      })
        .setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' })
        .setIssuer(platform.clientId)
        .setAudience(platform.issuer)
        .setIssuedAt(Math.floor(now.getTime() / 1000))
        .setExpirationTime(Math.floor(now.getTime() / 1000) + 300)
        .sign(privateKey);
      return { returnUrl: launch.returnUrl, jwt };
    },
  };
}
export type LaunchService = ReturnType<typeof createLaunchService>;
