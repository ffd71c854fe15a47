import { describe, expect, it } from 'vitest';
import { openTakerDb } from '../../../lib/taker-db.ts';
import { listPending, markSynced, mergeServerAnswers, recordAnswer } from './outbox.ts';

describe('outbox', () => {
  it('gives each change of a question a higher seq than the one before', async () => {
    const db = await openTakerDb();
    const first = await recordAnswer(db, 'a1', 0, 'x');
    const second = await recordAnswer(db, 'a1', 0, 'xy');
    const other = await recordAnswer(db, 'a1', 1, 'z');
    expect([first.seq, second.seq, other.seq]).toEqual([1, 2, 1]);
    expect((await listPending(db, 'a1')).map((e) => [e.questionIndex, e.answer])).toEqual([
      [0, 'xy'],
      [1, 'z'],
    ]);
  });

  it('keeps a newer local value pending when an older seq is acknowledged', async () => {
    const db = await openTakerDb();
    const sent = await recordAnswer(db, 'a1', 0, 'old');
    await recordAnswer(db, 'a1', 0, 'new');
    await markSynced(db, 'a1', 0, sent.seq);
    const pending = await listPending(db, 'a1');
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({ answer: 'new', seq: 2, syncedSeq: 1 });
  });

  it('does not regress a local answer whose seq is newer than the server copy on resume', async () => {
    const db = await openTakerDb();
    await recordAnswer(db, 'a1', 0, 'draft');
    await recordAnswer(db, 'a1', 0, 'final');
    const merged = await mergeServerAnswers(db, 'a1', {
      '0': { answer: 'draft', seq: 1 },
      '1': { answer: 'from server', seq: 4 },
    });
    expect(merged.get(0)).toBe('final');
    expect(merged.get(1)).toBe('from server');
    expect((await listPending(db, 'a1')).map((e) => e.answer)).toEqual(['final']);
  });

  it('takes the server value when it carries a newer seq than this device (a second device wrote it)', async () => {
    const db = await openTakerDb();
    await recordAnswer(db, 'a1', 2, 'typed here');
    const merged = await mergeServerAnswers(db, 'a1', { '2': { answer: 'typed elsewhere', seq: 9 } });
    expect(merged.get(2)).toBe('typed elsewhere');
    expect(await listPending(db, 'a1')).toEqual([]);
    expect((await recordAnswer(db, 'a1', 2, 'next')).seq).toBe(10);
  });

  it('keeps attempts apart', async () => {
    const db = await openTakerDb();
    await recordAnswer(db, 'a1', 0, 'mine');
    expect(await listPending(db, 'a2')).toEqual([]);
  });
});
