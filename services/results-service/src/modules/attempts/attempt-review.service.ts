import { answerKeyText, isAnswered } from '@exam/domain/answer-text';
import { AppError, ErrorCode } from '@exam/domain/errors';
import { answerParts } from '@exam/domain/grading';
import { passagesFor } from '@exam/domain/passages';
import { DEFAULT_REVIEW, PracticeMessages, verdictOf, type Review } from '@exam/domain/practice';
import { toPublicQuestion } from '@exam/domain/question';
import type { Deps } from '../../deps.ts';
import { creatorFeedback } from '../../scoring/creator-feedback.ts';
import { percentageOf } from '../../scoring/score.ts';
import type { AttemptsRepository } from './attempts.repository.ts';

export const ReviewMessages = { notSubmitted: 'This attempt has not been submitted yet' } as const;

/**
 * The candidate's review of a submitted attempt (docs/product.md#practice-and-review).
 *
 * A real exam's attempt is reviewable while the exam's review window is open: the window enabled, the result
 * released, and its close (if any) still ahead. The window and whether keys and feedback are shown are read from the
 * exam as it is now, like the release policy of the candidate's result, so a creator who closes the review closes it
 * at once; the snapshot decides only when exam-service no longer has the exam (which then has no review).
 *
 * A practice attempt is reviewable as soon as it is submitted, with the creator's feedback: practice results are
 * never released to a gradebook, and the candidate saw the same feedback while checking answers.
 */
export function createAttemptReviewService(
  repo: Pick<AttemptsRepository, 'findAttempt' | 'findResult'>,
  deps: Pick<Deps, 'clock' | 'examSource'>,
) {
  return {
    async review(attemptId: string): Promise<Review> {
      const attempt = await repo.findAttempt(attemptId);
      if (!attempt) throw new AppError(ErrorCode.NOT_FOUND, 'Attempt not found');
      const snapshot = attempt.examSnapshot;
      const live = await deps.examSource.findExam(attempt.examId);
      const window = attempt.practice
        ? { ...DEFAULT_REVIEW, enabled: true }
        : (live?.review ?? { ...DEFAULT_REVIEW, enabled: false });
      if (!window.enabled) throw new AppError(ErrorCode.FORBIDDEN, PracticeMessages.noReview);
      const result = attempt.resultId ? await repo.findResult(attempt.resultId) : undefined;
      if (!result) throw new AppError(ErrorCode.NOT_FOUND, ReviewMessages.notSubmitted);
      if (!attempt.practice) {
        if (!result.releasedAt) throw new AppError(ErrorCode.FORBIDDEN, PracticeMessages.reviewNotOpen);
        if (window.closesAt && Date.parse(window.closesAt) <= deps.clock.now().getTime())
          throw new AppError(ErrorCode.FORBIDDEN, PracticeMessages.reviewClosed);
      }
      const showKeys = live?.showAnswerKeys ?? snapshot.showAnswerKeys;
      return {
        examTitle: result.examTitle,
        userName: result.userName,
        score: result.score,
        maxScore: result.maxScore,
        percentage: percentageOf(result.score, result.maxScore),
        releasedAt: (result.releasedAt ?? result.completedAt).toISOString(),
        closesAt: window.closesAt ? new Date(window.closesAt).toISOString() : null,
        passages: passagesFor(live?.passages ?? [], snapshot.questions).map((p) => ({
          id: p.id,
          title: p.title,
          content: p.content,
        })),
        questions: snapshot.questions.map((q, i) => {
          const grade = result.grades[i];
          const answer = grade?.answer ?? '';
          const answered = isAnswered(q, answer);
          const points = grade?.points ?? null;
          const verdict = verdictOf(points, q.points, answered);
          return {
            question: toPublicQuestion(q),
            answer,
            points,
            maxPoints: q.points,
            verdict,
            graderFeedback: grade?.feedback ?? '',
            feedback: window.showFeedback ? creatorFeedback(q, answer, verdict) : [],
            correctAnswer: showKeys ? answerKeyText(q) : null,
            parts: answered ? answerParts(q, answer) : null,
          };
        }),
      };
    },
  };
}
export type AttemptReviewService = ReturnType<typeof createAttemptReviewService>;
