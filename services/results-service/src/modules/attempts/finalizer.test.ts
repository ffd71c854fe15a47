import { DEADLINE_GRACE_SECONDS } from '@exam/domain/attempt';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { results } from '../../db/schema.ts';
import { buildTestApp, creatorHeaders, startAttempt, type TestApp } from '../../testing/app.ts';
import { CANARY, makeExam } from '../../testing/exams.ts';
import { fakeClock } from '../../testing/fakes.ts';

describe('finalizer', () => {
  // Later than every other suite's clock, so draining first leaves only this suite's attempts.
  const clock = fakeClock(new Date('2040-06-01T12:00:00Z'));
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp({ deps: { clock } });
    await app.finalizeExpired();
  });
  afterAll(() => app.close());

  it('submits expired attempts from their saved answers, each exactly once even when two runs race', async () => {
    const exam = app.exams.put(makeExam({ timerMinutes: 20 }));
    const untimed = app.exams.put(makeExam({ timerEnabled: false }));
    const expired = await Promise.all([
      startAttempt(app, exam.id),
      startAttempt(app, exam.id),
      startAttempt(app, exam.id),
    ]);
    await app.inject({
      method: 'PUT',
      url: `/api/attempts/${expired[0]!.attemptId}/answers/0`,
      headers: expired[0]!.headers,
      payload: { answer: CANARY, seq: 1 },
    });
    await app.inject({
      method: 'PUT',
      url: `/api/attempts/${expired[0]!.attemptId}/answers/1`,
      headers: expired[0]!.headers,
      payload: { answer: 'THE skin', seq: 1 },
    });
    const open = await startAttempt(app, untimed.id);
    clock.advance(5 * 60_000);
    const later = await startAttempt(app, exam.id);

    clock.advance(15 * 60_000 + DEADLINE_GRACE_SECONDS * 1000 + 1000);
    const [a, b] = await Promise.all([app.finalizeExpired(), app.finalizeExpired()]);
    expect(a + b).toBe(3);

    for (const attempt of expired) {
      const rows = await app.db.select().from(results).where(eq(results.attemptId, attempt.attemptId));
      expect(rows).toHaveLength(1);
      expect(rows[0]!.completedAt.toISOString()).toBe(attempt.deadline);
      expect(rows[0]!.timeSpent).toBe(20 * 60);
    }
    for (const attempt of [open, later]) {
      const state = (
        await app.inject({ method: 'GET', url: `/api/attempts/${attempt.attemptId}`, headers: attempt.headers })
      ).json();
      expect(state.submittedAt).toBeNull();
    }

    const state = (
      await app.inject({ method: 'GET', url: `/api/attempts/${expired[0]!.attemptId}`, headers: expired[0]!.headers })
    ).json();
    expect(state.submittedAt).toBe(expired[0]!.deadline);
    const detail = (
      await app.inject({
        method: 'GET',
        url: `/api/results/${state.resultId}`,
        headers: creatorHeaders(app, exam.ownerId),
      })
    ).json();
    expect(detail).toMatchObject({ answeredCount: 2, score: 2, maxScore: 4, totalQuestions: 4 });

    const repeat = await app.inject({
      method: 'POST',
      url: `/api/attempts/${expired[0]!.attemptId}/submit`,
      headers: expired[0]!.headers,
    });
    expect(repeat.json()).toEqual({ resultId: state.resultId, answered: 2, total: 4, followUp: false });
    expect(await app.finalizeExpired()).toBe(0);
  });
});
