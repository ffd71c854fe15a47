import { AttemptMessages, type StartAttempt } from '@exam/domain/attempt';
import { candidateKey } from '@exam/domain/candidate-key';
import { RESUME_CODE_FIELD, ResumeMessages, type UnlockAttemptResponse } from '@exam/domain/attempt-binding';
import { attemptDeadline, WindowMessages, windowState } from '@exam/domain/cohort';
import { AppError, ErrorCode } from '@exam/domain/errors';
import type { InternalExam } from '@exam/domain/internal';
import type { AttemptLtiLink } from '@exam/domain/lti-ags';
import { recordAudit } from '../../access/audit-log.ts';
import { auditActorOf } from '../../access/exam-ownership.ts';
import type { Deps } from '../../deps.ts';
import { toSnapshot } from '../../scoring/snapshot.ts';
import { candidateRules, toOverride } from '../accommodations/cohort-rules.ts';
import type { CohortRepository } from '../accommodations/cohort.repository.ts';
import { admitCandidate } from './admission.ts';
import type { AttemptRow, AttemptsRepository } from './attempts.repository.ts';
import { hashCode, hashSecret, newResumeCode, newResumeSecret, sameHash } from './resume-credentials.ts';
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
  deps: Pick<Deps, 'clock' | 'ids' | 'examSource' | 'examAccess' | 'database'>,
  limiter: StartLimiter,
  opts: { codeKey: string; unlockMinutes: number },
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

  const unlockHashOf = (attempt: Pick<AttemptRow, 'examId' | 'candidateKey'>, code: string) =>
    hashCode(opts.codeKey, `unlock:${attempt.examId}:${attempt.candidateKey}`, code);

  /**
   * Another device: the examiner's one-time unlock code, or the resume code. Nothing resumes on the candidate
   * ID alone, so whoever polls a victim's ID gains nothing from an unlock (docs/product.md#sitting-an-exam).
   *
   * Wrong codes are limited per client address, never per attempt: an attempt-wide lock is what a storm of
   * wrong codes from elsewhere used to turn against the holder of the right code. A client past its limit gets
   * 429 before its code is compared; every other client's right code still resumes. The attempt counts its
   * wrong codes (resumeFailures) for the live view, so an examiner sees a storm and can hand out an unlock.
   * The bound that matters: the code has 40 bits; at RESUME_CODE_FAILURES_PER_CLIENT (10) per 10 minutes an
   * address (an IPv6 /64) gets 60 guesses an hour, so 10,000 addresses over a 3-hour exam reach 1.8 million
   * guesses, a chance of 1.8e6 / 2^40 ≈ 1.6e-6 of finding one attempt's code.
   */
  async function resumeElsewhere(attempt: AttemptRow, code: string | undefined, ip: string): Promise<StartOutcome> {
    if (!code?.trim())
      throw new AppError(ErrorCode.FORBIDDEN, ResumeMessages.required, codeIssue(ResumeMessages.required));
    await limiter.resumeCodes.check(ip);
    const now = deps.clock.now();
    const secret = newResumeSecret();
    if (attempt.unlockCodeHash !== null && sameHash(attempt.unlockCodeHash, unlockHashOf(attempt, code))) {
      const freshCode = newResumeCode();
      const fresh = hashCode(opts.codeKey, attempt.id, freshCode);
      if (await repo.consumeUnlock(attempt.id, now, attempt.unlockCodeHash, hashSecret(secret), fresh)) {
        return { attempt, resumed: true, resumeSecret: secret, resumeCode: freshCode };
      }
    }
    // Attempts started before resume codes existed have none: only the examiner's unlock resumes them.
    const right =
      attempt.resumeCodeHash !== null && sameHash(attempt.resumeCodeHash, hashCode(opts.codeKey, attempt.id, code));
    if (!right) {
      await limiter.resumeCodes.fail(ip);
      await repo.countWrongCode(attempt.id);
      throw new AppError(ErrorCode.FORBIDDEN, ResumeMessages.wrong, codeIssue(ResumeMessages.wrong));
    }
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
    ip: string,
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
    const name = await admitCandidate(deps, exam, input, limiter, ip);
    await limiter.takeExam(exam, ip);
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
      // The first section (sections.ts) begins with the attempt; an undivided exam stays in "section" 0.
      sectionIndex: 0,
      sectionStartedAt: now,
      deadline: attemptDeadline(now, rules.durationMinutes, rules.window.closesAt),
      examSnapshot: snapshot,
      questionCount: snapshot.questions.length,
      lti: input.lti ?? null,
      practice: exam.practice,
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
        if (!silent) await resumeElsewhere(attempt, input.resumeCode, client.ip);
        const override = await cohort.findOverride(exam.id, key);
        // A practice exam may be sat any number of times (@exam/domain/practice); every other rule still applies.
        if (
          !exam.practice &&
          candidateRules(exam, override ? toOverride(override) : null).attemptsAllowed <= attempt.attemptNo
        ) {
          throw new AppError(ErrorCode.ATTEMPT_CLOSED, WindowMessages.noAttemptsLeft);
        }
      }
      if (!attempt || attempt.submittedAt) {
        const attemptNo = (attempt?.attemptNo ?? 0) + 1;
        const created = await startNew(exam, input, key, attemptNo, client.ip);
        if ('resumeCode' in created) return created;
        // Someone with the same candidate ID started a moment earlier: theirs is the attempt, bound to them.
        attempt = created.attempt;
        silent = holdsSecret(attempt, input.resumeSecret);
      }
      const outcome = silent ? { attempt, resumed: true } : await resumeElsewhere(attempt, input.resumeCode, client.ip);
      if (attempt.submittedAt) throw new AppError(ErrorCode.ATTEMPT_CLOSED, AttemptMessages.submitted);
      return outcome;
    },

    /**
     * The examiner's unlock: a one-time code, shown to the examiner (the live view) to hand to this candidate,
     * that resumes their open attempt on another device, or begins the next one after a submitted attempt when
     * the exam allows more, once, for RESUME_UNLOCK_MINUTES. The start that uses it gets a new resume code.
     */
    async unlock(
      examId: string,
      studentId: string,
      examiner: { sub: string; email: string; actorId?: string },
    ): Promise<UnlockAttemptResponse> {
      const ownerId = examiner.sub;
      const now = deps.clock.now();
      const until = new Date(now.getTime() + opts.unlockMinutes * 60_000);
      const key = candidateKey(studentId);
      const unlockCode = newResumeCode();
      const unlocked = await repo.unlock({
        examId,
        candidateKey: key,
        ownerId,
        until,
        unlockHash: unlockHashOf({ examId, candidateKey: key }, unlockCode),
      });
      if (!unlocked) {
        throw new AppError(ErrorCode.NOT_FOUND, 'No attempt with this candidate ID in your exam');
      }
      await recordAudit(deps.database.db, auditActorOf(examiner), now, [
        { examId, action: 'attempt.unlocked', subject: unlocked.attemptId, detail: { studentId: unlocked.studentId } },
      ]);
      return { ...unlocked, unlockCode, unlockedUntil: until.toISOString() };
    },

    prune: () => limiter.prune(),
  };
}
export type StartService = ReturnType<typeof createStartService>;
