import { connectRedis } from '@exam/server-kit/redis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, creatorHeaders, startAttempt, type TestApp } from '../../testing/app.ts';
import { makeExam } from '../../testing/exams.ts';
import { fakeClock } from '../../testing/fakes.ts';

let addressCounter = 0;
const newAddress = () => `10.${(process.pid >> 8) & 255}.${(process.pid & 255) ^ 128}.${++addressCounter}`;

/** REDIS_URL set, but Redis does not answer (port 1 on loopback: nothing listens). */
describe('with REDIS_URL set and Redis down', () => {
  // A window of its own in each run, since test:pg keeps the counters of earlier runs.
  const clock = fakeClock(new Date(Date.UTC(2033, 0, 1, 9, 0, 0) + (Date.now() % 1000) * 600_000));
  const redis = connectRedis('redis://127.0.0.1:1', { keyPrefix: 'test:down:', log: { info() {}, warn() {} } });
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp({
      env: { START_LIMIT_PER_CLIENT: '2', START_LIMIT_PER_CLIENT_WINDOW_SECONDS: '600' },
      deps: { clock, redis },
    });
  });
  afterAll(async () => {
    await app.close();
    await redis.close();
  });

  it('stays ready on its PostgreSQL fallback, naming redis as degraded', async () => {
    const response = await app.inject({ method: 'GET', url: '/ready' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'degraded', degraded: ['redis'] });
  });

  it('still starts attempts, counting them in the database, so a flood is still refused', async () => {
    const exam = app.exams.put(makeExam());
    const address = newAddress();
    const start = () =>
      app.inject({
        method: 'POST',
        url: '/api/attempts',
        remoteAddress: address,
        payload: { examId: exam.id, name: 'Flood', studentId: `D-${++addressCounter}` },
      });
    expect((await start()).statusCode).toBe(201);
    expect((await start()).statusCode).toBe(201);
    expect((await start()).statusCode).toBe(429);
  });

  it('records presence in the database and the live view shows it', async () => {
    const exam = app.exams.put(makeExam({ timerMinutes: 30 }));
    const attempt = await startAttempt(app, exam.id);
    const seenAt = clock.now();
    const poll = await app.inject({
      method: 'GET',
      url: `/api/attempts/${attempt.attemptId}/live`,
      headers: attempt.headers,
    });
    expect(poll.statusCode).toBe(200);
    await vi.waitFor(async () => expect(await app.presence.find(attempt.attemptId)).toEqual(seenAt));
    const live = await app.inject({
      method: 'GET',
      url: `/api/exams/${exam.id}/live`,
      headers: creatorHeaders(app, exam.ownerId),
    });
    expect(live.statusCode).toBe(200);
    expect(live.json().attempts).toEqual([
      expect.objectContaining({ attemptId: attempt.attemptId, lastSeenAt: seenAt.toISOString() }),
    ]);
  });
});
