import { AttemptMessages, type StartAttempt } from '@exam/domain/attempt';
import { candidateKey } from '@exam/domain/candidate-key';
import { RESUME_CODE_FIELD, ResumeMessages, type UnlockAttemptResponse } from '@exam/domain/attempt-binding';
import { attemptDeadline, WindowMessages, windowState } from '@exam/domain/cohort';
import { AppError, ErrorCode } from '@exam/domain/errors';
import type { InternalExam } from '@exam/domain/internal';
import type { AttemptLtiLink } from '@exam/domain/lti-ags';
import type { Deps } from '../../deps.ts';
import { toSnapshot } from '../../grading/snapshot.ts';
import { candidateRules, toOverride } from '../cohort/cohort-rules.ts';
import type { CohortRepository } from '../cohort/cohort.repository.ts';
import { admitCandidate } from './admission.ts';
import type { AttemptRow, AttemptsRepository } from './attempts.repository.ts';
import { hashCode, hashSecret, newResumeCode, newResumeSecret, sameHash } from './resume-credentials.ts';
import { RetryLaterError } from './retry-later.ts';
import type { LtiGrants } from './lti-grant.ts';
import type { StartLimiter } from './start-limits.service.ts';

export type StartOutcome = {
  attempt: AttemptRow;
  resumed: boolean;
  /** Issued to this device: on the first start, and on a resume by code or unlock. */
  resumeSecret?: string;
  /** Issued on the first start and after an unlock (which replaces the old code). */
  resumeCode?: string;
};

const codeIssue = (message: string) => [{ path: RESUME_CODE_FIELD, message }];

/**
 * Starting and resuming an attempt (docs/product.md#sitting-an-exam). The candidate ID, normalised, names
 * the attempt; who may resume it is decided by the browser's resume secret, the resume code or the
 * examiner's unlock. A caller without one learns nothing of the attempt but that the ID is taken.
 */
export function createStartService(
  repo: AttemptsRepository,
  deps: Pick<Deps, 'clock' | 'ids' | 'examSource' | 'examAccess'>,
  limiter: StartLimiter,
  opts: { codeKey: string; codeFreeTries: number; unlockMinutes: number },
  cohort: CohortRepository,
  ltiGrants: LtiGrants,
) {
  const holdsSecret = (attempt: AttemptRow, secret: string | undefined) => {
    if (!secret) return false;
    const hash = hashSecret(secret);
    return attempt.resumeSecretHashes.some((stored) => sameHash(stored, hash));
  };

  async function liveExam(examId: string) {
    const exam = await deps.examSource.findExam(examId);
    if (!exam || exam.isDraft) throw new AppError(ErrorCode.NOT_FOUND, AttemptMessages.notFound);
    if (!exam.isLive) throw new AppError(ErrorCode.EXAM_OFFLINE, AttemptMessages.offline);
    return exam;
  }

  /** Another device: the examiner's unlock if one is waiting, else a right code within the try limit. */
  async function resumeElsewhere(attempt: AttemptRow, code: string | undefined): Promise<StartOutcome> {
    const now = deps.clock.now();
    const secret = newResumeSecret();
    const freshCode = newResumeCode();
    if (await repo.consumeUnlock(attempt.id, now, hashSecret(secret), hashCode(opts.codeKey, attempt.id, freshCode))) {
      return { attempt, resumed: true, resumeSecret: secret, resumeCode: freshCode };
    }
    if (!code?.trim())
      throw new AppError(ErrorCode.FORBIDDEN, ResumeMessages.required, codeIssue(ResumeMessages.required));
    const claim = await repo.claimCodeTry(attempt.id, now, opts.codeFreeTries);
    if (!claim.claimed) {
      throw new RetryLaterError(claim.blockedUntil.getTime() - now.getTime(), ResumeMessages.tooMany, [
        { path: RESUME_CODE_FIELD, message: 'Too many wrong resume codes' },
      ]);
    }
    // Attempts started before resume codes existed have none: only the examiner's unlock resumes them.
    const right =
      attempt.resumeCodeHash !== null && sameHash(attempt.resumeCodeHash, hashCode(opts.codeKey, attempt.id, code));
    if (!right) throw new AppError(ErrorCode.FORBIDDEN, ResumeMessages.wrong, codeIssue(ResumeMessages.wrong));
    await repo.acceptCode(attempt.id, hashSecret(secret));
    return { attempt, resumed: true, resumeSecret: secret };
  }

  /**
   * A new attempt, inside the candidate's window (409 outside it, with the instant it opens or closed in the
   * issue), with their own deadline: their duration from now, never after their window closes.
   */
  async function startNew(
    exam: InternalExam,
    input: StartAttempt & { lti?: AttemptLtiLink },
    key: string,
    attemptNo: number,
  ): Promise<Required<StartOutcome> | { attempt: AttemptRow }> {
    const now = deps.clock.now();
    const override = await cohort.findOverride(exam.id, key);
    const rules = candidateRules(exam, override ? toOverride(override) : null);
    const state = windowState(rules.window, now);
    if (state === 'not-yet-open' && rules.window.opensAt) {
      const opensAt = new Date(rules.window.opensAt).toISOString();
      throw new AppError(ErrorCode.CONFLICT, WindowMessages.notYetOpen(opensAt), [
        { path: 'opensAt', message: opensAt },
      ]);
    }
    if (state === 'closed' && rules.window.closesAt) {
      const closesAt = new Date(rules.window.closesAt).toISOString();
      throw new AppError(ErrorCode.CONFLICT, WindowMessages.closed, [{ path: 'closesAt', message: closesAt }]);
    }
    // Access code or roster (exam-service decides); a roster candidate is recorded under the roster's name.
    const name = await admitCandidate(deps, exam.id, input);
    await limiter.takeExam(exam.id);
    await cohort.rememberKeepGrade(exam.id, exam.keepGrade, now);
    const id = deps.ids.next();
    // The attempt id seeds the candidate's arrangement (pool draws, question and option order).
    const snapshot = toSnapshot(exam, id);
    const secret = newResumeSecret();
    const code = newResumeCode();
    const inserted = await repo.insertOrFind({
      id,
      examId: exam.id,
      ownerId: exam.ownerId,
      name,
      studentId: input.studentId,
      candidateKey: key,
      attemptNo,
      resumeSecretHashes: [hashSecret(secret)],
      resumeCodeHash: hashCode(opts.codeKey, id, code),
      startedAt: now,
      deadline: attemptDeadline(now, rules.durationMinutes, rules.window.closesAt),
      examSnapshot: snapshot,
      questionCount: snapshot.questions.length,
      lti: input.lti ?? null,
    });
    if (inserted.created) return { attempt: inserted.attempt, resumed: false, resumeSecret: secret, resumeCode: code };
    return { attempt: inserted.attempt };
  }

  return {
    async start(request: StartAttempt, client: { ip: string }): Promise<StartOutcome> {
      // An LMS launch's grant fixes who the candidate is: the browser's name and ID give way to it.
      const input = await ltiGrants.resolve(request);
      const key = candidateKey(input.studentId);
      // The candidate's newest attempt: the one a resume continues, or the one a further attempt follows.
      let attempt = await repo.findByCandidate(input.examId, key);
      let silent = attempt !== undefined && holdsSecret(attempt, input.resumeSecret);
      if (!silent) await limiter.takeClient(client.ip);
      const exam = await liveExam(input.examId);
      if (attempt?.submittedAt) {
        // A further attempt needs the same proof as a resume, so nobody else spends the candidate's attempts.
        if (!silent) await resumeElsewhere(attempt, input.resumeCode);
        const override = await cohort.findOverride(exam.id, key);
        if (candidateRules(exam, override ? toOverride(override) : null).attemptsAllowed <= attempt.attemptNo) {
          throw new AppError(ErrorCode.ATTEMPT_CLOSED, WindowMessages.noAttemptsLeft);
        }
      }
      if (!attempt || attempt.submittedAt) {
        const attemptNo = (attempt?.attemptNo ?? 0) + 1;
        const created = await startNew(exam, input, key, attemptNo);
        if ('resumeCode' in created) return created;
        // Someone with the same candidate ID started a moment earlier: theirs is the attempt, bound to them.
        attempt = created.attempt;
        silent = holdsSecret(attempt, input.resumeSecret);
      }
      const outcome = silent ? { attempt, resumed: true } : await resumeElsewhere(attempt, input.resumeCode);
      if (attempt.submittedAt) throw new AppError(ErrorCode.ATTEMPT_CLOSED, AttemptMessages.submitted);
      return outcome;
    },

    /**
     * The examiner lets the next start of this candidate resume without a code, once, for a few minutes;
     * after a submitted attempt, that start may begin the next attempt when the exam allows more.
     */
    async unlock(examId: string, studentId: string, ownerId: string): Promise<UnlockAttemptResponse> {
      const until = new Date(deps.clock.now().getTime() + opts.unlockMinutes * 60_000);
      const unlocked = await repo.unlock({ examId, candidateKey: candidateKey(studentId), ownerId, until });
      if (!unlocked) {
        throw new AppError(ErrorCode.NOT_FOUND, 'No attempt with this candidate ID in your exam');
      }
      return { ...unlocked, unlockedUntil: until.toISOString() };
    },

    prune: () => limiter.prune(),
  };
}
export type StartService = ReturnType<typeof createStartService>;
