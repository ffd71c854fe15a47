import { DEADLINE_GRACE_SECONDS } from '@exam/domain/attempt';
import type { CompactOperation } from '@exam/domain/answer-operations';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerOperations, results } from '../../db/schema.ts';
import { buildTestApp, startAttempt, type TestApp } from '../../testing/app.ts';
import { makeExam } from '../../testing/exams.ts';
import { fakeClock } from '../../testing/fakes.ts';

type Attempt = Awaited<ReturnType<typeof startAttempt>>;

/** `text` typed at `at` from `t` ms on, one key every `gapMs`. */
const typed = (t: number, at: number, text: string, gapMs = 180): CompactOperation => [
  t,
  at,
  at,
  text,
  0,
  Array.from(text)
    .slice(1)
    .map(() => gapMs),
];

describe('how the answers came to be, computed for each submission', () => {
  // Later than the other suites' clocks, so their finalizer drains never reach these attempts.
  const clock = fakeClock(new Date('2042-02-01T09:00:00Z'));
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp({ deps: { clock } });
  });
  afterAll(() => app.close());

  const save = (attempt: Attempt, index: number, body: { answer: string; seq: number; operations?: unknown }) =>
    app.inject({
      method: 'PUT',
      url: `/api/attempts/${attempt.attemptId}/answers/${index}`,
      headers: attempt.headers,
      payload: body,
    });
  /**
   * The attempt's process record, as whoever shows it reads it (computed on the spot while pending: the job the
   * submission wakes is not running here, and other suites' results share this database's queue).
   */
  const processOf = async (attemptId: string) => {
    const [row] = await app.db.select({ id: results.id }).from(results).where(eq(results.attemptId, attemptId));
    return app.processRecords.processOf(row!.id);
  };

  it('replays each answer from its stored operations into sources, signals and the candidate’s summary', async () => {
    const attempt = await startAttempt(app, app.exams.put(makeExam()).id);
    // "The skin" typed, " is the largest organ" pasted from within the exam, "!" copied from an assistant reply,
    // sent over two saves; then a typo typed and deleted.
    const first: CompactOperation[] = [typed(1_000, 0, 'The skin'), [4_000, 8, 8, ' is the largest organ', 1]];
    const second: CompactOperation[] = [[6_000, 29, 29, '!', 2], typed(9_000, 30, 'xx'), [9_600, 30, 32, '', 0, [200]]];
    expect(
      (
        await save(attempt, 1, {
          answer: 'The skin is the largest organ',
          seq: 1,
          operations: { start: 0, ops: first },
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await save(attempt, 1, {
          answer: 'The skin is the largest organ!',
          seq: 2,
          operations: { start: 0, ops: [...first, ...second] },
        })
      ).statusCode,
    ).toBe(200);
    await app.inject({
      method: 'POST',
      url: `/api/attempts/${attempt.attemptId}/events`,
      headers: attempt.headers,
      payload: { events: [{ type: 'paste-blocked' }, { type: 'paste-allowed' }, { type: 'paste-blocked' }] },
    });
    // The conversation llm-gateway keeps: two messages the candidate sent, and the replies.
    const message = (id: string, role: 'user' | 'assistant', content: string) => ({
      id,
      role,
      content,
      questionIndex: 1,
      isError: false,
      files: [],
      createdAt: clock.now().toISOString(),
    });
    app.attemptTranscripts.put(attempt.attemptId, [
      message('m1', 'user', 'What is the largest organ?'),
      message('m2', 'assistant', 'The skin is the largest organ!'),
      message('m3', 'user', 'Thanks'),
      message('m4', 'assistant', 'You are welcome.'),
    ]);
    const submit = await app.inject({
      method: 'POST',
      url: `/api/attempts/${attempt.attemptId}/submit`,
      headers: attempt.headers,
    });
    expect(submit.statusCode).toBe(200);

    const process = (await processOf(attempt.attemptId))!;
    expect(process.answers).toHaveLength(1);
    const [answer] = process.answers;
    expect(answer).toMatchObject({
      questionIndex: 1,
      sources: { typed: 8, pasted: 21, assistant: 1, autocomplete: 0, restored: 0 },
      reconciled: false,
      // The "!" inserted from the assistant: the collaboration profile's integration reads it without a replay.
      assistantInserted: 1,
    });
    expect(answer!.signals.keystrokes).toBe(8 + 2 + 2);
    expect(answer!.signals.revisionRatio).toBeCloseTo(2 / 32, 2);
    expect(answer!.signals.transcriptionLike.flagged).toBe(false);
    // 8 / 30 = 26.7 %, 21 / 30 = 70 %, 1 / 30 = 3.3 %: rounded each on its own they make 100 here too, and the
    // largest remainders decide.
    expect(process.summary).toEqual({
      attemptId: attempt.attemptId,
      characters: 30,
      typedPercent: 27,
      pastedPercent: 70,
      assistantPercent: 3,
      autocompletePercent: 0,
      restoredPercent: 0,
      assistantMessages: 2,
      outsidePastesBlocked: 2,
      submittedAt: clock.now().toISOString(),
    });

    // Once recorded, the question's two chunks are one row holding the same operations in order.
    const chunks = await app.db
      .select({ start: answerOperations.start, end: answerOperations.end, ops: answerOperations.ops })
      .from(answerOperations)
      .where(eq(answerOperations.attemptId, attempt.attemptId));
    expect(chunks).toEqual([{ start: 0, end: first.length + second.length, ops: [...first, ...second] }]);
  });

  it('reconciles an answer its operations do not reach with a restored operation, and counts every answer', async () => {
    const attempt = await startAttempt(app, app.exams.put(makeExam()).id);
    await save(attempt, 1, { answer: 'skin', seq: 1, operations: { start: 0, ops: [typed(500, 0, 'skin')] } });
    // A later save from another device, which sent no operations.
    await save(attempt, 1, { answer: 'the skin', seq: 2 });
    await save(attempt, 0, { answer: '["Nucleus"]', seq: 1 });
    await app.inject({ method: 'POST', url: `/api/attempts/${attempt.attemptId}/submit`, headers: attempt.headers });

    const process = (await processOf(attempt.attemptId))!;
    expect(process.answers.map((a) => [a.questionIndex, a.reconciled, a.sources])).toEqual([
      [0, true, { typed: 0, pasted: 0, assistant: 0, autocomplete: 0, restored: 11 }],
      [1, true, { typed: 4, pasted: 0, assistant: 0, autocomplete: 0, restored: 4 }],
    ]);
    expect(process.summary).toMatchObject({ characters: 19, typedPercent: 21, restoredPercent: 79 });
  });

  it('leaves the submit to store the result alone, and computes the pending process once, on demand or by the job', async () => {
    const attempt = await startAttempt(app, app.exams.put(makeExam()).id);
    await save(attempt, 1, { answer: 'skin', seq: 1, operations: { start: 0, ops: [typed(500, 0, 'skin')] } });
    const submit = await app.inject({
      method: 'POST',
      url: `/api/attempts/${attempt.attemptId}/submit`,
      headers: attempt.headers,
    });
    const resultId = submit.json().resultId as string;
    const row = async () => (await app.db.select().from(results).where(eq(results.id, resultId)))[0]!;
    expect(await row()).toMatchObject({ process: null, processPending: true });

    // Whoever shows or signs it first (the timeline, the receipt) gets it computed on the spot…
    const first = await app.processRecords.processOf(resultId);
    expect(first?.summary).toMatchObject({ attemptId: attempt.attemptId, characters: 4, typedPercent: 100 });
    expect(await row()).toMatchObject({ process: first, processPending: false });
    // …and the job then has nothing left for it, nor does a second reader recompute it. A few results only: the
    // PostgreSQL suite shares its database with every other file, whose pending results a whole pass would drain.
    await app.computeProcessRecords(5);
    expect(await app.processRecords.processOf(resultId)).toEqual(first);
    expect(await app.processRecords.processOf('no-such-result')).toBeUndefined();
  });

  it('leaves the process pending while llm-gateway cannot give the transcript, and makes it once it can', async () => {
    const attempt = await startAttempt(app, app.exams.put(makeExam()).id);
    await save(attempt, 1, { answer: 'skin', seq: 1, operations: { start: 0, ops: [typed(500, 0, 'skin')] } });
    const submit = await app.inject({
      method: 'POST',
      url: `/api/attempts/${attempt.attemptId}/submit`,
      headers: attempt.headers,
    });
    const resultId = submit.json().resultId as string;
    const row = async () => (await app.db.select().from(results).where(eq(results.id, resultId)))[0]!;
    app.attemptTranscripts.down = true;
    try {
      await expect(app.computeProcessRecords()).rejects.toThrow(/ECONNREFUSED/);
      await expect(app.processRecords.processOf(resultId)).rejects.toThrow(/ECONNREFUSED/);
      expect(await row()).toMatchObject({ process: null, processPending: true });
    } finally {
      app.attemptTranscripts.down = false;
    }
    expect(await app.processRecords.processOf(resultId)).toMatchObject({ summary: { assistantMessages: 0 } });
    expect(await row()).toMatchObject({ processPending: false });
  });

  it('computes it for a deadline’s automatic submission too', async () => {
    const attempt = await startAttempt(app, app.exams.put(makeExam({ timerMinutes: 10 })).id);
    await save(attempt, 1, { answer: 'skin', seq: 1, operations: { start: 0, ops: [typed(500, 0, 'skin')] } });
    clock.advance(10 * 60_000 + DEADLINE_GRACE_SECONDS * 1000 + 1000);
    expect(await app.finalizeExpired()).toBeGreaterThanOrEqual(1);
    const process = (await processOf(attempt.attemptId))!;
    expect(process.answers).toEqual([expect.objectContaining({ questionIndex: 1, reconciled: false })]);
    expect(process.summary).toMatchObject({ characters: 4, typedPercent: 100, submittedAt: attempt.deadline });
  });
});
