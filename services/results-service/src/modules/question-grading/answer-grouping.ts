import type { AnswerGroupView } from '@exam/domain/question-grading';
import { groupAnswers, groupCodeAnswers } from '@exam/domain/answer-groups';
import { formatKey } from '@exam/domain/calculated';
import { parseQuantity } from '@exam/domain/grading';
import type { UnitSettings } from '@exam/domain/question-kinds';
import { textToGrade, type SubmittedAnswer } from './question-answers.repository.ts';

/** A group of one: an answer a grader took out of its group, or a file whose text cannot be read. */
const singleGroupId = (resultId: string) => `answer-${resultId}`;

/** What an answer is grouped on: the text a mark rests on; a question without a file uploaded is blank. */
function groupingText(answer: SubmittedAnswer): string | null {
  if (answer.question.type === 'file-upload' && answer.file === null) return '';
  const text = textToGrade(answer).text;
  return answer.question.type === 'numeric' && text !== null ? quantityForm(text, answer.question.units) : text;
}

/**
 * A numeric answer with units in the unit the key is in ("12.5 cm" and "0.125m" are one answer, "0.125 m"), so a
 * mark covers every way of writing the same quantity; an answer that is no quantity stays as written.
 */
function quantityForm(text: string, units: UnitSettings): string {
  const value = parseQuantity(text, units);
  if (value === undefined) return text;
  const base = units.units.find((u) => u.multiplier === 1)?.symbol;
  return base ? `${formatKey(value)} ${base}` : formatKey(value);
}

/**
 * The types whose answers read from a structure (answer-text.ts) or a number: grouped only when their readable
 * forms are identical, never by typing slips (two matching answers one letter apart chose different options).
 */
const EXACT_TYPES: ReadonlySet<string> = new Set([
  'mcq',
  'true-false',
  'ordering',
  'matching',
  'fill-blanks',
  'numeric',
  'calculated',
]);

/**
 * The groups of a question's answers (packages/domain/src/answer-groups.ts: identical after the question's own
 * normalisation, or near-identical by a few typing slips; a coding question's programs when they are the same
 * token for token, comments and layout aside), recomputed from the current answers on every read, so
 * a regrade never leaves a stale group while marks, which live on the results, stay. A detached answer, and a file
 * with no readable text, is a group of its own (after the shared groups, in submission order). `groupOf` maps each
 * result id to its group's id.
 */
export function groupQuestionAnswers(
  answers: readonly SubmittedAnswer[],
  detached: ReadonlySet<string>,
): { groups: AnswerGroupView[]; groupOf: Map<string, string> } {
  const shared: Array<{ resultId: string; answer: string }> = [];
  const alone: AnswerGroupView[] = [];
  for (const answer of answers) {
    const text = groupingText(answer);
    if (text !== null && !detached.has(answer.resultId)) shared.push({ resultId: answer.resultId, answer: text });
    else
      alone.push({
        groupId: singleGroupId(answer.resultId),
        resultIds: [answer.resultId],
        answer: text ?? answer.answer,
        forms: 1,
        empty: (text ?? answer.answer).trim() === '',
      });
  }
  const question = answers[0]?.question;
  // Code groups only when the programs are the same token for token; text by the keys' normalisation and slips.
  const byAnswer =
    question?.type === 'coding' && question.language
      ? groupCodeAnswers(shared, question.language)
      : groupAnswers(shared, question?.matching.caseSensitive ?? false, {
          exact: question !== undefined && EXACT_TYPES.has(question.type),
        });
  const groups: AnswerGroupView[] = [...byAnswer, ...alone].map((g) => ({
    groupId: g.groupId,
    resultIds: g.resultIds,
    answer: g.answer,
    forms: g.forms,
    empty: g.empty,
  }));
  const groupOf = new Map(groups.flatMap((g) => g.resultIds.map((id) => [id, g.groupId] as const)));
  return { groups, groupOf };
}
