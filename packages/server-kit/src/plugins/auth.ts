import { timingSafeEqual } from 'node:crypto';
import jwt from '@fastify/jwt';
import {
  AttemptClaimsSchema,
  AuthMessages,
  CreatorClaimsSchema,
  type AttemptClaims,
  type CreatorClaims,
  type TokenClaims,
} from '@exam/domain/auth';
import { AppError, ErrorCode } from '@exam/domain/errors';
import { WorkspaceAgentClaimsSchema, type WorkspaceAgentClaims } from '@exam/domain/workspace-agents';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: TokenClaims;
    user: TokenClaims;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Route guard: a valid, unexpired creator token. */
    requireCreator: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** Route guard: a valid, unexpired attempt token. */
    requireAttempt: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** Route guard: a creator token or an attempt token. */
    requireCreatorOrAttempt: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /**
     * Route guard: a coding workspace's agent token (kind `workspace-agent`), sent as `Authorization: Bearer` (OpenAI
     * clients) or `x-api-key` (Anthropic clients). Only llm-gateway's agent endpoint declares it; every other guard
     * refuses this kind.
     */
    requireWorkspaceAgent: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** Route guard: a call from another service of the platform. */
    requireInternal: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** Whether a creator token's session is still open (see CreatorSessionCheck). */
    creatorSessionOpen: CreatorSessionCheck;
  }
}

/**
 * Whether a creator token's sign-in session is still open. exam-service owns sessions and reads its own
 * table; every other service asks exam-service (creator-sessions.ts). No cache: a revoked token is refused
 * on the very next request, by every replica.
 */
export type CreatorSessionCheck = (claims: CreatorClaims) => Promise<boolean>;

export type AuthPluginOptions = {
  jwtSecret: string;
  internalToken: string;
  creatorTokenTtl?: string;
  creatorSessions: CreatorSessionCheck;
};

/** How many verified tokens each process remembers: one a candidate, for a large exam on one replica. */
const VERIFIED_TOKEN_CACHE = 10_000;

async function verify(request: FastifyRequest): Promise<TokenClaims> {
  try {
    return await request.jwtVerify<TokenClaims>();
  } catch {
    throw new AppError(ErrorCode.UNAUTHENTICATED, 'Missing, invalid or expired token');
  }
}

/** Registers @fastify/jwt and the route guards; the role is declared on the route, not re-checked in handlers. */
export const authPlugin = fp(async (app: FastifyInstance, opts: AuthPluginOptions) => {
  // Verified tokens are remembered (fast-jwt's LRU, keyed by the token, never past its `exp`): a candidate
  // sends the same token with every autosave, and the signature check was a visible part of each save's CPU.
  // Only what the token itself proves is cached; revocable things (creator sessions) are still checked each time.
  await app.register(jwt, {
    secret: opts.jwtSecret,
    sign: { expiresIn: opts.creatorTokenTtl ?? '12h' },
    verify: { cache: VERIFIED_TOKEN_CACHE },
  });
  const expected = Buffer.from(opts.internalToken);
  app.decorate('creatorSessionOpen', opts.creatorSessions);

  const requireOpenSession = async (claims: TokenClaims) => {
    if (claims.kind !== 'creator') throw new AppError(ErrorCode.FORBIDDEN, 'A creator account is required');
    // A creator token without a session id predates sessions: it can no longer be checked, so it has ended.
    const creator = CreatorClaimsSchema.safeParse(claims);
    if (!creator.success || !(await opts.creatorSessions(creator.data)))
      throw new AppError(ErrorCode.UNAUTHENTICATED, AuthMessages.sessionEnded);
  };

  app.decorate('requireCreator', async (request: FastifyRequest) => {
    await requireOpenSession(await verify(request));
  });
  app.decorate('requireAttempt', async (request: FastifyRequest) => {
    const claims = await verify(request);
    if (!AttemptClaimsSchema.safeParse(claims).success)
      throw new AppError(ErrorCode.FORBIDDEN, 'An exam attempt token is required');
  });
  app.decorate('requireCreatorOrAttempt', async (request: FastifyRequest) => {
    const claims = await verify(request);
    if (claims.kind !== 'attempt') await requireOpenSession(claims);
  });
  app.decorate('requireWorkspaceAgent', async (request: FastifyRequest) => {
    const token = agentTokenOf(request);
    let claims: unknown;
    try {
      claims = token ? await app.jwt.verify(token) : undefined;
    } catch {
      claims = undefined;
    }
    if (claims === undefined) throw new AppError(ErrorCode.UNAUTHENTICATED, 'Missing, invalid or expired token');
    const agent = WorkspaceAgentClaimsSchema.safeParse(claims);
    if (!agent.success) throw new AppError(ErrorCode.FORBIDDEN, 'A workspace agent token is required');
    request.user = agent.data;
  });
  app.decorate('requireInternal', async (request: FastifyRequest) => {
    const given = Buffer.from(String(request.headers['x-internal-token'] ?? ''));
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      throw new AppError(ErrorCode.UNAUTHENTICATED, 'Internal token required');
  });
});

/** The creator behind a request that passed `requireCreator`. */
export function creatorOf(request: FastifyRequest): CreatorClaims {
  const user = request.user;
  if (user?.kind !== 'creator') throw new AppError(ErrorCode.FORBIDDEN, 'A creator account is required');
  return user;
}

/** The attempt behind a request that passed `requireAttempt`. */
export function attemptOf(request: FastifyRequest): AttemptClaims {
  const user = request.user;
  if (user?.kind !== 'attempt') throw new AppError(ErrorCode.FORBIDDEN, 'An exam attempt token is required');
  return user;
}

/** The token an agent sent: OpenAI clients put it in `Authorization: Bearer`, Anthropic clients in `x-api-key`. */
function agentTokenOf(request: FastifyRequest): string | undefined {
  const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
  if (bearer) return bearer;
  const key = request.headers['x-api-key'];
  return typeof key === 'string' && key ? key : undefined;
}

/** The workspace agent behind a request that passed `requireWorkspaceAgent`. */
export function workspaceAgentOf(request: FastifyRequest): WorkspaceAgentClaims {
  const user = request.user;
  if (user?.kind !== 'workspace-agent') throw new AppError(ErrorCode.FORBIDDEN, 'A workspace agent token is required');
  return user;
}

/** Returns the claims when the request carries a valid token, undefined otherwise (optional auth). */
export async function optionalClaims(request: FastifyRequest): Promise<TokenClaims | undefined> {
  if (!request.headers.authorization) return undefined;
  let claims: TokenClaims;
  try {
    claims = await request.jwtVerify<TokenClaims>();
  } catch {
    return undefined;
  }
  if (claims.kind !== 'attempt') {
    const creator = CreatorClaimsSchema.safeParse(claims);
    if (!creator.success || !(await request.server.creatorSessionOpen(creator.data))) return undefined;
  }
  return claims;
}
