import { describe, expect, it } from 'vitest';
import {
  clearMark,
  parsePoints,
  setPoints,
  toEntries,
  withCriteria,
  withFeedback,
  type QuestionGrade,
} from './grading-state.ts';

const untouched: QuestionGrade = { points: null, feedback: '', criteria: [], touched: false };

describe('grading state', () => {
  it('sets points explicitly: the same mark twice leaves it as it is (never a toggle)', () => {
    const full = setPoints(untouched, 2);
    expect(full).toEqual({ points: 2, feedback: '', criteria: [], touched: true });
    expect(setPoints(full, 2)).toBe(full);
    expect(setPoints(full, 0).points).toBe(0);
  });

  it('clears a mark as its own action, sent as points: null', () => {
    expect(toEntries([clearMark(setPoints(untouched, 1))])).toEqual([
      { questionIndex: 0, points: null, feedback: '', criteria: [] },
    ]);
  });

  it('sends only the questions the grader touched, so the key keeps scoring the others', () => {
    const scoredByKey: QuestionGrade = { ...untouched, points: 1 };
    expect(toEntries([scoredByKey, withFeedback(untouched, 'Good')])).toEqual([
      { questionIndex: 1, points: null, feedback: 'Good', criteria: [] },
    ]);
  });

  it('sets the points to the sum of the ticked rubric criteria', () => {
    const rubric = {
      id: 'r1',
      title: 'Essay',
      criteria: [
        { id: 'c1', description: 'Clear', points: 1.5 },
        { id: 'c2', description: 'Correct', points: 0.25 },
      ],
    };
    expect(withCriteria(untouched, rubric, ['c1', 'c2'])).toMatchObject({ points: 1.75, criteria: ['c1', 'c2'] });
  });

  it('accepts typed points between 0 and the maximum with at most two decimals', () => {
    expect(parsePoints('1.25', 2)).toBe(1.25);
    expect(parsePoints('2.5', 2)).toBeUndefined();
    expect(parsePoints('-1', 2)).toBeUndefined();
    expect(parsePoints('0.333', 2)).toBeUndefined();
    expect(parsePoints('', 2)).toBeUndefined();
  });
});
