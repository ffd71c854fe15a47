import { describe, expect, it } from 'vitest';
import { makeAnswerRow, makeQuestionAnswers, makeSuggestion } from '../../../testing/question-grading-factories.ts';
import { answerItems, filterItems, itemSuggestion, nextUnmarked, sharedGroups } from './answer-items.ts';

const keys = (items: ReturnType<typeof answerItems>) => items.map((item) => item.key);

describe('answer items', () => {
  const data = makeQuestionAnswers([
    makeAnswerRow(3, { groupId: 'g-a', answer: 'Median' }),
    makeAnswerRow(1, { groupId: 'g-a', answer: 'median' }),
    makeAnswerRow(2, { groupId: 'g-b', points: 4 }),
    makeAnswerRow(4, { groupId: 'g-a', answer: 'median', detached: true }),
    makeAnswerRow(5, { groupId: 'g-c', flagged: true }),
  ]);

  it("puts a group's members in one item where its earliest member is, and a detached member in its own", () => {
    const items = answerItems(data);
    expect(keys(items)).toEqual(['group:g-a', 'group:g-b', 'answer:result-4', 'group:g-c']);
    expect(items[0]?.rows.map((r) => r.resultId)).toEqual(['result-1', 'result-3']);
    expect(items[2]?.detached).toBe(true);
  });

  it("shows the member whose answer is the group's representative spelling", () => {
    const grouped = { ...data, groups: data.groups.map((g) => (g.groupId === 'g-a' ? { ...g, answer: 'Median' } : g)) };
    expect(answerItems(grouped)[0]?.representative.resultId).toBe('result-3');
  });

  it('filters to unmarked items, flagged items, or one group with its detached members', () => {
    const items = answerItems(data);
    expect(keys(filterItems(items, { kind: 'ungraded' }))).toEqual(['group:g-a', 'answer:result-4', 'group:g-c']);
    expect(keys(filterItems(items, { kind: 'flagged' }))).toEqual(['group:g-c']);
    expect(keys(filterItems(items, { kind: 'group', groupId: 'g-a' }))).toEqual(['group:g-a', 'answer:result-4']);
    expect(keys(sharedGroups(items))).toEqual(['group:g-a']);
  });

  it('finds the next unmarked item after the current one, wrapping round, never the current one', () => {
    const items = answerItems(data);
    expect(nextUnmarked(items, 'group:g-a')?.key).toBe('answer:result-4');
    expect(nextUnmarked(items, 'group:g-c')?.key).toBe('group:g-a');
    const alone = answerItems(makeQuestionAnswers([makeAnswerRow(1)]));
    expect(nextUnmarked(alone, 'group:g-1')).toBeUndefined();
  });

  it("prefers the representative's current suggestion, then any member's", () => {
    const stale = makeSuggestion('result-1', { id: 's-old', current: false });
    const fresh = makeSuggestion('result-2', { id: 's-new' });
    const [item] = answerItems(
      makeQuestionAnswers([
        makeAnswerRow(1, { groupId: 'g', answer: 'x', suggestion: stale }),
        makeAnswerRow(2, { groupId: 'g', answer: 'x', suggestion: fresh }),
      ]),
    );
    expect(itemSuggestion(item!)?.id).toBe('s-new');
  });
});
