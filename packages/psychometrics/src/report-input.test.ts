import { describe, expect, it } from 'vitest';
import { candidateFacts, randomGuessScore, type ReportItemInput } from './report-input.ts';

const item = (type: string, optionCount: number, questionIndex = 0): ReportItemInput => ({
  questionIndex,
  topic: 'T',
  type,
  optionCount,
});

describe('randomGuessScore', () => {
  it('is one in the option count for the types answered by one pick, and 0 for the rest', () => {
    expect(randomGuessScore(item('mcq', 4))).toBe(0.25);
    expect(randomGuessScore(item('true-false', 2))).toBe(0.5);
    expect(randomGuessScore(item('mcq', 0))).toBe(0);
    for (const type of ['short-answer', 'essay', 'ordering', 'matching', 'fill-blanks', 'numeric', 'calculated'])
      expect(randomGuessScore(item(type, 3))).toBe(0);
  });
});

describe('candidateFacts', () => {
  it('compares an essay, like a short answer, with the assistant’s replies, and never a structured answer', () => {
    const reply = 'Photosynthesis turns light energy into chemical energy stored in glucose molecules inside plants';
    const items = [item('essay', 0, 0), item('matching', 0, 1)];
    const facts = candidateFacts(
      {
        resultId: 'r',
        name: 'A',
        studentId: 'S',
        startedAt: '2030-01-01T10:00:00Z',
        completedAt: '2030-01-01T11:00:00Z',
        marks: [0.5, 0.75],
        answers: [reply, JSON.stringify([reply])],
        events: [],
        chat: [{ role: 'assistant', content: reply, questionIndex: 0 }],
      },
      items,
    );
    expect(facts.copied).toEqual([true, false]);
    expect(facts.marks).toEqual([0.5, 0.75]);
  });
});
