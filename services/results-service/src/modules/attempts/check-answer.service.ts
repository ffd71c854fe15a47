import { isAnswered, answerKeyText } from '@exam/domain/answer-text';
import { AppError, ErrorCode } from '@exam/domain/errors';
import { answerParts, autoPoints } from '@exam/domain/grading';
import { PracticeMessages, verdictOf, type PracticeCheck, type PracticeCheckBody } from '@exam/domain/practice';
import type { Deps } from '../../deps.ts';
import { creatorFeedback } from '../../scoring/creator-feedback.ts';
import type { AttemptsService } from './attempts.service.ts';
import { RetryLaterError } from './retry-later.ts';
import type { StartLimitsRepository } from './start-limits.repository.ts';

/** Checks per attempt and minute: a candidate clicks Check a few times a question, a script would click thousands. */
export const CHECKS_PER_MINUTE = 60;

/**
 * Checking an answer in a practice exam (docs/product.md#practice-and-review): the answer is saved first by the
 * save's own path (its seq, the attempt's window, its section), then scored by the one scoring module against the
 * attempt's snapshot (whose calculated questions hold this attempt's values) and answered with the creator's
 * feedback, and the key when the exam shows keys. A real exam's attempt is refused: its answers are checked only
 * once graded and released.
 */
export function createCheckAnswerService(
  attempts: AttemptsService,
  limits: Pick<StartLimitsRepository, 'count'>,
  deps: Pick<Deps, 'clock' | 'examSource'>,
) {
  /** Counted in PostgreSQL per attempt and minute, so every replica counts against the same window. */
  async function takeCheck(attemptId: string) {
    const windowMs = 60_000;
    const now = deps.clock.now().getTime();
    const windowStart = Math.floor(now / windowMs) * windowMs;
    if ((await limits.count(`checks:${attemptId}`, new Date(windowStart))) > CHECKS_PER_MINUTE)
      throw new RetryLaterError(windowStart + windowMs - now, () => PracticeMessages.checkedTooOften);
  }

  return {
    async check(attemptId: string, questionIndex: number, body: PracticeCheckBody): Promise<PracticeCheck> {
      const attempt = await attempts.getAttempt(attemptId);
      if (!attempt.practice) throw new AppError(ErrorCode.FORBIDDEN, PracticeMessages.notPractice);
      const question = attempt.examSnapshot.questions[questionIndex];
      if (!question) throw new AppError(ErrorCode.VALIDATION, `This exam has no question ${questionIndex + 1}`);
      await takeCheck(attemptId);
      await attempts.saveAnswer(attemptId, questionIndex, { answer: body.answer, seq: body.seq });
      const answered = isAnswered(question, body.answer);
      const points = answered ? autoPoints(question, body.answer) : 0;
      const verdict = verdictOf(points, question.points, answered);
      // Whether keys are shown is the exam's as it is now, as for a released result (candidate-result.service.ts).
      const live = await deps.examSource.findExam(attempt.examId);
      const showKeys = live?.showAnswerKeys ?? attempt.examSnapshot.showAnswerKeys;
      return {
        questionIndex,
        verdict,
        points,
        maxPoints: question.points,
        feedback: creatorFeedback(question, body.answer, verdict),
        correctAnswer: showKeys ? answerKeyText(question) : null,
        parts: answered ? answerParts(question, body.answer) : null,
      };
    },
  };
}
export type CheckAnswerService = ReturnType<typeof createCheckAnswerService>;
