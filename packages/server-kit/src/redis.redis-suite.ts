import { afterAll, describe, expect, it } from 'vitest';
import { createBaseApp } from './base-app.ts';
import { connectRedis, type RedisConnection } from './redis.ts';

// Run by `pnpm test:redis` only (vitest.redis.config.ts), against the real server.
const url = process.env.TEST_REDIS_URL;
if (!url) throw new Error('redis.redis-suite.ts needs TEST_REDIS_URL (a Redis server to test against)');

const warnings: string[] = [];
const log = { info: () => {}, warn: (_obj: object, msg: string) => void warnings.push(msg) };
const opened: RedisConnection[] = [];
const connect = (target: string, opts: { commandTimeoutMs?: number } = {}) => {
  const connection = connectRedis(target, { keyPrefix: `test:kit:${process.pid}:`, log, ...opts });
  opened.push(connection);
  return connection;
};
afterAll(() => Promise.all(opened.map((c) => c.close())));

async function readyOf(degradable: Record<string, () => Promise<void>>) {
  const app = await createBaseApp({
    service: 'fixture-service',
    logLevel: 'silent',
    jwtSecret: 'j'.repeat(40),
    internalToken: 'i'.repeat(40),
    creatorSessions: async () => true,
    checks: {},
    degradable,
  });
  const response = await app.inject({ method: 'GET', url: '/ready' });
  await app.close();
  return response;
}

describe('connectRedis', () => {
  it('connects, answers PING and reads back what it wrote', async () => {
    const redis = connect(url);
    expect(await redis.connected()).toBe(true);
    await redis.ping();
    const key = `${redis.keyPrefix}roundtrip`;
    await redis.client.set(key, 'v', 'PX', 10_000);
    expect(await redis.client.get(key)).toBe('v');
    expect((await readyOf({ redis: () => redis.ping() })).statusCode).toBe(200);
  });

  it('fails commands at once while Redis cannot be reached, and /ready names it degraded', async () => {
    // Port 1 on loopback: nothing listens.
    const redis = connect('redis://127.0.0.1:1');
    expect(await redis.connected(300)).toBe(false);
    const started = Date.now();
    await expect(redis.client.get('anything')).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(500);
    const response = await readyOf({ redis: () => redis.ping() });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'degraded', degraded: ['redis'] });
    expect(warnings).toContain('redis unreachable; retrying in the background');
  });

  it('closes whether connected or not, and twice', async () => {
    const up = connect(url);
    await up.connected();
    await up.close();
    await up.close();
    await expect(up.client.get('anything')).rejects.toThrow();
    const down = connect('redis://127.0.0.1:1');
    await down.close();
    await expect(down.connected(300)).resolves.toBe(false);
  });
});
