import type { StartAttempt } from '@exam/domain/attempt';
import type { AttemptLtiLink } from '@exam/domain/lti-ags';
import type { Deps } from '../../deps.ts';

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
  examId: string,
  input: Omit<StartAttempt, 'resumeSecret' | 'resumeCode'> & { lti?: AttemptLtiLink },
): Promise<string> {
  if (input.lti) return input.name;
  const { name } = await deps.examAccess.admit(examId, {
    studentId: input.studentId,
    name: input.name,
    ...(input.accessCode !== undefined && { accessCode: input.accessCode }),
    ...(input.inviteToken !== undefined && { inviteToken: input.inviteToken }),
  });
  return name;
}
