import { formatPoints, rubricPoints, sumPoints } from '@exam/domain/grading';
import type { GradingSuggestion, QuestionMark } from '@exam/domain/question-grading';
import type { Rubric } from '@exam/domain/question';
import type { AnswerItem } from './answer-items.ts';

/**
 * The mark the grader is writing for one item. `points` is the text of the points field (it may be half typed);
 * `suggestionId` is set once the grader accepted or edited a suggestion, so the save names it.
 */
export type MarkDraft = { points: string; criteria: string[]; feedback: string; suggestionId: string | null };

/** The item's current mark (its representative's), or an empty draft for an unmarked item. */
export function draftOf(item: AnswerItem): MarkDraft {
  const row = item.representative;
  return {
    points: row.points === null ? '' : formatPoints(row.points),
    criteria: row.criteria,
    feedback: row.feedback,
    suggestionId: null,
  };
}

/** Points typed: 0 to the question's points, at most two decimals; undefined when not (yet) valid. */
export function parsePoints(value: string, maxPoints: number): number | undefined {
  if (value.trim() === '') return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || n > maxPoints) return undefined;
  return sumPoints([n]) === n ? n : undefined;
}

/**
 * Ticking or unticking a rubric criterion: the points become the sum of the ticked ones (the server refuses
 * criteria whose sum differs from the points, services/results-service/src/scoring/marks.ts).
 */
export function toggleCriterion(draft: MarkDraft, rubric: Rubric, criterionId: string): MarkDraft {
  const criteria = draft.criteria.includes(criterionId)
    ? draft.criteria.filter((id) => id !== criterionId)
    : [...draft.criteria, criterionId];
  return { ...draft, criteria, points: formatPoints(rubricPoints(rubric, criteria)) };
}

/** Full marks, zero or typed points: the ticks go, as on a result's page (features/grading's setPoints). */
export function withPoints(draft: MarkDraft, points: string): MarkDraft {
  return { ...draft, points, criteria: [] };
}

/**
 * The suggestion as a mark. A rubric's criteria are ticks, so a criterion ticks when the suggestion gave it all its
 * points; when it gave some criterion part of its points, no tick can say so and the suggested points stand alone.
 */
export function draftFromSuggestion(draft: MarkDraft, suggestion: GradingSuggestion, rubric: Rubric | null): MarkDraft {
  const byId = new Map(suggestion.rubric.map((r) => [r.criterionId, r.points]));
  const criteria = rubric?.criteria ?? [];
  const allOrNothing = criteria.every((c) => [0, c.points].includes(byId.get(c.id) ?? 0));
  const ticked = allOrNothing ? criteria.filter((c) => byId.get(c.id) === c.points).map((c) => c.id) : [];
  const points = rubric && allOrNothing ? rubricPoints(rubric, ticked) : suggestion.points;
  return { ...draft, points: formatPoints(points), criteria: ticked, suggestionId: suggestion.id };
}

/** The request body for the item's members, or undefined while the points are missing or out of range. */
export function markOf(draft: MarkDraft, item: AnswerItem, maxPoints: number): QuestionMark | undefined {
  const points = parsePoints(draft.points, maxPoints);
  if (points === undefined) return undefined;
  return {
    resultIds: item.rows.map((row) => row.resultId),
    points,
    feedback: draft.feedback,
    criteria: draft.criteria,
    ...(draft.suggestionId ? { suggestionId: draft.suggestionId } : {}),
  };
}
