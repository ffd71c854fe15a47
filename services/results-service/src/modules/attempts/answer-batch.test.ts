import { DEADLINE_GRACE_SECONDS } from '@exam/domain/attempt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, startAttempt, type TestApp } from '../../testing/app.ts';
import { makeExam } from '../../testing/exams.ts';
import { createAnswerBatcher, type PendingSave } from './answer-batch.ts';
import { saveAnswerAlone } from './answer-writes.repository.ts';
import { createAttemptsRepository } from './attempts.repository.ts';

// Group commit must answer every save as the single-row statement would have, one save after another.
describe('answer saves written in one batch', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp();
  });
  afterAll(() => app.close());

  /** A batcher on the test database that records which saves fell back to the single-row statement. */
  function batcher() {
    const alone: PendingSave[] = [];
    const writer = createAnswerBatcher(
      app.db,
      (save) => {
        alone.push(save);
        return saveAnswerAlone(app.db, save);
      },
      // A wide window, so every save a test fires together lands in the same batch.
      { windowMs: 20, maxInFlight: 2, maxRows: 100, maxChars: 1_000_000, operationsCapBytes: 4096 },
    );
    // Whether each save replaced the stored answer (false: stale, closed or out of range).
    return { alone, save: (s: PendingSave) => writer.save(s).then((outcome) => outcome?.applied ?? false) };
  }
  const save = (attemptId: string, questionIndex: number, seq: number, answer = `answer ${seq}`): PendingSave => {
    const now = new Date();
    return {
      attemptId,
      questionIndex,
      answer,
      seq,
      now,
      cutoff: new Date(now.getTime() - DEADLINE_GRACE_SECONDS * 1000),
    };
  };
  const stored = async (attemptId: string) => {
    const read = (await createAttemptsRepository(app.database).readForSubmit(attemptId))!;
    return { answers: read.saved, version: read.attempt.answersVersion };
  };
  const storedSeq = (attemptId: string, index: number) =>
    createAttemptsRepository(app.database).storedSeq(attemptId, index);
  const newAttempt = async () => (await startAttempt(app, app.exams.put(makeExam()).id)).attemptId;

  it('stores the saves of several attempts in one statement and bumps each answers_version once per save', async () => {
    const [a, b] = [await newAttempt(), await newAttempt()];
    const writer = batcher();
    const applied = await Promise.all([
      writer.save(save(a, 0, 1, 'Nucleus')),
      writer.save(save(a, 1, 1, 'The Skin')),
      writer.save(save(b, 0, 1, 'Ribosome')),
    ]);
    expect(applied).toEqual([true, true, true]);
    expect(writer.alone).toEqual([]);
    expect(await stored(a)).toEqual({
      answers: new Map([
        [0, 'Nucleus'],
        [1, 'The Skin'],
      ]),
      version: 2,
    });
    expect(await stored(b)).toEqual({ answers: new Map([[0, 'Ribosome']]), version: 1 });
  });

  it('keeps the highest seq of one question saved several times in a batch, and only that save is applied', async () => {
    const a = await newAttempt();
    const writer = batcher();
    const applied = await Promise.all([3, 5, 4, 5].map((seq) => writer.save(save(a, 1, seq))));
    // The first seq 5 wins; the second seq 5 is a duplicate, as if it had come after.
    expect(applied).toEqual([false, true, false, false]);
    expect(writer.alone).toEqual([]);
    expect(await storedSeq(a, 1)).toBe(5);
    expect((await stored(a)).answers.get(1)).toBe('answer 5');
  });

  it('never lets a stale seq replace a newer stored one, while the rest of its batch is stored', async () => {
    const [a, b] = [await newAttempt(), await newAttempt()];
    const writer = batcher();
    expect(await writer.save(save(a, 0, 10))).toBe(true);
    const applied = await Promise.all([writer.save(save(a, 0, 7)), writer.save(save(b, 0, 1))]);
    expect(applied).toEqual([false, true]);
    expect(await storedSeq(a, 0)).toBe(10);
    expect(await storedSeq(b, 0)).toBe(1);
  });

  it('refuses saves to a submitted attempt, past the deadline or out of range, and stores the others', async () => {
    const [open, late] = [await newAttempt(), await newAttempt()];
    const closed = await startAttempt(app, app.exams.put(makeExam()).id);
    const submitted = closed.attemptId;
    const reply = await app.inject({
      method: 'POST',
      url: `/api/attempts/${submitted}/submit`,
      headers: closed.headers,
    });
    expect(reply.statusCode).toBe(200);
    const before = (await stored(submitted)).version;
    const writer = batcher();
    // A cutoff after the deadline: the save arrived later than the deadline plus its grace.
    const afterDeadline = { ...save(late, 0, 1), cutoff: new Date(Date.now() + 3600_000) };
    const applied = await Promise.all([
      writer.save(save(open, 0, 1)),
      writer.save(save(submitted, 0, 1)),
      writer.save(afterDeadline),
      writer.save(save(open, 7, 1)),
    ]);
    expect(applied).toEqual([true, false, false, false]);
    expect(writer.alone).toEqual([]);
    expect((await stored(open)).answers).toEqual(new Map([[0, 'answer 1']]));
    expect((await stored(open)).version).toBe(1);
    expect((await stored(late)).version).toBe(0);
    expect(await storedSeq(submitted, 0)).toBeUndefined();
    expect((await stored(submitted)).version).toBe(before);
  });

  it('writes each save alone when the batch fails, so one bad row does not fail the others', async () => {
    const a = await newAttempt();
    const writer = batcher();
    // PostgreSQL text cannot hold U+0000: the single-row statement fails on it too.
    const outcomes = await Promise.allSettled([
      writer.save(save(a, 0, 1)),
      writer.save(save(a, 1, 1, 'bad \u0000 byte')),
      writer.save(save(a, 0, 2)),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(outcomes.filter((o) => o.status === 'fulfilled').map((o) => o.value)).toEqual([true, true]);
    expect(writer.alone).toHaveLength(3);
    expect(await storedSeq(a, 0)).toBe(2);
    expect(await storedSeq(a, 1)).toBeUndefined();
  });

  it('answers concurrent PUTs through the route with the stored seq, as saves one after another would', async () => {
    const attempt = await startAttempt(app, app.exams.put(makeExam()).id);
    const put = (index: number, seq: number) =>
      app.inject({
        method: 'PUT',
        url: `/api/attempts/${attempt.attemptId}/answers/${index}`,
        headers: attempt.headers,
        payload: { answer: `answer ${seq}`, seq },
      });
    const replies = await Promise.all([put(1, 2), put(1, 9), put(0, 1), put(12, 1)]);
    expect(replies.map((r) => r.statusCode)).toEqual([200, 200, 200, 400]);
    expect(replies.slice(0, 3).map((r) => r.json())).toEqual([
      { questionIndex: 1, seq: 9, applied: false },
      { questionIndex: 1, seq: 9, applied: true },
      { questionIndex: 0, seq: 1, applied: true },
    ]);
  });
});
