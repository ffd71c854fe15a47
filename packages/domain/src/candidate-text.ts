/**
 * Candidate text as it is compared and shown, without the schemas of candidate-id.ts and attempt-binding.ts (which
 * re-export these): the candidate's page keeps its resume record and shows the resume code with these and no zod
 * (bench/README.md, "Page weight").
 */

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

export const RESUME_CODE_LENGTH = 8;

/** How the code is shown: two groups of four, easier to copy. */
export function formatResumeCode(code: string): string {
  return code.length === RESUME_CODE_LENGTH ? `${code.slice(0, 4)}-${code.slice(4)}` : code;
}
