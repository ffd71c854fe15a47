import type { Rubric } from '@exam/domain/question';
import { describe, expect, it } from 'vitest';
import { makeAnswerRow, makeQuestionAnswers, makeSuggestion } from '../../../testing/question-grading-factories.ts';
import { answerItems } from './answer-items.ts';
import { draftFromSuggestion, draftOf, markOf, parsePoints, toggleCriterion, withPoints } from './mark-draft.ts';

const rubric: Rubric = {
  id: 'r',
  title: '',
  criteria: [
    { id: 'a', description: 'A', points: 2 },
    { id: 'b', description: 'B', points: 1.5 },
  ],
};

const [item] = answerItems(
  makeQuestionAnswers([
    makeAnswerRow(1, { groupId: 'g', answer: 'x', points: 2, feedback: 'Fine', criteria: ['a'] }),
    makeAnswerRow(2, { groupId: 'g', answer: 'x' }),
  ]),
);

describe('the mark draft', () => {
  it("starts from the item's current mark", () => {
    expect(draftOf(item!)).toEqual({ points: '2', criteria: ['a'], feedback: 'Fine', suggestionId: null });
  });

  it('adds up the ticked criteria, and typed or full points drop the ticks', () => {
    const empty = { points: '', criteria: [], feedback: '', suggestionId: null };
    const ticked = toggleCriterion(toggleCriterion(empty, rubric, 'a'), rubric, 'b');
    expect(ticked).toMatchObject({ points: '3.5', criteria: ['a', 'b'] });
    expect(toggleCriterion(ticked, rubric, 'a')).toMatchObject({ points: '1.5', criteria: ['b'] });
    expect(withPoints(ticked, '4')).toMatchObject({ points: '4', criteria: [] });
  });

  it('accepts points from 0 to the maximum with at most two decimals', () => {
    expect(parsePoints('2.25', 4)).toBe(2.25);
    expect(parsePoints('4.5', 4)).toBeUndefined();
    expect(parsePoints('1.234', 4)).toBeUndefined();
    expect(parsePoints('', 4)).toBeUndefined();
  });

  it('ticks the criteria a suggestion gave all their points, keeping its id', () => {
    const suggestion = makeSuggestion('result-1', {
      id: 's1',
      points: 2,
      rubric: [
        { criterionId: 'a', points: 2 },
        { criterionId: 'b', points: 0 },
      ],
    });
    expect(draftFromSuggestion(draftOf(item!), suggestion, rubric)).toEqual({
      points: '2',
      criteria: ['a'],
      feedback: 'Fine',
      suggestionId: 's1',
    });
  });

  it('gives a suggestion with part of a criterion its points without ticks', () => {
    const suggestion = makeSuggestion('result-1', {
      id: 's2',
      points: 2.5,
      rubric: [
        { criterionId: 'a', points: 1.5 },
        { criterionId: 'b', points: 1 },
      ],
    });
    expect(draftFromSuggestion(draftOf(item!), suggestion, rubric)).toMatchObject({
      points: '2.5',
      criteria: [],
      suggestionId: 's2',
    });
  });

  it('marks every member of the item, naming the suggestion taken, and nothing while the points are invalid', () => {
    const draft = { points: '3', criteria: [], feedback: 'Ok', suggestionId: 's1' };
    expect(markOf(draft, item!, 4)).toEqual({
      resultIds: ['result-1', 'result-2'],
      points: 3,
      feedback: 'Ok',
      criteria: [],
      suggestionId: 's1',
    });
    expect(markOf({ ...draft, suggestionId: null }, item!, 4)).not.toHaveProperty('suggestionId');
    expect(markOf({ ...draft, points: '5' }, item!, 4)).toBeUndefined();
  });
});
