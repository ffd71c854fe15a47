import { describe, expect, it } from 'vitest';
import {
  attemptDeadline,
  attemptsLeft,
  candidateDurationMinutes,
  effectiveWindow,
  keptAttempt,
  OverrideInputSchema,
  poolIssues,
  questionsPerCandidate,
  windowIssue,
  windowState,
} from './cohort.ts';
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

describe("a candidate's window", () => {
  const exam = { opensAt: '2026-12-01T09:00:00Z', closesAt: '2026-12-01T12:00:00Z' };
  it("takes the override's opening or closing where set and the exam's otherwise", () => {
    expect(effectiveWindow(exam, null)).toEqual(exam);
    expect(effectiveWindow(exam, { opensAt: null, closesAt: '2026-12-02T12:00:00Z' })).toEqual({
      opensAt: '2026-12-01T09:00:00Z',
      closesAt: '2026-12-02T12:00:00Z',
    });
  });
  it('is open from the opening instant until just before the close, and an open end never limits', () => {
    expect(windowState(exam, new Date('2026-12-01T08:59:59.999Z'))).toBe('not-yet-open');
    expect(windowState(exam, new Date('2026-12-01T09:00:00Z'))).toBe('open');
    expect(windowState(exam, new Date('2026-12-01T11:59:59.999Z'))).toBe('open');
    expect(windowState(exam, new Date('2026-12-01T12:00:00Z'))).toBe('closed');
    expect(windowState({ opensAt: null, closesAt: null }, new Date(0))).toBe('open');
    expect(windowState({ opensAt: '2026-12-01T10:00:00+01:00', closesAt: null }, new Date(exam.opensAt))).toBe('open');
  });
});

describe("a candidate's time", () => {
  const timed = { timerEnabled: true, timerMinutes: 60 };
  it('is the timer times the factor plus the extra minutes, and none without a timer', () => {
    expect(candidateDurationMinutes(timed)).toBe(60);
    expect(candidateDurationMinutes(timed, { timeFactor: 1.5, extraMinutes: null })).toBe(90);
    expect(candidateDurationMinutes(timed, { timeFactor: 1.5, extraMinutes: 10 })).toBe(100);
    expect(
      candidateDurationMinutes({ timerEnabled: false, timerMinutes: 60 }, { timeFactor: 2, extraMinutes: 5 }),
    ).toBe(null);
  });
  it('ends at the start plus the duration, but never after the window closes', () => {
    const start = new Date('2026-12-01T11:00:00Z');
    expect(attemptDeadline(start, 90, null)?.toISOString()).toBe('2026-12-01T12:30:00.000Z');
    expect(attemptDeadline(start, 90, '2026-12-01T12:00:00Z')?.toISOString()).toBe('2026-12-01T12:00:00.000Z');
    expect(attemptDeadline(start, 30, '2026-12-01T12:00:00Z')?.toISOString()).toBe('2026-12-01T11:30:00.000Z');
    expect(attemptDeadline(start, null, '2026-12-01T12:00:00+01:00')?.toISOString()).toBe('2026-12-01T11:00:00.000Z');
    expect(attemptDeadline(start, null, null)).toBeNull();
  });
});

describe('attempts', () => {
  it("leaves the override's count, else the exam's, less those used, never below zero", () => {
    expect(attemptsLeft({ attemptsAllowed: 2 }, null, 1)).toBe(1);
    expect(attemptsLeft({ attemptsAllowed: 2 }, { attemptsAllowed: null }, 2)).toBe(0);
    expect(attemptsLeft({ attemptsAllowed: 1 }, { attemptsAllowed: 3 }, 1)).toBe(2);
    expect(attemptsLeft({ attemptsAllowed: 1 }, null, 4)).toBe(0);
  });
  const attempts = [
    { attemptNo: 1, score: 3, maxScore: 10 },
    { attemptNo: 2, score: 8, maxScore: 10 },
    { attemptNo: 3, score: 4, maxScore: 5 },
    { attemptNo: 4, score: 2, maxScore: 10 },
  ];
  it('keeps the highest percentage (ties to the earliest attempt), the last or the first', () => {
    expect(keptAttempt(attempts, 'highest')?.attemptNo).toBe(2);
    expect(keptAttempt([...attempts].reverse(), 'highest')?.attemptNo).toBe(2);
    expect(keptAttempt(attempts, 'last')?.attemptNo).toBe(4);
    expect(keptAttempt([...attempts].reverse(), 'first')?.attemptNo).toBe(1);
    expect(keptAttempt([{ attemptNo: 1, score: 0, maxScore: 0 }], 'highest')?.attemptNo).toBe(1);
    expect(keptAttempt([], 'last')).toBeUndefined();
  });
});
