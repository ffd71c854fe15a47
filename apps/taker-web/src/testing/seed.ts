import type { PublicExam } from '@exam/domain/public-exam';
import { getTakerDb, saveStoredAttempt, type StoredAttempt } from '../lib/taker-db.ts';

/** Puts an attempt in IndexedDB as the credentials page would have. */
export async function seedAttempt(
  exam: PublicExam,
  attemptId: string,
  overrides: Partial<StoredAttempt> = {},
): Promise<StoredAttempt> {
  const attempt: StoredAttempt = {
    examId: exam.id,
    attemptId,
    token: 'attempt-token',
    name: 'Ada Lovelace',
    studentId: 'S-1',
    startedAt: new Date().toISOString(),
    deadline: null,
    fullScreenRequested: false,
    ...overrides,
  };
  await saveStoredAttempt(await getTakerDb(), attempt);
  return attempt;
}
