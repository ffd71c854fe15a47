import { EVENTS_PER_REQUEST_MAX, RESULT_EVENTS_MAX } from '@exam/domain/attempt';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events } from '../../db/schema.ts';
import { buildTestApp, creatorHeaders, startAttempt, type TestApp } from '../../testing/app.ts';
import { makeExam } from '../../testing/exams.ts';

type Attempt = { attemptId: string; headers: Record<string, string> };

// A small per-attempt cap so the tests stay quick; the default is DEFAULT_EVENTS_PER_ATTEMPT_MAX.
const PER_ATTEMPT = 250;

describe('proctoring events are bounded', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp({ env: { EVENTS_PER_ATTEMPT_MAX: String(PER_ATTEMPT) } });
  });
  afterAll(() => app.close());

  const send = (attempt: Attempt, list: unknown[]) =>
    app.inject({
      method: 'POST',
      url: `/api/attempts/${attempt.attemptId}/events`,
      headers: attempt.headers,
      payload: { events: list },
    });
  const stored = async (attempt: Attempt) =>
    (await app.db.select().from(events).where(eq(events.attemptId, attempt.attemptId))).length;
  const many = (type: string, n: number) => Array.from({ length: n }, () => ({ type }));
  const submit = (attempt: Attempt) =>
    app.inject({ method: 'POST', url: `/api/attempts/${attempt.attemptId}/submit`, headers: attempt.headers });

  it('refuses a request carrying more events than one request may with 400 naming events, storing none', async () => {
    const attempt = await startAttempt(app, app.exams.put(makeExam()).id);
    const response = await send(attempt, many('copy', EVENTS_PER_REQUEST_MAX + 1));
    expect(response.statusCode).toBe(400);
    expect(response.json().error.issues[0].path).toBe('events');
    expect(await stored(attempt)).toBe(0);
  });

  it('refuses events after the attempt is submitted with 409 ATTEMPT_CLOSED, storing none', async () => {
    const attempt = await startAttempt(app, app.exams.put(makeExam()).id);
    expect((await send(attempt, many('copy', 2))).statusCode).toBe(202);
    expect((await submit(attempt)).statusCode).toBe(200);
    const late = await send(attempt, many('focus-lost', 3));
    expect(late.statusCode).toBe(409);
    expect(late.json().error.code).toBe('ATTEMPT_CLOSED');
    expect(await stored(attempt)).toBe(2);
  });

  it('stores no more than the per-attempt cap and says how many were dropped', async () => {
    const attempt = await startAttempt(app, app.exams.put(makeExam()).id);
    expect((await send(attempt, many('focus-lost', 200))).json()).toEqual({ recorded: 200, dropped: 0 });
    expect((await send(attempt, many('copy', 200))).json()).toEqual({ recorded: 50, dropped: 150 });
    const past = await send(attempt, many('copy', 10));
    expect(past.statusCode).toBe(202);
    expect(past.json()).toEqual({ recorded: 0, dropped: 10 });
    expect(await stored(attempt)).toBe(PER_ATTEMPT);
  });

  it('holds the cap when batches of one attempt arrive at once, keeping each batch in the order sent', async () => {
    const attempt = await startAttempt(app, app.exams.put(makeExam()).id);
    const batches = Array.from({ length: 5 }, (_v, b) =>
      Array.from({ length: 80 }, (_w, i) => ({ type: 'copy', detail: `${b}:${i}` })),
    );
    const answers = await Promise.all(batches.map((list) => send(attempt, list)));
    expect(answers.map((a) => a.statusCode)).toEqual([202, 202, 202, 202, 202]);
    const recorded = answers.map((a) => a.json().recorded as number);
    expect(recorded.reduce((sum, n) => sum + n, 0)).toBe(PER_ATTEMPT);
    const rows = await app.db.select().from(events).where(eq(events.attemptId, attempt.attemptId)).orderBy(events.id);
    expect(rows).toHaveLength(PER_ATTEMPT);
    // Within each batch, the events stored are its first ones, in the order sent.
    for (let b = 0; b < batches.length; b++) {
      const mine = rows.filter((r) => r.detail?.startsWith(`${b}:`)).map((r) => r.detail);
      expect(mine).toEqual(Array.from({ length: recorded[b]! }, (_v, i) => `${b}:${i}`));
    }
  });

  it("lists only the newest events in the creator's result view, with every stored event counted by type", async () => {
    const exam = app.exams.put(makeExam());
    const attempt = await startAttempt(app, exam.id);
    await send(attempt, many('focus-lost', 150));
    await send(attempt, [{ type: 'paste-blocked', detail: 'x'.repeat(2000) }, ...many('copy', 99)]);
    const { resultId } = (await submit(attempt)).json();
    const response = await app.inject({
      method: 'GET',
      url: `/api/results/${resultId}`,
      headers: creatorHeaders(app, exam.ownerId),
    });
    expect(response.statusCode).toBe(200);
    const detail = response.json();
    expect(detail.events).toHaveLength(RESULT_EVENTS_MAX);
    expect(detail.eventsTruncated).toBe(true);
    expect(detail.eventSummary).toEqual({ 'focus-lost': 150, 'paste-blocked': 1, copy: 99 });
    // The newest, listed oldest first: the last 100 focus-lost events, then the second request's.
    expect(detail.events[0].type).toBe('focus-lost');
    expect(detail.events[100].type).toBe('paste-blocked');
    expect(detail.events.at(-1).type).toBe('copy');
  });

  it('lists every event and says so when there are few', async () => {
    const exam = app.exams.put(makeExam());
    const attempt = await startAttempt(app, exam.id);
    await send(attempt, [{ type: 'copy' }, { type: 'focus-lost' }, { type: 'copy' }]);
    const { resultId } = (await submit(attempt)).json();
    const detail = (
      await app.inject({ method: 'GET', url: `/api/results/${resultId}`, headers: creatorHeaders(app, exam.ownerId) })
    ).json();
    expect(detail.events.map((e: { type: string }) => e.type)).toEqual(['copy', 'focus-lost', 'copy']);
    expect(detail.eventSummary).toEqual({ copy: 2, 'focus-lost': 1 });
    expect(detail.eventsTruncated).toBe(false);
  });
});
