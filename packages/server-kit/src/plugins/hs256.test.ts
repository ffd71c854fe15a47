import { createHmac } from 'node:crypto';
import jwt from '@fastify/jwt';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { bearerToken, createHs256Check } from './hs256.ts';

const SECRET = 'a-secret-of-the-platform-long-enough-for-hs256';
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** A token with any header and payload, signed HS256 with `secret`. */
const handMade = (header: unknown, payload: unknown, secret = SECRET) => {
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
};
const now = () => Math.floor(Date.now() / 1000);

describe('the quick HS256 check', () => {
  const check = createHs256Check(SECRET);
  // The full check as server-kit configures it (auth.ts: @fastify/jwt, fast-jwt underneath, no clock tolerance).
  let app: FastifyInstance;
  beforeAll(async () => {
    app = Fastify();
    await app.register(jwt, { secret: SECRET, verify: { cache: 100 } });
    await app.ready();
  });
  afterAll(() => app.close());
  const full = (token: string) => app.jwt.verify<Record<string, unknown>>(token);
  const fullAccepts = (token: string) => {
    try {
      full(token);
      return true;
    } catch {
      return false;
    }
  };
  afterEach(() => vi.useRealTimers());

  it("accepts what the platform's signer issues, with the claims the full check answers", () => {
    const claims = {
      kind: 'attempt',
      sub: 'a-1',
      examId: 'e-1',
      ownerId: 'o-1',
      name: 'Ada',
      studentId: 'S-1',
    } as const;
    const token = app.jwt.sign(claims, { expiresIn: '60s' });
    expect(check(token)).toEqual(full(token));
    expect(check(token)).toMatchObject({ kind: 'attempt', sub: 'a-1', examId: 'e-1' });
  });

  it('answers undefined, for the full check to decide, whenever the token is not plainly valid', () => {
    const header = { alg: 'HS256', typ: 'JWT' };
    const valid = handMade(header, { sub: 'x', exp: now() + 60 });
    const [h, p, s] = valid.split('.') as [string, string, string];
    const refused = {
      'another secret': handMade(header, { sub: 'x', exp: now() + 60 }, 'another-secret'),
      'a changed payload': `${h}.${b64({ sub: 'y', exp: now() + 60 })}.${s}`,
      'a signature spelled otherwise (padding)': `${h}.${p}.${s}=`,
      'a signature spelled otherwise (base64)': `${h}.${p}.${s.replace(/-/g, '+').replace(/_/g, '/')}`,
      'no signature': `${h}.${p}.`,
      expired: handMade(header, { sub: 'x', exp: now() - 1 }),
      'no exp': handMade(header, { sub: 'x' }),
      'exp not a number': handMade(header, { sub: 'x', exp: String(now() + 60) }),
      'not active yet': handMade(header, { sub: 'x', exp: now() + 60, nbf: now() + 30 }),
      'nbf not a number': handMade(header, { sub: 'x', exp: now() + 60, nbf: 'soon' }),
      'another algorithm': handMade({ alg: 'HS512', typ: 'JWT' }, { sub: 'x', exp: now() + 60 }),
      'alg none': `${b64({ alg: 'none', typ: 'JWT' })}.${p}.`,
      'another header field': handMade({ alg: 'HS256', typ: 'JWT', crit: ['b64'] }, { sub: 'x', exp: now() + 60 }),
      'a payload not an object': handMade(header, [1, 2]),
      'two parts': `${h}.${p}`,
    };
    expect(check(valid)).toMatchObject({ sub: 'x' });
    for (const [what, token] of Object.entries(refused)) expect([what, check(token)]).toEqual([what, undefined]);
    // Only ever a subset of what the full check accepts: each token it accepts, fast-jwt accepts too.
    for (const token of [valid, ...Object.values(refused)]) if (check(token)) expect(fullAccepts(token)).toBe(true);
  });

  it('stops accepting a token at its exp, as the full check does', () => {
    const token = handMade({ alg: 'HS256', typ: 'JWT' }, { sub: 'x', exp: now() + 10 });
    expect(check(token)).toBeDefined();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 11_000);
    expect(check(token)).toBeUndefined();
    expect(fullAccepts(token)).toBe(false);
  });

  it('reads the token of a Bearer header only', () => {
    expect(bearerToken('Bearer abc.def.ghi')).toBe('abc.def.ghi');
    expect(bearerToken('Basic abc')).toBeUndefined();
    expect(bearerToken('Bearer ')).toBeUndefined();
    expect(bearerToken('Bearer a b')).toBeUndefined();
    expect(bearerToken(undefined)).toBeUndefined();
  });
});
