import type { StartAttempt } from '@exam/domain/attempt';
import { startAttempt } from '../../../lib/exam-api.ts';
import { findResume, saveResume } from '../../../lib/resume-store.ts';
import { getTakerDb, saveStoredAttempt } from '../../../lib/taker-db.ts';

/** What a start sends: the candidate's details, a typed resume code, and the exam's access code, invitation or grant. */
export type StartInput = { examId: string; name: string; studentId: string; resumeCode?: string | undefined } & Pick<
  StartAttempt,
  'accessCode' | 'inviteToken' | 'ltiGrant'
>;

/**
 * Starts (or resumes) the attempt and keeps it in this browser: the resume secret first, so whatever happens next
 * this browser can resume silently, then the attempt in IndexedDB for the exam page.
 */
export async function startKeptAttempt(
  input: StartInput,
  options: { fullScreenRequested: boolean; lastAttempt?: boolean | undefined },
) {
  const kept = findResume(input.examId, input.studentId);
  const attempt = await startAttempt({ ...input, resumeSecret: kept?.secret });
  saveResume(input.examId, input.studentId, {
    attemptId: attempt.attemptId,
    secret: attempt.resumeSecret,
    code: attempt.resumeCode ?? input.resumeCode?.trim().toUpperCase(),
    lastAttempt: options.lastAttempt,
  });
  await saveStoredAttempt(await getTakerDb(), {
    examId: input.examId,
    attemptId: attempt.attemptId,
    token: attempt.token,
    name: input.name,
    studentId: input.studentId,
    startedAt: attempt.startedAt,
    deadline: attempt.deadline,
    fullScreenRequested: options.fullScreenRequested,
  });
  return attempt;
}
