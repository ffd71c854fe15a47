import type { QuestionAnswer } from '@exam/domain/result';

/**
 * A result's questions as graders read them: in the exam's own order, each carrying its exam index, whatever
 * order the candidate had (docs/product.md#results-and-grading). `questionIndex` stays the candidate's index, by
 * which answers, grades, files and grade history are addressed, and is shown only as "seen as question n".
 *
 * The exam's order is the one the creator wrote (an exam index is the question's place at the attempt's start,
 * `snapshot.arrangement.sourceIndices`): a shuffle is undone, a section's questions sit where they were written
 * and a question drawn from a pool sits at its own place among the pool's questions, where the pool sits.
 */
export function inExamOrder(answers: readonly QuestionAnswer[]): QuestionAnswer[] {
  return answers
    .map((qa) => ({ ...qa, examQuestionIndex: qa.examQuestionIndex ?? qa.questionIndex }))
    .sort((a, b) => a.examQuestionIndex - b.examQuestionIndex || a.questionIndex - b.questionIndex);
}
