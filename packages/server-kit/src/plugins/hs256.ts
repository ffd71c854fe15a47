import { createHmac, timingSafeEqual } from 'node:crypto';

/** The header every token of the platform carries (@fastify/jwt signs HS256 with no other header field). */
const PLAIN_HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

/**
 * The common case of the token check, one HMAC and one decode: a token of the platform's own shape (the plain HS256
 * header, exactly), whose signature is this secret's over its first two parts (compared as the canonical base64url
 * text, so no other spelling of the same bytes passes), unexpired (`exp` a number in the future) and active (`nbf`
 * absent or a number in the past). Answers its claims, or undefined for anything else — another header, a bad or
 * non-canonical signature, no `exp`, a date not a number, an expired token —, which the caller then hands to the full
 * check (@fastify/jwt with fast-jwt: its errors, its cache). So this path only ever accepts a token the full check
 * accepts too: fast-jwt's rules for such a token are the signature, `exp` (valid while now ≤ exp) and `nbf` (valid
 * once now ≥ nbf), with no clock tolerance, as server-kit configures it.
 *
 * Why: a candidate's first message on a replica arrives with a token it has not verified yet, and fast-jwt's check
 * of an unseen token (two decodes, a SHA-256 of the token for its cache key, the HMAC, the cache's bookkeeping) was
 * about 8% of llm-gateway's CPU per chat in the profile (bench/README.md, llm-gateway, 2026-11-29).
 */
export function createHs256Check(secret: string) {
  const key = Buffer.from(secret);
  return (token: string): Record<string, unknown> | undefined => {
    const first = token.indexOf('.');
    if (first !== PLAIN_HEADER.length || !token.startsWith(PLAIN_HEADER)) return undefined;
    const second = token.indexOf('.', first + 1);
    if (second < 0) return undefined;
    const given = token.slice(second + 1);
    const expected = createHmac('sha256', key).update(token.slice(0, second)).digest('base64url');
    if (given.length !== expected.length || !timingSafeEqual(Buffer.from(given), Buffer.from(expected)))
      return undefined;
    let claims: unknown;
    try {
      claims = JSON.parse(Buffer.from(token.slice(first + 1, second), 'base64url').toString('utf8'));
    } catch {
      return undefined;
    }
    if (typeof claims !== 'object' || claims === null || Array.isArray(claims)) return undefined;
    const { exp, nbf } = claims as { exp?: unknown; nbf?: unknown };
    const now = Date.now();
    if (typeof exp !== 'number' || !(now < exp * 1000)) return undefined;
    if (nbf !== undefined && (typeof nbf !== 'number' || !(now >= nbf * 1000))) return undefined;
    return claims as Record<string, unknown>;
  };
}

/** The token of an `Authorization: Bearer <token>` header as @fastify/jwt reads it, or undefined. */
export function bearerToken(authorization: string | undefined): string | undefined {
  if (!authorization || !authorization.startsWith('Bearer ')) return undefined;
  const token = authorization.slice(7);
  return token && !token.includes(' ') ? token : undefined;
}
