import unhomoglyph from 'unhomoglyph';
import { normaliseCandidateText } from './candidate-id.ts';

/**
 * Every character outside ASCII, each on its own: ASCII letters and digits are left as they are, so the keys of
 * plain IDs ("S-101", "ana.lopez") stay what they were before folding existed and stored rows keep matching.
 */
const NON_ASCII = /[^\p{ASCII}]/gu;
const fold = (text: string) => text.replace(NON_ASCII, (ch) => unhomoglyph(ch));

/**
 * The key that identifies a candidate within an exam (attempts, rosters, accommodations): the ID normalised
 * (normaliseCandidateText: NFKC, invisibles removed, spaces collapsed), then folded towards a UTS #39 skeleton
 * (https://www.unicode.org/reports/tr39/#Confusable_Detection) with the Unicode consortium's confusables.txt
 * as packaged by `unhomoglyph` (Cyrillic "а", Greek "ο", mathematical "𝐒" become Latin "a", "o", "S"), then
 * lower-cased and folded again (so a capital whose small form is the look-alike folds too).
 *
 * Two differences from the full skeleton, both on purpose: ASCII characters are not mapped (confusables.txt maps
 * "0" to "O" and "I" to "l", which would change the key of every existing ID), and case is folded (IDs were
 * always compared case-insensitively). Kept out of attempt-binding.ts because the mapping table weighs 100 kB,
 * which no browser bundle needs.
 */
export function candidateKey(studentId: string): string {
  return fold(fold(normaliseCandidateText(studentId)).toLowerCase())
    .normalize('NFKC')
    .toLowerCase();
}
