import { connectRedis } from '@exam/server-kit/redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, creatorHeaders, startAttempt, type TestApp } from '../../testing/app.ts';
import { makeExam } from '../../testing/exams.ts';
import { fakeClock } from '../../testing/fakes.ts';
import { redisStartCounters } from '../attempts/start-counters.redis.ts';
import { createLiveRepository } from './live.repository.ts';
import { PRESENCE_TTL_MS } from './presence.ts';

// Run by `pnpm test:redis` only: what only the Redis stores do (expiry, merging with the database's rows).
const url = process.env.TEST_REDIS_URL;
if (!url) throw new Error('shared-state.redis.test.ts needs TEST_REDIS_URL (a Redis server to test against)');

describe('the Redis stores', () => {
  const clock = fakeClock(new Date('2042-05-01T09:00:00Z'));
  const redis = connectRedis(url, { keyPrefix: `test:results-redis:${process.pid}:${Date.now()}:` });
  let app: TestApp;
  beforeAll(async () => {
    await redis.connected();
    app = await buildTestApp({ deps: { clock, redis } });
  });
  afterAll(async () => {
    await app.close();
    await redis.close();
  });

  it('counts a window in one key that expires a window later, and never touches the database for it', async () => {
    const database = {
      count: () => Promise.reject(new Error('not the database')),
      peek: () => Promise.reject(new Error('not the database')),
      prune: async () => {},
    };
    const counters = redisStartCounters(redis, database, app.log);
    const windowStart = new Date('2042-05-01T09:00:00Z');
    expect(await counters.count('client:a', windowStart, 60_000)).toBe(1);
    expect(await counters.count('client:a', windowStart, 60_000)).toBe(2);
    expect(await counters.count('client:b', windowStart, 60_000)).toBe(1);
    expect(await counters.peek('client:a', windowStart, 60_000)).toBe(2);
    expect(await counters.peek('client:c', windowStart, 60_000)).toBe(0);
    const key = `${redis.keyPrefix}starts:client:a:${windowStart.getTime()}`;
    const ttl = await redis.client.pttl(key);
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it('keeps presence for PRESENCE_TTL_MS and shows the later of its time and the database row', async () => {
    const exam = app.exams.put(makeExam({ timerMinutes: 30 }));
    const attempt = await startAttempt(app, exam.id);
    const t0 = clock.now();
    await app.presence.touch(attempt.attemptId, t0, 10_000);
    const key = `${redis.keyPrefix}presence:${attempt.attemptId}`;
    expect(Number(await redis.client.get(key))).toBe(t0.getTime());
    expect(await redis.client.pttl(key)).toBeGreaterThan(PRESENCE_TTL_MS - 60_000);
    // A touch recorded in the database while Redis was down, later than Redis's.
    const t1 = new Date(t0.getTime() + 30_000);
    await createLiveRepository(app.database).touch(attempt.attemptId, t1, 10_000);
    const live = await app.inject({
      method: 'GET',
      url: `/api/exams/${exam.id}/live`,
      headers: creatorHeaders(app, exam.ownerId),
    });
    expect(live.json().attempts[0].lastSeenAt).toBe(t1.toISOString());
    expect(await app.presence.find(attempt.attemptId)).toEqual(t1);
  });
});
