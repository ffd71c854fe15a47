import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { AppError, ErrorCode } from '@exam/domain/errors';
import type { LaunchTokens } from './launch-tokens.ts';

export const PROXY_COOKIE = 'exam_ws';
/** The query parameter that carries a one-time launch token into the editor's frame. */
export const LAUNCH_PARAM = 'launch';

export type AccessOptions = {
  secret: string;
  /** WORKSPACE_ORIGIN: the only origin the editor's own page (and its WebSockets) comes from. */
  workspaceOrigin: string;
  cookieTtlSeconds: number;
  launchTokens: Pick<LaunchTokens, 'consume'>;
};

export type AccessRequest = {
  sessionId: string;
  attemptId: string;
  headers: IncomingHttpHeaders;
  launchToken: string | undefined;
  upgrade: boolean;
  now: Date;
};

/** `setCookie`: a Set-Cookie header to send; `redirect`: a launch token came in the URL and should leave it. */
export type Access = { setCookie?: string; redirect: boolean };

type CookiePayload = { s: string; a: string; exp: number; cap: number };

export function parseCookies(header: string | undefined): Array<[string, string]> {
  if (!header) return [];
  return header
    .split(';')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const eq = part.indexOf('=');
      return eq < 0 ? [part, ''] : [part.slice(0, eq).trim(), part.slice(eq + 1).trim()];
    });
}

/**
 * Who may reach /workspace/{sessionId}/ on WORKSPACE_ORIGIN: a browser holding the orchestrator's own cookie
 * for that session. The cookie is bought once with a launch token (one-time, short-lived, issued to the
 * attempt that owns the session) and is HttpOnly, SameSite=Strict and scoped to the session's path; the
 * candidate's attempt token never reaches this origin. A browser always sends Origin on a WebSocket upgrade,
 * so there it is required; plain navigations may omit it.
 */
export function createAccessChecker(opts: AccessOptions) {
  const key = createHmac('sha256', opts.secret).update('workspace-proxy-cookie').digest();
  const sign = (data: string) => createHmac('sha256', key).update(data).digest('base64url');

  function issueCookie(sessionId: string, attemptId: string, nowSeconds: number, cap: number, secure: boolean): string {
    const exp = Math.min(nowSeconds + opts.cookieTtlSeconds, cap);
    const data = Buffer.from(JSON.stringify({ s: sessionId, a: attemptId, exp, cap } satisfies CookiePayload)).toString(
      'base64url',
    );
    const maxAge = Math.max(0, exp - nowSeconds);
    return `${PROXY_COOKIE}=${data}.${sign(data)}; Path=/workspace/${sessionId}/; Max-Age=${maxAge}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
  }

  function readCookie(value: string): CookiePayload | undefined {
    const [data, signature] = value.split('.');
    if (!data || !signature) return undefined;
    const expected = Buffer.from(sign(data));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
    try {
      return JSON.parse(Buffer.from(data, 'base64url').toString('utf8')) as CookiePayload;
    } catch {
      return undefined;
    }
  }

  return async function check(request: AccessRequest): Promise<Access> {
    const origin = request.headers.origin;
    if (origin !== undefined && origin !== opts.workspaceOrigin)
      throw new AppError(ErrorCode.FORBIDDEN, 'Origin not allowed');
    if (request.upgrade && origin === undefined) throw new AppError(ErrorCode.FORBIDDEN, 'Origin required');
    const nowSeconds = Math.floor(request.now.getTime() / 1000);
    const secure = request.headers['x-forwarded-proto'] === 'https' || opts.workspaceOrigin.startsWith('https:');

    if (request.launchToken && !request.upgrade) {
      const launch = await opts.launchTokens.consume(request.launchToken, request.sessionId, request.now);
      if (!launch) throw new AppError(ErrorCode.UNAUTHENTICATED, 'This workspace link is used up or expired');
      if (launch.attemptId !== request.attemptId)
        throw new AppError(ErrorCode.FORBIDDEN, 'This workspace belongs to another attempt');
      const cap = Math.floor(launch.capAt.getTime() / 1000);
      return { setCookie: issueCookie(request.sessionId, request.attemptId, nowSeconds, cap, secure), redirect: true };
    }
    const cookie = parseCookies(request.headers.cookie).find(([name]) => name === PROXY_COOKIE)?.[1];
    const payload = cookie ? readCookie(cookie) : undefined;
    if (!payload || payload.exp <= nowSeconds || payload.s !== request.sessionId)
      throw new AppError(ErrorCode.UNAUTHENTICATED, 'Missing, invalid or expired workspace cookie');
    if (payload.a !== request.attemptId)
      throw new AppError(ErrorCode.FORBIDDEN, 'This workspace belongs to another attempt');
    // Sliding renewal while the candidate works, never past the attempt token's own expiry.
    const renew = payload.exp - nowSeconds < opts.cookieTtlSeconds / 2 && payload.exp < payload.cap;
    return {
      redirect: false,
      ...(renew
        ? { setCookie: issueCookie(request.sessionId, request.attemptId, nowSeconds, payload.cap, secure) }
        : {}),
    };
  };
}
export type AccessChecker = ReturnType<typeof createAccessChecker>;
