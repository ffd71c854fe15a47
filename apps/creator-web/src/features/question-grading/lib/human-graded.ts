import { gradedByTests, hasAnswerKey } from '@exam/domain/grading';
import type { Question } from '@exam/domain/question';

/**
 * Whether a grader marks the question's answers: it has a rubric, or neither a key nor tests decide its points
 * (docs/product.md#results-and-grading). The question picker marks these; the answers route says the same of
 * the question on screen (`humanGraded`).
 */
export function isHumanGraded(question: Question): boolean {
  return question.rubricId !== null || (!hasAnswerKey(question) && !gradedByTests(question));
}
