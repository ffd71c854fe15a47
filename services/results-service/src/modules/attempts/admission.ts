import type { StartAttempt } from '@exam/domain/attempt';
import type { Deps } from '../../deps.ts';

/**
 * Asks exam-service whether this candidate may start a new attempt of the exam (its access: open link,
 * access code or roster; docs/product.md#access) and answers the name to record: the roster's for a
 * roster candidate. A refusal throws 403 naming the field (accessCode) or saying who may start.
 */
export async function admitCandidate(
  deps: Pick<Deps, 'examAccess'>,
  examId: string,
  input: StartAttempt,
): Promise<string> {
  const { name } = await deps.examAccess.admit(examId, {
    studentId: input.studentId,
    name: input.name,
    ...(input.accessCode !== undefined && { accessCode: input.accessCode }),
    ...(input.inviteToken !== undefined && { inviteToken: input.inviteToken }),
  });
  return name;
}
