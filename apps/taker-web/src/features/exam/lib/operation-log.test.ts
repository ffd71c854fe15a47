import { replay, type AnswerSource } from '@exam/domain/answer-operations';
import { describe, expect, it } from 'vitest';
import { openTakerDb, type TakerDb } from '../../../lib/taker-db.ts';
import { acknowledgeOperations, capOperations, isCapped, takeSave } from './operation-log.ts';
import { listPending, mergeServerAnswers, recordAnswer } from './outbox.ts';

const at = (ms: number) => new Date(Date.UTC(2030, 0, 1, 10) + ms).toISOString();

/** Types `text` into question `q` one key at a time, 100 ms apart, starting `from` ms. */
async function typeKeys(db: TakerDb, q: number, start: string, text: string, from = 0, source: AnswerSource = 'typed') {
  let answer = start;
  for (const [i, key] of [...text].entries()) {
    answer += key;
    await recordAnswer(db, 'a1', q, answer, { edit: { source }, at: at(from + i * 100) });
  }
  return answer;
}

const keptOps = async (db: TakerDb, q = 0) => (await takeSave(db, 'a1', q, 2000))?.chunk;

describe('edit operations in the outbox', () => {
  it("keeps an answer's operations in the answer's transaction, with each keystroke's time, replaying to the answer", async () => {
    const db = await openTakerDb();
    const answer = await typeKeys(db, 0, '', 'Paris');
    const chunk = await keptOps(db);
    expect(chunk).toEqual({
      start: 0,
      ops: [{ at: at(0), from: 0, to: 0, insert: 'Paris', source: 'typed', keys: [100, 100, 100, 100] }],
    });
    expect(replay(chunk?.ops ?? [])).toBe(answer);
    expect((await listPending(db, 'a1'))[0]).toMatchObject({ answer: 'Paris', seq: 5, opsHeld: 1 });
  });

  it('never folds a keystroke into an operation that already went out in a save', async () => {
    const db = await openTakerDb();
    await typeKeys(db, 0, '', 'ab');
    const sent = await takeSave(db, 'a1', 0, 2000);
    await typeKeys(db, 0, 'ab', 'cd', 1000);
    const chunk = await keptOps(db);
    expect(chunk?.ops.map((op) => op.insert)).toEqual(['ab', 'cd']);
    // What went out is what is still kept for that number: a resend carries the same operation.
    expect(chunk?.ops[0]).toEqual(sent?.chunk?.ops[0]);
  });

  it('forgets what the server acknowledged and numbers the rest from its count', async () => {
    const db = await openTakerDb();
    await typeKeys(db, 0, '', 'a');
    await recordAnswer(db, 'a1', 0, 'a pasted', { edit: { source: 'pasted' }, at: at(500) });
    const first = await takeSave(db, 'a1', 0, 1);
    expect(first?.chunk).toMatchObject({ start: 0, ops: [{ insert: 'a' }] });
    await acknowledgeOperations(db, 'a1', 0, { start: 0, count: 1 }, 1);
    expect(await keptOps(db)).toMatchObject({ start: 1, ops: [{ insert: ' pasted', source: 'pasted' }] });
    await acknowledgeOperations(db, 'a1', 0, { start: 1, count: 1 }, 2);
    expect(await keptOps(db)).toBeNull();
  });

  it('resumes numbering from the server when its answer wins, dropping the older value and its unsent operations', async () => {
    const db = await openTakerDb();
    await typeKeys(db, 0, '', 'mine');
    const merged = await mergeServerAnswers(db, 'a1', { '0': { answer: 'theirs', seq: 9, operations: 7 } });
    expect(merged.get(0)).toBe('theirs');
    expect(await listPending(db, 'a1')).toEqual([]);
    await recordAnswer(db, 'a1', 0, 'theirs!', { edit: { source: 'typed' }, at: at(9000) });
    // The next operation goes on from the server's seven and from its answer: no restored text is needed.
    expect(await keptOps(db)).toEqual({
      start: 7,
      ops: [{ at: at(9000), from: 6, to: 6, insert: '!', source: 'typed' }],
    });
  });

  it('on resume, forgets the operations the server stored although their reply was lost', async () => {
    const db = await openTakerDb();
    await typeKeys(db, 0, '', 'ab');
    await recordAnswer(db, 'a1', 0, 'ab cd', { edit: { source: 'pasted' }, at: at(900) });
    await takeSave(db, 'a1', 0, 2000);
    const merged = await mergeServerAnswers(db, 'a1', { '0': { answer: 'ab', seq: 2, operations: 1 } });
    expect(merged.get(0)).toBe('ab cd');
    expect(await keptOps(db)).toMatchObject({ start: 1, ops: [{ insert: ' cd' }] });
  });

  it('records text the editor showed but the page never recorded as restored, before the edit made on it', async () => {
    const db = await openTakerDb();
    await mergeServerAnswers(db, 'a1', { '1': { answer: 'draft', seq: 3, operations: 0 } });
    await recordAnswer(db, 'a1', 1, 'draft ok', {
      edit: { before: 'draft v2', changes: [{ from: 5, to: 8, insert: ' ok', source: 'typed' }] },
      at: at(0),
    });
    const ops = (await keptOps(db, 1))?.ops ?? [];
    expect(ops.map((op) => op.source)).toEqual(['restored', 'typed']);
    expect(replay(ops, 'draft')).toBe('draft ok');
  });

  it('stops recording operations for the attempt once capped; answers are still kept and sent', async () => {
    const db = await openTakerDb();
    await typeKeys(db, 0, '', 'abc');
    await capOperations(db, 'a1');
    expect(await isCapped(db, 'a1')).toBe(true);
    const entry = await recordAnswer(db, 'a1', 0, 'abcd', { edit: { source: 'typed' }, at: at(5000) });
    expect(entry).toMatchObject({ answer: 'abcd', seq: 4, opsHeld: 0 });
    expect(await takeSave(db, 'a1', 0, 2000)).toMatchObject({ entry: { answer: 'abcd' }, chunk: null });
    expect((await listPending(db, 'a1')).map((e) => e.answer)).toEqual(['abcd']);
    // Another attempt on this device is not capped.
    await recordAnswer(db, 'a2', 0, 'x', { edit: { source: 'typed' }, at: at(0) });
    expect((await takeSave(db, 'a2', 0, 2000))?.chunk?.ops).toHaveLength(1);
  });
});
