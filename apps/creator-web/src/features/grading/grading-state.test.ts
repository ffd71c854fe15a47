import { describe, expect, it } from 'vitest';
import { resultScoreBadge, toEntries, toggleVerdict, withFeedback, type QuestionGrade } from './grading-state.ts';

const ungraded: QuestionGrade = { isGraded: false, isCorrect: null, feedback: '' };
const right: QuestionGrade = { isGraded: true, isCorrect: true, feedback: '' };
const wrong: QuestionGrade = { isGraded: true, isCorrect: false, feedback: '' };

describe('grading state', () => {
  it('marks a question correct or incorrect, and unchecks it when the same verdict is chosen again', () => {
    expect(toggleVerdict(ungraded, true)).toEqual(right);
    expect(toggleVerdict(right, false)).toEqual(wrong);
    expect(toggleVerdict(wrong, false)).toEqual(ungraded);
  });

  it('marks a question graded when feedback is typed on the grader page only', () => {
    expect(withFeedback(ungraded, 'Good', true)).toEqual({ isGraded: true, isCorrect: null, feedback: 'Good' });
    expect(withFeedback(ungraded, 'Good', false)).toEqual({ ...ungraded, feedback: 'Good' });
  });

  it('sends one entry per question and no verdict for ungraded ones', () => {
    expect(toEntries([right, { ...ungraded, isCorrect: true, feedback: 'x' }])).toEqual([
      { questionIndex: 0, isGraded: true, isCorrect: true, feedback: '' },
      { questionIndex: 1, isGraded: false, isCorrect: null, feedback: 'x' },
    ]);
  });

  it('words and colours the result badge by its score thresholds', () => {
    const saved = { unsaved: false, isGraded: false, gradedAt: null };
    expect(resultScoreBadge([ungraded, ungraded], saved)).toEqual({ text: 'Not Graded', tone: 'neutral' });
    expect(resultScoreBadge([right, ungraded], { ...saved, unsaved: true })).toEqual({
      text: '1/2 correct (unsaved)',
      tone: 'info',
    });
    expect(resultScoreBadge([right, wrong, wrong], saved)).toEqual({ text: '1/3 correct', tone: 'danger' });
    expect(resultScoreBadge([right, right, right, right, wrong], saved).tone).toBe('warning');
    expect(
      resultScoreBadge([right, right, right, right, right], {
        unsaved: false,
        isGraded: true,
        gradedAt: '2025-01-05T12:00:00Z',
      }),
    ).toEqual({ text: '5 correct (graded Jan 5, 2025)', tone: 'success' });
  });
});
