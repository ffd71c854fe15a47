import type { CompactOperation } from '@exam/domain/answer-operations';
import { DEADLINE_GRACE_SECONDS } from '@exam/domain/attempt';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerOperations, attempts } from '../../db/schema.ts';
import { buildTestApp, startAttempt, type TestApp } from '../../testing/app.ts';
import { makeExam } from '../../testing/exams.ts';
import { createAnswerBatcher, type PendingSave, type SaveOutcome } from './answer-batch.ts';
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
  function batcher(operationsCapBytes = 4096) {
    const alone: PendingSave[] = [];
    const writer = createAnswerBatcher(
      app.db,
      (save) => {
        alone.push(save);
        return saveAnswerAlone(app.db, save, operationsCapBytes);
      },
      // A wide window, so every save a test fires together lands in the same batch.
      { windowMs: 20, maxInFlight: 2, maxRows: 100, maxChars: 1_000_000, operationsCapBytes },
    );
    return {
      alone,
      // Whether each save replaced the stored answer (false: stale, closed or out of range).
      save: (s: PendingSave) => writer.save(s).then((outcome) => outcome?.applied ?? false),
      outcome: (s: PendingSave): Promise<SaveOutcome | undefined> => writer.save(s),
    };
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

  describe('with edit operations', () => {
    const op = (i: number): CompactOperation => [i * 100, i, i, String.fromCharCode(97 + (i % 26)), 0];
    const ops = (from: number, to: number) => Array.from({ length: to - from }, (_v, k) => op(from + k));
    const withOps = (attemptId: string, index: number, seq: number, start: number, end: number): PendingSave => ({
      ...save(attemptId, index, seq),
      operations: { start, ops: ops(start, end) },
    });
    const storedOps = async (attemptId: string, questionIndex: number) =>
      (
        await app.db
          .select({ start: answerOperations.start, end: answerOperations.end, ops: answerOperations.ops })
          .from(answerOperations)
          .where(and(eq(answerOperations.attemptId, attemptId), eq(answerOperations.questionIndex, questionIndex)))
          .orderBy(asc(answerOperations.start))
      ).map((chunk) => {
        expect(chunk.ops).toHaveLength(chunk.end - chunk.start);
        return chunk.ops;
      });

    it('stores the operations of several attempts and questions in one statement, each exactly once', async () => {
      const [a, b] = [await newAttempt(), await newAttempt()];
      const writer = batcher();
      const outcomes = await Promise.all([
        writer.outcome(withOps(a, 0, 1, 0, 3)),
        writer.outcome(withOps(a, 1, 1, 0, 2)),
        writer.outcome(withOps(b, 1, 1, 0, 4)),
        writer.outcome(save(b, 0, 1)),
      ]);
      expect(writer.alone).toEqual([]);
      expect(outcomes.map((o) => o && [o.applied, o.operationsEnd, o.operationsCapped])).toEqual([
        [true, 3, false],
        [true, 2, false],
        [true, 4, false],
        [true, 0, false],
      ]);
      expect((await storedOps(a, 0)).flat()).toEqual(ops(0, 3));
      expect((await storedOps(a, 1)).flat()).toEqual(ops(0, 2));
      expect((await storedOps(b, 1)).flat()).toEqual(ops(0, 4));
      expect((await stored(a)).version).toBe(2);
    });

    it('writes a second chunk of one question after the batch holding the first, so a resend or overlap adds only what is new', async () => {
      const a = await newAttempt();
      const writer = batcher();
      // The page's save, its retry (acknowledgement lost) and the next save with more, all at once.
      const outcomes = await Promise.all([
        writer.outcome(withOps(a, 1, 1, 0, 3)),
        writer.outcome(withOps(a, 1, 1, 0, 3)),
        writer.outcome(withOps(a, 1, 2, 0, 5)),
        writer.outcome(withOps(a, 0, 1, 0, 1)),
      ]);
      // Three writes: the first save, its retry, then the longer one with question 0's (a write of one save goes alone).
      expect(writer.alone.map((s) => s.seq)).toEqual([1, 1]);
      expect(outcomes.map((o) => o && [o.applied, o.seq, o.operationsEnd])).toEqual([
        [true, 1, 3],
        [false, 1, 3],
        [true, 2, 5],
        [true, 1, 1],
      ]);
      const chunks = await storedOps(a, 1);
      expect(chunks.flat()).toEqual(ops(0, 5));
      expect(chunks.map((chunk) => chunk.length)).toEqual([3, 2]);
    });

    it('stores a chunk once when several writers (replicas) send it at the same moment, round after round', async () => {
      const a = await newAttempt();
      const writers = [batcher(), batcher(), batcher(), batcher()];
      // Each round every writer sends the question's whole log so far (a page retrying on every replica), and
      // another question's save rides along in the same batches.
      for (let round = 1; round <= 5; round++) {
        await Promise.all([
          ...writers.map((writer) => writer.outcome(withOps(a, 1, round, 0, round * 3))),
          writers[round % writers.length]!.outcome(withOps(a, 2, round, 0, round)),
        ]);
      }
      expect((await storedOps(a, 1)).flat()).toEqual(ops(0, 15));
      expect((await storedOps(a, 2)).flat()).toEqual(ops(0, 5));
      const [row] = await app.db.select().from(attempts).where(eq(attempts.id, a));
      const bytes = [...(await storedOps(a, 1)), ...(await storedOps(a, 2))].reduce(
        (sum, chunk) => sum + JSON.stringify(chunk).length,
        0,
      );
      expect(row!.operationsBytes).toBe(bytes);
    });

    it('stops storing an attempt’s chunks at the one that would pass its cap, in arrival order within the batch', async () => {
      const [a, b] = [await newAttempt(), await newAttempt()];
      // 40 operations are about 640 bytes: the first fits under 1,024, the second would not, nor any after it.
      const writer = batcher(1024);
      const outcomes = await Promise.all([
        writer.outcome(withOps(a, 0, 1, 0, 40)),
        writer.outcome(withOps(a, 1, 1, 0, 40)),
        writer.outcome(withOps(a, 2, 1, 0, 1)),
        writer.outcome(withOps(b, 0, 1, 0, 40)),
      ]);
      expect(writer.alone).toEqual([]);
      expect(outcomes.map((o) => o && [o.applied, o.operationsEnd, o.operationsCapped])).toEqual([
        [true, 40, true],
        [true, 0, true],
        [true, 0, true],
        [true, 40, false],
      ]);
      expect(await storedOps(a, 1)).toEqual([]);
      expect(await storedOps(a, 2)).toEqual([]);
      expect((await stored(a)).answers.size).toBe(3);
      const [row] = await app.db.select().from(attempts).where(eq(attempts.id, a));
      expect(row!.operationsCappedAt).not.toBeNull();
    });

    it('stores no operations of a save the attempt refuses, while the others of its batch are stored', async () => {
      const [open, late] = [await newAttempt(), await newAttempt()];
      const writer = batcher();
      const afterDeadline = { ...withOps(late, 0, 1, 0, 2), cutoff: new Date(Date.now() + 3600_000) };
      const outcomes = await Promise.all([
        writer.outcome(withOps(open, 0, 1, 0, 2)),
        writer.outcome(afterDeadline),
        writer.outcome(withOps(open, 9, 1, 0, 2)),
      ]);
      expect(outcomes.map((o) => o?.applied)).toEqual([true, undefined, undefined]);
      expect((await storedOps(open, 0)).flat()).toEqual(ops(0, 2));
      expect(await storedOps(late, 0)).toEqual([]);
      expect(await storedOps(open, 9)).toEqual([]);
    });
  });
});
