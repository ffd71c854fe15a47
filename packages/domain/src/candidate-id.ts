import { z } from 'zod';

export { normaliseCandidateText, stripInvisible } from './candidate-text.ts';
import { normaliseCandidateText } from './candidate-text.ts';

export const CandidateIdMessages = {
  required: 'Candidate ID is required',
  tooLong: 'A candidate ID has at most 100 characters',
  nameRequired: 'Name is required',
} as const;

/**
 * The candidate ID field of every request that names a candidate: normalised before it identifies anything,
 * so an ID of nothing but invisible characters is refused with 400 on the field like an empty one.
 */
export const CandidateIdSchema = z
  .string()
  .max(400, CandidateIdMessages.tooLong)
  .transform(normaliseCandidateText)
  .pipe(z.string().min(1, CandidateIdMessages.required).max(100, CandidateIdMessages.tooLong));

/** A candidate's name as typed: the same cleaning, so two look-alike rows cannot hide a difference. */
export const CandidateNameSchema = z
  .string()
  .max(800, 'A name has at most 200 characters')
  .transform(normaliseCandidateText)
  .pipe(z.string().min(1, CandidateIdMessages.nameRequired).max(200, 'A name has at most 200 characters'));
