import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { AttemptClaimsSchema } from '@exam/domain/auth';
import { AppError, ErrorCode } from '@exam/domain/errors';

export const PROXY_COOKIE = 'exam_ws';

export type AccessOptions = {
  /** Verifies a JWT with the shared secret; throws when it is invalid or expired. */
  verifyToken: (token: string) => unknown;
  secret: string;
  allowedOrigins: string[];
  cookieTtlSeconds: number;
};

export type AccessRequest = {
  sessionId: string;
  attemptId: string;
  headers: IncomingHttpHeaders;
  queryToken: string | undefined;
  upgrade: boolean;
  now: Date;
};

/** `setCookie`: a Set-Cookie header to send; `redirect`: the token came in the URL and should leave it. */
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
 * Who may reach /workspace/{sessionId}/: the attempt that owns the session, proven by its token (the
 * Authorization header, or `?token=` once, which is exchanged for a short-lived HttpOnly cookie scoped
 * to the session's path), from the taker or creator origin. A browser always sends Origin on a
 * WebSocket upgrade, so there it is required; plain navigations may omit it.
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

  function attemptFromToken(token: string, attemptId: string): { exp: number } {
    let claims: unknown;
    try {
      claims = opts.verifyToken(token);
    } catch {
      throw new AppError(ErrorCode.UNAUTHENTICATED, 'Missing, invalid or expired token');
    }
    const parsed = AttemptClaimsSchema.safeParse(claims);
    if (!parsed.success) throw new AppError(ErrorCode.FORBIDDEN, 'An exam attempt token is required');
    if (parsed.data.sub !== attemptId)
      throw new AppError(ErrorCode.FORBIDDEN, 'This workspace belongs to another attempt');
    return { exp: Number((claims as { exp?: number }).exp ?? 0) };
  }

  return function check(request: AccessRequest): Access {
    const origin = request.headers.origin;
    if (origin !== undefined && !opts.allowedOrigins.includes(origin))
      throw new AppError(ErrorCode.FORBIDDEN, 'Origin not allowed');
    if (request.upgrade && origin === undefined) throw new AppError(ErrorCode.FORBIDDEN, 'Origin required');
    const nowSeconds = Math.floor(request.now.getTime() / 1000);
    const secure = request.headers['x-forwarded-proto'] === 'https';

    const bearer = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1];
    if (bearer) {
      attemptFromToken(bearer, request.attemptId);
      return { redirect: false };
    }
    if (request.queryToken) {
      const { exp } = attemptFromToken(request.queryToken, request.attemptId);
      return {
        setCookie: issueCookie(
          request.sessionId,
          request.attemptId,
          nowSeconds,
          exp || nowSeconds + opts.cookieTtlSeconds,
          secure,
        ),
        redirect: true,
      };
    }
    const cookie = parseCookies(request.headers.cookie).find(([name]) => name === PROXY_COOKIE)?.[1];
    const payload = cookie ? readCookie(cookie) : undefined;
    if (!payload || payload.exp <= nowSeconds || payload.s !== request.sessionId)
      throw new AppError(ErrorCode.UNAUTHENTICATED, 'Missing, invalid or expired token');
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
