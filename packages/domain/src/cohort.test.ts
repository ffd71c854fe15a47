import { describe, expect, it } from 'vitest';
import { OverrideInputSchema, poolIssues, questionsPerCandidate, windowIssue } from './cohort.ts';
import { CreateExamSchema } from './exam.ts';

describe('windowIssue', () => {
  it('refuses a close before or at the opening, and accepts an open end on either side', () => {
    expect(windowIssue({ opensAt: '2026-12-01T10:00:00Z', closesAt: '2026-12-01T09:00:00Z' })?.path).toEqual([
      'closesAt',
    ]);
    expect(windowIssue({ opensAt: '2026-12-01T10:00:00+01:00', closesAt: '2026-12-01T09:00:00Z' })).not.toBeNull();
    expect(windowIssue({ opensAt: '2026-12-01T10:00:00+01:00', closesAt: '2026-12-01T09:00:01Z' })).toBeNull();
    expect(windowIssue({ opensAt: null, closesAt: '2026-12-01T09:00:00Z' })).toBeNull();
  });
});

describe('pools', () => {
  const pools = [{ id: 'p1', title: 'Cells', draw: 2, points: 3 }];
  it('counts every question outside a pool and each pool by its draw', () => {
    const questions = [{ poolId: null }, { poolId: 'p1' }, { poolId: 'p1' }, { poolId: 'p1' }];
    expect(questionsPerCandidate(questions, pools)).toBe(3);
    expect(poolIssues(questions, pools)).toEqual([]);
  });
  it('names a question of an unknown pool, a pool too small for its draw and a repeated pool id', () => {
    const issues = poolIssues(
      [{ poolId: 'p1' }, { poolId: 'nope' }],
      [...pools, { id: 'p1', title: '', draw: 1, points: 1 }],
    );
    expect(issues.map((i) => i.path.join('.'))).toEqual(['pools.1.id', 'questions.1.poolId', 'pools.0.draw']);
  });
  it('are checked when an exam is created', () => {
    const result = CreateExamSchema.safeParse({
      pools,
      questions: [{ id: 'q1', type: 'short-answer', title: 'One', poolId: 'p1' }],
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path.join('.'))).toEqual(['pools.0.draw']);
  });
});

describe('OverrideInputSchema', () => {
  it('takes minutes, a factor and a window of its own', () => {
    expect(OverrideInputSchema.parse({ extraMinutes: 15, timeFactor: 1.5, closesAt: '2026-12-02T09:00:00Z' })).toEqual({
      extraMinutes: 15,
      timeFactor: 1.5,
      closesAt: '2026-12-02T09:00:00Z',
    });
  });
  it('names the field of negative extra time, a factor below 1 and a window closing before it opens', () => {
    const paths = (input: unknown) =>
      OverrideInputSchema.safeParse(input).error?.issues.map((i) => i.path.join('.')) ?? [];
    expect(paths({ extraMinutes: -5 })).toEqual(['extraMinutes']);
    expect(paths({ timeFactor: 0.5 })).toEqual(['timeFactor']);
    expect(paths({ opensAt: '2026-12-02T09:00:00Z', closesAt: '2026-12-01T09:00:00Z' })).toEqual(['closesAt']);
    expect(paths({ closesAt: 'tomorrow' })).toEqual(['closesAt']);
  });
});
