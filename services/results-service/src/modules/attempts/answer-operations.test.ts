import { appendChunk, type CompactOperation, type SaveOperations } from '@exam/domain/answer-operations';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerOperations, answers, attempts } from '../../db/schema.ts';
import { buildTestApp, startAttempt, type TestApp } from '../../testing/app.ts';
import { makeExam } from '../../testing/exams.ts';

/** Typed text as one coalesced operation at `t` ms, inserted at `at`, each key 150 ms after the one before. */
const typed = (t: number, at: number, text: string): CompactOperation => {
  const keys = Array.from(text)
    .slice(1)
    .map(() => 150);
  return keys.length ? [t, at, at, text, 0, keys] : [t, at, at, text, 0];
};
const pasted = (t: number, at: number, text: string): CompactOperation => [t, at, at, text, 1];

/** The operations that type `words` one after another (each one operation), replaying to them joined. */
function typing(words: string[]): CompactOperation[] {
  let at = 0;
  return words.map((word, i) => {
    const op = typed(i * 5_000, at, word);
    at += word.length;
    return op;
  });
}

type Attempt = Awaited<ReturnType<typeof startAttempt>>;

describe('edit operations stored with the autosave', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp();
  });
  afterAll(() => app.close());

  const newAttempt = () => startAttempt(app, app.exams.put(makeExam()).id);
  const put = (attempt: Attempt, index: number, body: { answer: string; seq: number; operations?: unknown }) =>
    app.inject({
      method: 'PUT',
      url: `/api/attempts/${attempt.attemptId}/answers/${index}`,
      headers: attempt.headers,
      payload: body,
    });
  const chunksOf = (attemptId: string, questionIndex = 1) =>
    app.db
      .select({ start: answerOperations.start, end: answerOperations.end, ops: answerOperations.ops })
      .from(answerOperations)
      .where(and(eq(answerOperations.attemptId, attemptId), eq(answerOperations.questionIndex, questionIndex)))
      .orderBy(asc(answerOperations.start));
  const storedOps = async (attemptId: string, questionIndex = 1) =>
    (await chunksOf(attemptId, questionIndex)).flatMap((chunk) => chunk.ops);
  const attemptRow = async (attemptId: string) =>
    (await app.db.select().from(attempts).where(eq(attempts.id, attemptId)))[0]!;
  const bytesOf = async (attemptId: string) => (await attemptRow(attemptId)).operationsBytes;

  it('stores a save’s operations with it and answers how many the server holds', async () => {
    const attempt = await newAttempt();
    const ops = typing(['The ', 'skin']);
    const reply = await put(attempt, 1, { answer: 'The skin', seq: 1, operations: { start: 0, ops } });
    expect(reply.statusCode).toBe(200);
    expect(reply.json()).toEqual({
      questionIndex: 1,
      seq: 1,
      applied: true,
      operationsEnd: 2,
      operationsCapped: false,
    });
    expect(await chunksOf(attempt.attemptId)).toEqual([{ start: 0, end: 2, ops }]);
    const row = await attemptRow(attempt.attemptId);
    expect(row.operationsBytes).toBe(JSON.stringify(ops).length);
    expect(row.operationsChars).toEqual([8, 0, 0, 0, 0]);
  });

  it('stores a resent chunk once, and of an overlapping longer one only the new operations', async () => {
    const attempt = await newAttempt();
    const ops = typing(['The ', 'largest ', 'organ ', 'is ', 'skin']);
    const first = { start: 0, ops: ops.slice(0, 3) };
    expect((await put(attempt, 1, { answer: 'The largest organ ', seq: 1, operations: first })).json()).toMatchObject({
      operationsEnd: 3,
    });
    // The acknowledgement was lost: the page sends the same chunk again, then the same with more.
    expect((await put(attempt, 1, { answer: 'The largest organ ', seq: 1, operations: first })).json()).toEqual({
      questionIndex: 1,
      seq: 1,
      applied: false,
      operationsEnd: 3,
      operationsCapped: false,
    });
    const longer = await put(attempt, 1, {
      answer: 'The largest organ is skin',
      seq: 2,
      operations: { start: 0, ops },
    });
    expect(longer.json()).toMatchObject({ applied: true, operationsEnd: 5 });
    // And an overlapping chunk that starts inside the stored ones.
    const overlap = await put(attempt, 1, {
      answer: 'The largest organ is skin',
      seq: 3,
      operations: { start: 3, ops: ops.slice(3) },
    });
    expect(overlap.json()).toMatchObject({ applied: true, operationsEnd: 5 });

    const chunks = await chunksOf(attempt.attemptId);
    expect(chunks.map((c) => [c.start, c.end])).toEqual([
      [0, 3],
      [3, 5],
    ]);
    expect(await storedOps(attempt.attemptId)).toEqual(ops);
    const stored = chunks.reduce((sum, c) => sum + JSON.stringify(c.ops).length, 0);
    expect((await attemptRow(attempt.attemptId)).operationsBytes).toBe(stored);
    // The characters of the part stored from the longer chunk ('is skin') are counted by the database, once.
    expect((await attemptRow(attempt.attemptId)).operationsChars).toEqual([25, 0, 0, 0, 0]);
  });

  it('refuses a chunk that starts past the stored operations, answering where the server stands', async () => {
    const attempt = await newAttempt();
    const ops = typing(['a', 'b', 'c', 'd']);
    await put(attempt, 1, { answer: 'a', seq: 1, operations: { start: 0, ops: ops.slice(0, 1) } });
    // Operations 1 is missing: storing 2–3 would number them wrong (appendChunk). The answer is still saved.
    const ahead = await put(attempt, 1, { answer: 'abcd', seq: 2, operations: { start: 2, ops: ops.slice(2) } });
    expect(ahead.json()).toMatchObject({ applied: true, operationsEnd: 1 });
    expect((await chunksOf(attempt.attemptId)).map((c) => [c.start, c.end])).toEqual([[0, 1]]);
    // The page sends again from there.
    const resent = await put(attempt, 1, { answer: 'abcd', seq: 3, operations: { start: 1, ops: ops.slice(1) } });
    expect(resent.json()).toMatchObject({ applied: true, operationsEnd: 4 });
    expect(await storedOps(attempt.attemptId)).toEqual(ops);
  });

  it('stores what appendChunk keeps, whatever the order of resends, overlaps and chunks sent ahead', async () => {
    const attempt = await newAttempt();
    const ops = typing(Array.from({ length: 40 }, (_v, i) => `w${i} `));
    let seed = 11;
    const random = (n: number) => (seed = (seed * 48271) % 2147483647) % n;
    let expected: SaveOperations['ops'] = [];
    for (let seq = 1; seq <= 60; seq++) {
      // Around where the server stands: resends from before it, overlaps across it, chunks one or two ahead.
      const start = Math.min(ops.length - 1, Math.max(0, expected.length - 3 + random(6)));
      const chunk = { start, ops: ops.slice(start, Math.min(ops.length, start + 1 + random(6))) };
      if (chunk.ops.length === 0) continue;
      const kept = appendChunk({ end: expected.length }, chunk);
      if (kept) expected = [...expected, ...kept.ops];
      const reply = await put(attempt, 1, { answer: `${seq}`, seq, operations: chunk });
      expect(reply.json().operationsEnd).toBe(expected.length);
    }
    expect(await storedOps(attempt.attemptId)).toEqual(expected);
    expect(expected.length).toBeGreaterThan(10);
  });

  it('stores the new operations of a stale save, whose answer is not applied', async () => {
    const attempt = await newAttempt();
    const ops = typing(['one ', 'two']);
    await put(attempt, 1, { answer: 'newest', seq: 9 });
    const stale = await put(attempt, 1, { answer: 'one two', seq: 4, operations: { start: 0, ops } });
    expect(stale.json()).toEqual({
      questionIndex: 1,
      seq: 9,
      applied: false,
      operationsEnd: 2,
      operationsCapped: false,
    });
    expect(await storedOps(attempt.attemptId)).toEqual(ops);
    const [answer] = await app.db.select().from(answers).where(eq(answers.attemptId, attempt.attemptId));
    expect(answer).toMatchObject({ answer: 'newest', seq: 9, operationsEnd: 2 });
  });

  it('gives the stored count of each question when the page resumes', async () => {
    const attempt = await newAttempt();
    await put(attempt, 1, { answer: 'ab', seq: 1, operations: { start: 0, ops: typing(['a', 'b']) } });
    await put(attempt, 0, { answer: '["Nucleus"]', seq: 1 });
    const state = await app.inject({ url: `/api/attempts/${attempt.attemptId}`, headers: attempt.headers });
    expect(state.json().answers).toEqual({
      '0': { answer: '["Nucleus"]', seq: 1, operations: 0 },
      '1': { answer: 'ab', seq: 1, operations: 2 },
    });
  });

  it('refuses malformed operations with 400 naming the field, and saves nothing of that save', async () => {
    const attempt = await newAttempt();
    await put(attempt, 1, { answer: 'kept', seq: 1, operations: { start: 0, ops: typing(['kept']) } });
    const cases: Array<[unknown, string]> = [
      [{ start: 1, ops: [[0, 0, 0, 'x', 9]] }, 'operations.ops.0'],
      [{ start: -1, ops: typing(['x']) }, 'operations.start'],
      [{ start: 1, ops: [] }, 'operations.ops'],
      [{ start: 1, ops: [[0, 0, 0]] }, 'operations.ops.0'],
      [{ ops: typing(['x']) }, 'operations.start'],
      [{ start: 1, ops: [[-5, 0, 0, 'x', 0]] }, 'operations.ops.0'],
      // Past what the stored counts hold: refused here rather than failing in the database.
      [{ start: 3_000_000_000, ops: typing(['x']) }, 'operations.start'],
    ];
    for (const [operations, field] of cases) {
      const reply = await put(attempt, 1, { answer: 'changed', seq: 2, operations });
      expect(reply.statusCode, JSON.stringify(operations)).toBe(400);
      const paths = (reply.json().error.issues as Array<{ path: string }>).map((issue) => issue.path);
      expect(
        paths.some((path) => path.startsWith(field)),
        `${paths.join(', ')} for ${field}`,
      ).toBe(true);
    }
    const [answer] = await app.db.select().from(answers).where(eq(answers.attemptId, attempt.attemptId));
    expect(answer).toMatchObject({ answer: 'kept', seq: 1, operationsEnd: 1 });
    expect(await chunksOf(attempt.attemptId)).toHaveLength(1);
  });

  it('does not check positions against the text: an operation that does not fit is stored as sent', async () => {
    const attempt = await newAttempt();
    const odd: CompactOperation[] = [[10, 50, 60, 'far away', 0]];
    const reply = await put(attempt, 1, { answer: 'far away', seq: 1, operations: { start: 0, ops: odd } });
    expect(reply.json()).toMatchObject({ applied: true, operationsEnd: 1 });
    expect(await storedOps(attempt.attemptId)).toEqual(odd);
  });

  it('stores nothing for a closed attempt or a question the exam does not have', async () => {
    const attempt = await newAttempt();
    const outOfRange = await put(attempt, 9, { answer: 'x', seq: 1, operations: { start: 0, ops: typing(['x']) } });
    expect(outOfRange.statusCode).toBe(400);
    expect(await chunksOf(attempt.attemptId, 9)).toEqual([]);
    await app.inject({ method: 'POST', url: `/api/attempts/${attempt.attemptId}/submit`, headers: attempt.headers });
    const closed = await put(attempt, 1, { answer: 'x', seq: 1, operations: { start: 0, ops: typing(['x']) } });
    expect(closed.statusCode).toBe(409);
    expect(await chunksOf(attempt.attemptId)).toEqual([]);
    expect((await attemptRow(attempt.attemptId)).operationsBytes).toBe(0);
  });

  it('keeps the operations of several questions of one page apart', async () => {
    const attempt = await newAttempt();
    const first = typing(['x', 'y']);
    const second = [pasted(100, 0, 'pasted text')];
    await put(attempt, 1, { answer: 'xy', seq: 1, operations: { start: 0, ops: first } });
    await put(attempt, 3, { answer: 'pasted text', seq: 1, operations: { start: 0, ops: second } });
    expect(await storedOps(attempt.attemptId, 1)).toEqual(first);
    expect(await storedOps(attempt.attemptId, 3)).toEqual(second);
    expect((await attemptRow(attempt.attemptId)).operationsChars).toEqual([2, 11, 0, 0, 0]);
    expect(await bytesOf(attempt.attemptId)).toBe(JSON.stringify(first).length + JSON.stringify(second).length);
  });
});

describe('the per-attempt cap on stored operations', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp({ env: { OPERATIONS_PER_ATTEMPT_MAX_BYTES: '1024' } });
  });
  afterAll(() => app.close());

  it('stores no chunk that would pass the cap, marks the attempt capped once and still saves every answer', async () => {
    const attempt = await startAttempt(app, app.exams.put(makeExam()).id);
    const put = (seq: number, answer: string, operations: SaveOperations) =>
      app.inject({
        method: 'PUT',
        url: `/api/attempts/${attempt.attemptId}/answers/1`,
        headers: attempt.headers,
        payload: { answer, seq, operations },
      });
    // About 315 and 715 bytes: together past the 1,024 of this app.
    const small: CompactOperation[] = [[0, 0, 0, 'a'.repeat(300), 0]];
    const big: CompactOperation[] = [[1000, 300, 300, 'b'.repeat(700), 0]];
    expect((await put(1, 'a'.repeat(300), { start: 0, ops: small })).json()).toMatchObject({
      applied: true,
      operationsEnd: 1,
      operationsCapped: false,
    });
    const over = await put(2, `${'a'.repeat(300)}${'b'.repeat(700)}`, { start: 1, ops: big });
    expect(over.json()).toEqual({ questionIndex: 1, seq: 2, applied: true, operationsEnd: 1, operationsCapped: true });
    const row = async () => (await app.db.select().from(attempts).where(eq(attempts.id, attempt.attemptId)))[0]!;
    const cappedAt = (await row()).operationsCappedAt;
    expect(cappedAt).toBeInstanceOf(Date);
    expect((await row()).operationsBytes).toBe(JSON.stringify(small).length);

    // Once capped, even a chunk that would fit is not stored; the cap time stays the first one.
    const tiny = [typed(2000, 1000, 'c')];
    const after = await put(3, `${'a'.repeat(300)}${'b'.repeat(700)}c`, { start: 1, ops: tiny });
    expect(after.json()).toEqual({ questionIndex: 1, seq: 3, applied: true, operationsEnd: 1, operationsCapped: true });
    expect((await row()).operationsCappedAt).toEqual(cappedAt);
    const stored = await app.db
      .select({ ops: answerOperations.ops })
      .from(answerOperations)
      .where(eq(answerOperations.attemptId, attempt.attemptId));
    expect(stored.map((r) => r.ops)).toEqual([small]);
    const [answer] = await app.db.select().from(answers).where(eq(answers.attemptId, attempt.attemptId));
    expect(answer!.answer).toBe(`${'a'.repeat(300)}${'b'.repeat(700)}c`);
  });
});
