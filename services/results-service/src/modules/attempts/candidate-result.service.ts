import { candidateReport, type TestGrading } from '@exam/domain/coding';
import { AppError, ErrorCode } from '@exam/domain/errors';
import type { CandidateResult } from '@exam/domain/result';
import type { FastifyBaseLogger } from 'fastify';
import type { Deps } from '../../deps.ts';
import type { ExamSnapshot } from '../../scoring/snapshot.ts';
import { answerKeyText, answerText } from '@exam/domain/answer-text';
import { passagesFor } from '@exam/domain/passages';
import { percentageOf } from '../../scoring/score.ts';
import type { AttemptsRepository } from './attempts.repository.ts';
import { explainPoints } from './candidate-explanation.ts';

export const CandidateResultMessages = {
  never: 'Results are not released for this exam',
  notReleased: 'Your result has not been released yet',
  pending: 'Your result is awaiting grading',
  notSubmitted: 'This attempt has not been submitted yet',
} as const;

/** A question's test grading as its candidate may see it: every outcome, data of the visible tests only. */
export function candidateTests(tests: TestGrading): TestGrading {
  const { verdicts } = candidateReport({
    runId: tests.runId ?? '',
    state: tests.state,
    verdicts: tests.verdicts,
    points: 0,
    maxPoints: 0,
    queuedAt: '',
    finishedAt: null,
  });
  return { ...tests, verdicts };
}

/**
 * The candidate's own result, when the exam's release policy allows it (docs/product.md#results-and-grading).
 * The policy and whether keys are shown come from the exam as it is now, so a creator who turns results off
 * hides them at once; the snapshot decides only when exam-service no longer has the exam.
 *
 * With the result the candidate learns where the assistant was wrong on purpose
 * (docs/product.md#reliance-calibration-planted-errors): the verified planted turns of their conversation, read
 * from llm-gateway's transcript only when a question of their exam could carry one. If the gateway cannot be
 * asked, the result is still shown, saying so (ARCHITECTURE.md, "The three loops").
 */
export function createCandidateResultService(
  repo: AttemptsRepository,
  deps: Pick<Deps, 'examSource' | 'attemptTranscripts'>,
  log: FastifyBaseLogger,
) {
  /** The error planted per question (the candidate's numbering); undefined when the gateway could not be asked. */
  async function plantedOf(attemptId: string, snapshot: ExamSnapshot): Promise<Map<number, string> | undefined> {
    const planted = new Map<number, string>();
    if (!snapshot.questions.some((q) => q.plantedError)) return planted;
    try {
      for (const m of await deps.attemptTranscripts.findAttemptTranscript(attemptId))
        if (m.planted?.verified) planted.set(m.planted.questionIndex, m.planted.error);
      return planted;
    } catch (err) {
      log.warn({ err, attemptId }, "the candidate's result is shown without what the assistant planted");
      return undefined;
    }
  }

  return {
    async result(attemptId: string): Promise<CandidateResult> {
      const attempt = await repo.findAttempt(attemptId);
      if (!attempt) throw new AppError(ErrorCode.NOT_FOUND, 'Attempt not found');
      const snapshot = attempt.examSnapshot;
      const live = await deps.examSource.findExam(attempt.examId);
      const policy = live?.releasePolicy ?? snapshot.releasePolicy;
      const showKeys = live?.showAnswerKeys ?? snapshot.showAnswerKeys;
      if (policy === 'never') throw new AppError(ErrorCode.FORBIDDEN, CandidateResultMessages.never);
      const result = attempt.resultId ? await repo.findResult(attempt.resultId) : undefined;
      if (!result) throw new AppError(ErrorCode.NOT_FOUND, CandidateResultMessages.notSubmitted);
      if (policy === 'on-release' && result.status !== 'released')
        throw new AppError(ErrorCode.FORBIDDEN, CandidateResultMessages.notReleased);
      if (result.status === 'pending') throw new AppError(ErrorCode.FORBIDDEN, CandidateResultMessages.pending);
      const planted = await plantedOf(attemptId, snapshot);
      return {
        examTitle: result.examTitle,
        userName: result.userName,
        score: result.score,
        maxScore: result.maxScore,
        percentage: percentageOf(result.score, result.maxScore),
        status: result.status,
        releasedAt: result.releasedAt?.toISOString() ?? null,
        questions: snapshot.questions.map((q, i) => {
          const grade = result.grades[i];
          return {
            title: q.title,
            questionType: q.type,
            answer: answerText(q, grade?.answer),
            points: grade?.points ?? null,
            maxPoints: q.points,
            feedback: grade?.feedback ?? '',
            correctAnswer: showKeys ? answerKeyText(q) : null,
            ...(grade?.tests ? { tests: candidateTests(grade.tests) } : {}),
            ...(planted?.has(i) ? { plantedError: planted.get(i) } : {}),
            // The question as the candidate saw it (the snapshot holds a calculated question's own values).
            content: q.content,
            ...(q.type === 'coding' && q.language ? { language: q.language } : {}),
            ...(q.passageId ? { passageId: q.passageId } : {}),
            ...explainPoints(q, grade, snapshot),
          };
        }),
        ...(planted ? {} : { plantedUnavailable: true }),
        // The passages the attempt was given (its snapshot's), as the review reads them.
        passages: passagesFor(snapshot.passages ?? [], snapshot.questions).map((p) => ({
          id: p.id,
          title: p.title,
          content: p.content,
        })),
      };
    },
  };
}
export type CandidateResultService = ReturnType<typeof createCandidateResultService>;
