import type { InternalExam } from '@exam/domain/internal';
import type { GradingAgreement, QuestionAgreement } from '@exam/domain/question-grading';
import { computeAgreement, type RatingPair } from '@exam/psychometrics/agreement';
import { assertCan } from '../../access/exam-ownership.ts';
import type { Deps } from '../../deps.ts';
import type { GradingAgreementRepository } from './grading-agreement.repository.ts';

/**
 * The agreement figures of each question's pairs (packages/psychometrics/src/agreement.ts: exact agreement, Cohen's
 * κ, quadratic-weighted κ with its bootstrap interval, mean absolute difference), in the exam's question order.
 * Titles come from the exam as exam-service holds it; a question it no longer has is named by its number.
 */
export function agreementFigures(
  pairsByQuestion: ReadonlyMap<number, readonly RatingPair[]>,
  exam: Pick<InternalExam, 'questions'> | undefined,
): QuestionAgreement[] {
  return [...pairsByQuestion.entries()]
    .sort(([a], [b]) => a - b)
    .map(([questionIndex, pairs]) => ({
      questionIndex,
      title: exam?.questions[questionIndex]?.title || `Question ${questionIndex + 1}`,
      ...computeAgreement(pairs),
    }));
}

/**
 * How far the AI's suggested marks agree with the graders' (docs/product.md#ai-suggested-marks): the agreement route
 * and the exam's insights read it the same way, one query each.
 */
export function createGradingAgreementService(repo: GradingAgreementRepository, deps: Pick<Deps, 'examSource'>) {
  return {
    pairsOf: (examId: string, ownerId: string) => repo.pairsOf(examId, ownerId),

    /** GET /api/exams/{examId}/grading/agreement; 404 for another creator's exam. */
    async ofExam(examId: string, ownerId: string): Promise<GradingAgreement> {
      const exam = await assertCan(deps, examId, ownerId, 'insights:read');
      return { examId, questions: agreementFigures(await repo.pairsOf(examId, ownerId), exam) };
    },
  };
}
export type GradingAgreementService = ReturnType<typeof createGradingAgreementService>;
