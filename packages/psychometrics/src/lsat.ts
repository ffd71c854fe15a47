/**
 * Section 6 of the Law School Admission Test: 5 items, 1000 examinees (Bock & Lieberman 1970,
 * Psychometrika 35(2), 179–197), the classic test data set of IRT software (R's ltm::LSAT, mirt::LSAT6).
 * Each row is a response pattern over items 1–5 and how many examinees gave it; the two patterns nobody
 * gave (0 1 0 1 0 and 0 1 1 0 0) are left out. The counts sum to 1000 and give ltm's item proportions
 * correct 0.924, 0.709, 0.553, 0.763, 0.870.
 */
export const LSAT_PATTERNS: readonly (readonly [pattern: string, count: number])[] = [
  ['00000', 3],
  ['00001', 6],
  ['00010', 2],
  ['00011', 11],
  ['00100', 1],
  ['00101', 1],
  ['00110', 3],
  ['00111', 4],
  ['01000', 1],
  ['01001', 8],
  ['01011', 16],
  ['01101', 3],
  ['01110', 2],
  ['01111', 15],
  ['10000', 10],
  ['10001', 29],
  ['10010', 14],
  ['10011', 81],
  ['10100', 3],
  ['10101', 28],
  ['10110', 15],
  ['10111', 80],
  ['11000', 16],
  ['11001', 56],
  ['11010', 21],
  ['11011', 173],
  ['11100', 11],
  ['11101', 61],
  ['11110', 28],
  ['11111', 298],
];

/** One row of marks per examinee. */
export function lsatMarks(): (0 | 1)[][] {
  return LSAT_PATTERNS.flatMap(([pattern, count]) =>
    Array.from({ length: count }, () => [...pattern].map((c) => (c === '1' ? 1 : 0))),
  );
}
