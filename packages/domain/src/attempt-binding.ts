import { z } from 'zod';
import { CandidateIdSchema } from './candidate-id.ts';
export { ResumeMessages } from './candidate-messages.ts';

/**
 * What binds an attempt to the person sitting it (docs/product.md#sitting-an-exam): the candidate ID
 * identifies the attempt only after normalising, and resuming needs this browser's resume secret, the
 * resume code shown on the first device, or the examiner's unlock.
 */

// The key that identifies a candidate within an exam is candidateKey in candidate-key.ts (look-alikes folded).

/**
 * Crockford's base32 alphabet (https://www.crockford.com/base32.html): digits and upper-case letters
 * without I, L, O and U, so a code read aloud or copied by hand is not misread.
 */
export const RESUME_CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export { RESUME_CODE_LENGTH, formatResumeCode } from './candidate-text.ts';

/**
 * A typed code as the server compares it: spaces and dashes dropped, upper case, and the letters
 * Crockford's decoding maps (I and L to 1, O to 0) folded in.
 */
export function normaliseResumeCode(input: string): string {
  return input.toUpperCase().replace(/[\s-]/g, '').replace(/[IL]/g, '1').replace(/O/g, '0');
}

/** The field a 403 or 429 of POST /api/attempts names when the resume code is what is missing or wrong. */
export const RESUME_CODE_FIELD = 'resumeCode';

/** POST /api/attempts/unlock (under /api/attempts so every proxy's table already sends it to results-service). */
export const UnlockAttemptSchema = z.object({
  examId: z.string().min(1).max(64),
  studentId: CandidateIdSchema,
});
export type UnlockAttempt = z.infer<typeof UnlockAttemptSchema>;

export const UnlockAttemptResponseSchema = z.object({
  attemptId: z.string(),
  name: z.string(),
  studentId: z.string(),
  /**
   * The one-time unlock code the examiner hands this candidate (typed where the resume code goes): it resumes the
   * attempt, or begins the next one, once, until unlockedUntil. Shown once; a new unlock replaces it.
   */
  unlockCode: z.string(),
  /** Until when the unlock code works. */
  unlockedUntil: z.string(),
});
export type UnlockAttemptResponse = z.infer<typeof UnlockAttemptResponseSchema>;
