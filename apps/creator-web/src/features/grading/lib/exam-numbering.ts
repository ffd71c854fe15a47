import type { QuestionAnswer } from '@exam/domain/result';

/**
 * A result's two numberings (docs/product.md#results-and-grading): the exam's, by which everything a grader reads is
 * listed and numbered (question n is the exam's question n for every candidate), and the candidate's own
 * (`questionIndex`, their shuffled or drawn order), by which answers, grades, events and the transcript are
 * addressed and which the grader sees only as "seen as question n".
 */
type Numbered = Pick<QuestionAnswer, 'questionIndex' | 'examQuestionIndex'>;

/** The question's index in the exam as the creator wrote it. */
export const examIndexOf = (qa: Numbered) => qa.examQuestionIndex ?? qa.questionIndex;

/** Whether the candidate saw the question at another place than the exam's (a shuffled, pooled or sectioned exam). */
export const seenElsewhere = (qa: Numbered) => examIndexOf(qa) !== qa.questionIndex;

/** The answers in the exam's order (the server lists them so already; a stable sort keeps that order). */
export function inExamOrder<T extends Numbered>(answers: readonly T[]): T[] {
  return [...answers].sort((a, b) => examIndexOf(a) - examIndexOf(b) || a.questionIndex - b.questionIndex);
}

/** The exam's number (from 1) of a question the candidate saw at `candidateIndex`; one not in the result keeps its own. */
export type ExamNumberOf = (candidateIndex: number) => number;

export const ownNumber: ExamNumberOf = (candidateIndex) => candidateIndex + 1;

export function examNumbering(answers: readonly Numbered[]): ExamNumberOf {
  const numbers = new Map(answers.map((qa) => [qa.questionIndex, examIndexOf(qa) + 1]));
  return (candidateIndex) => numbers.get(candidateIndex) ?? candidateIndex + 1;
}
