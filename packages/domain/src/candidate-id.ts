import { z } from 'zod';

/**
 * Characters that change nothing a reader sees but everything a comparison does: Unicode's default-ignorable
 * code points (zero-width space and joiners, variation selectors, the Hangul fillers, soft hyphen; UAX #44
 * DerivedCoreProperties "Default_Ignorable_Code_Point"), every format character (general category Cf: bidi
 * controls such as U+202E, U+2066–U+2069, the word joiner, the BOM) and control characters (Cc).
 * https://www.unicode.org/reports/tr44/#Default_Ignorable_Code_Point
 */
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Cf}\p{Cc}]/gu;

/** NFKC (full-width and compatibility forms become plain letters, https://unicode.org/reports/tr15/) without invisibles. */
export function stripInvisible(text: string): string {
  return text.normalize('NFKC').replace(INVISIBLE, '');
}

/**
 * A candidate ID or name as it is stored and shown: NFKC, without invisible characters, trimmed, runs of
 * spaces as one. Two IDs that differ only in what cannot be seen are stored alike, and a row in the results
 * shows what was compared.
 */
export function normaliseCandidateText(text: string): string {
  // Line breaks and tabs separate words: a space, before the control characters among them are stripped.
  const spaced = text.normalize('NFKC').replace(/[\t\n\v\f\r\u0085\u2028\u2029]/gu, ' ');
  return stripInvisible(spaced)
    .replace(/\p{Zs}+/gu, ' ')
    .trim();
}

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
