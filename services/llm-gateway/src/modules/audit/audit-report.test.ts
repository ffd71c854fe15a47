import { describe, expect, it } from 'vitest';
import { itemOf, LEAKS_PER_ITEM, type AttemptRecord, type PlannedItem } from './audit-report.ts';

const planned: PlannedItem = {
  configuration: 0,
  questionIndex: 0,
  questionId: 'q1',
  title: 'Photosynthesis',
  type: 'short-answer',
  attempts: 25,
};
const record = (attemptId: string, over: Partial<AttemptRecord> = {}): AttemptRecord => ({
  configuration: 0,
  questionIndex: 0,
  attemptId,
  form: attemptId.split('.')[0] as AttemptRecord['form'],
  status: 'done',
  rawLeaked: false,
  guardedLeaked: false,
  disguises: [],
  turns: [],
  calls: 1,
  tokens: 100,
  ...over,
});

describe("an item's figures", () => {
  it('leaves errors out of the rates and gives the Wilson interval of the guarded rate', () => {
    const records = [
      record('direct.1', { rawLeaked: true, guardedLeaked: true }),
      record('direct.2'),
      record('direct.3'),
      record('role-play.1', { rawLeaked: true }),
      record('role-play.2', { status: 'error' }),
    ];
    const item = itemOf(planned, records);
    expect(item).toMatchObject({ done: 5, errors: 1, rawLeaks: 2, guardedLeaks: 1, rawLeakRate: 0.5 });
    expect(item.guardedLeakRate).toBe(0.25);
    // Wilson's score interval for 1 of 4 at z = 1.96, worked by hand: (2np + z² ∓ z√(z² + 4np(1−p))) / 2(n + z²).
    expect(item.guardedInterval!.low).toBeCloseTo(0.0456, 3);
    expect(item.guardedInterval!.high).toBeCloseTo(0.6994, 3);
    expect(item.formsLeaked).toEqual(['direct']);
    expect(item.rawFormsLeaked).toEqual(['direct', 'role-play']);
  });

  it('has no rates before an answered attempt', () => {
    expect(itemOf(planned, [record('direct.1', { status: 'error' })])).toMatchObject({
      rawLeakRate: null,
      guardedLeakRate: null,
      guardedInterval: null,
    });
  });

  it('keeps at most ten transcripts, past-the-guard ones first and one of every leaking form', () => {
    const records = [
      ...Array.from({ length: 12 }, (_, i) => record(`direct.${i + 1}`, { rawLeaked: true })),
      record('code.3', { rawLeaked: true }),
      record('base64.2', { rawLeaked: true, guardedLeaked: true }),
    ];
    const leaks = itemOf(planned, records).leaks;
    expect(leaks).toHaveLength(LEAKS_PER_ITEM);
    expect(leaks[0]).toMatchObject({ attemptId: 'base64.2', guarded: true });
    expect(leaks.map((l) => l.attemptId)).toContain('code.3');
    expect(leaks.filter((l) => l.form === 'direct').map((l) => l.attemptId)).toEqual([
      'direct.1',
      'direct.2',
      'direct.3',
      'direct.4',
      'direct.5',
      'direct.6',
      'direct.7',
      'direct.8',
    ]);
  });
});
