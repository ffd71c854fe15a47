import type { StartAttempt } from '@exam/domain/attempt';
import type { AttemptLtiLink } from '@exam/domain/lti-ags';
import { AppError, ErrorCode } from '@exam/domain/errors';
import type { InternalExam } from '@exam/domain/internal';
import { ACCESS_CODE_FIELD } from '@exam/domain/roster';
import type { Deps } from '../../deps.ts';
import type { StartLimiter } from './start-limits.service.ts';

/**
 * Asks exam-service whether this candidate may start a new attempt of the exam (its access: open link,
 * access code or roster; docs/product.md#access) and answers the name to record: the roster's for a
 * roster candidate. A refusal throws 403 naming the field (accessCode) or saying who may start.
 *
 * A candidate an LMS launch sent (`lti`, from a checked grant) is admitted as the launch named them: the LMS
 * vouched for them, on a registration the exam's creator made, and the launch found this exam through their link.
 */
export async function admitCandidate(
  deps: Pick<Deps, 'examAccess'>,
  exam: Pick<InternalExam, 'id' | 'access'>,
  input: Omit<StartAttempt, 'resumeSecret' | 'resumeCode'> & { lti?: AttemptLtiLink },
  limiter: Pick<StartLimiter, 'accessCodes'>,
  ip: string,
): Promise<string> {
  if (input.lti) return input.name;
  // Access codes are guessed here: failures are limited per exam and per client (start-limits.service.ts).
  const guessing = exam.access === 'code' && Boolean(input.accessCode?.trim());
  if (guessing) await limiter.accessCodes.check(exam.id, ip);
  try {
    const { name } = await deps.examAccess.admit(exam.id, {
      studentId: input.studentId,
      name: input.name,
      ...(input.accessCode !== undefined && { accessCode: input.accessCode }),
      ...(input.inviteToken !== undefined && { inviteToken: input.inviteToken }),
    });
    return name;
  } catch (err) {
    const wrongCode =
      err instanceof AppError &&
      err.code === ErrorCode.FORBIDDEN &&
      err.issues?.some((i) => i.path === ACCESS_CODE_FIELD);
    if (guessing && wrongCode) await limiter.accessCodes.fail(exam.id, ip);
    throw err;
  }
}
