import { readAttemptState, readSectionState } from '@exam/domain/candidate-views';
import type { PublicExam } from '@exam/domain/public-exam';
import type { AdvanceSection, SectionState } from '@exam/domain/sections';
import { api } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { getAttemptExam } from '../../../lib/exam-api.ts';

type AttemptCredentials = { attemptId: string; token: string };

/** The refusals of an answer write outside the candidate's current sections (results-service, 409). */
export const SectionRefusalCode = {
  locked: 'SECTION_LOCKED',
  notReached: 'SECTION_NOT_REACHED',
} as const;
const REFUSAL_CODES: readonly string[] = Object.values(SectionRefusalCode);
export const isSectionRefusal = (code: string) => REFUSAL_CODES.includes(code);

/** POST …/sections/advance: leave section `from` (a retry after the move answers the state as it is). */
export async function advanceSection(attempt: AttemptCredentials, from: number): Promise<SectionState> {
  const body: AdvanceSection = { from };
  return readSectionState(
    await apiRequest(api.advanceSection(attempt.attemptId), { method: 'POST', token: attempt.token, body }),
  );
}

/**
 * Where the attempt is now, with the questions it has reached: the attempt's state and its view of the exam,
 * read again after a move (the server hands a section's questions only once the candidate is in it).
 */
export async function readSectionProgress(
  attempt: AttemptCredentials,
): Promise<{ section: SectionState | null; exam: PublicExam }> {
  const [state, exam] = await Promise.all([
    apiRequest(api.attempt(attempt.attemptId), { token: attempt.token }).then(readAttemptState),
    getAttemptExam(attempt),
  ]);
  return { section: state.section ?? null, exam };
}
