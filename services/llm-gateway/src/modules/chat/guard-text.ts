import { createRequire } from 'node:module';

/**
 * How the answer guard reads text: as the candidate sees it rendered, whatever the characters it is written in.
 *
 * - Default-ignorable code points and format characters (Unicode Default_Ignorable_Code_Point and General
 *   Category Cf: zero-width spaces and joiners, the soft hyphen, bidi controls, variation selectors) render as
 *   nothing, so they are dropped: "photo\u200Bsynthesis" is one word.
 * - Compatibility forms fold to their base letters (NFKD, combining marks dropped: fullwidth and mathematical
 *   letters, ligatures, "é"), then lower case.
 * - Confusables fold as in Unicode UTS #39 §4 "Confusable Detection" (the skeleton): each code point maps to
 *   its prototype from the Unicode confusables data (the `unhomoglyph` package ships confusables.txt as a map),
 *   so Cyrillic "о" and Greek "ο" read as Latin "o", "0" as "o" and "1" as "l". Keys are folded the same way, so
 *   a mapping that changes a plain letter ("m" → "rn") changes key and reply alike.
 * - Every other character that is not a letter or digit (spaces, punctuation, Markdown's `*`, `_`, `` ` ``, `~`)
 *   is a separator: where the reader may see a word break. The guard matches keys across separators (see
 *   answer-guard.ts), so `photo**synthesis**`, "p h o t o" and "p-h-o-t-o" are found as well.
 */

const confusables = createRequire(import.meta.url)('unhomoglyph/data.json') as Record<string, string>;

const IGNORABLE = /^[\p{Default_Ignorable_Code_Point}\p{Cf}]$/u;
const MARKS = /\p{M}/gu;
const ALNUM = /^[\p{L}\p{N}]$/u;

/** What a code point reads as: null when it renders as nothing, else its folded characters ('' for a separator). */
export type Folded = { ignorable: true } | { ignorable: false; parts: string[] };

const cache = new Map<string, Folded>();

/** The folded characters of one code point: each a letter or digit, or '' where a separator stands. */
export function foldCodePoint(cp: string): Folded {
  const hit = cache.get(cp);
  if (hit) return hit;
  let folded: Folded;
  if (IGNORABLE.test(cp)) folded = { ignorable: true };
  else {
    const base = cp.normalize('NFKD').replace(MARKS, '').toLowerCase();
    const parts: string[] = [];
    for (const ch of base) {
      for (const out of (confusables[ch] ?? ch).normalize('NFKD').replace(MARKS, '').toLowerCase())
        parts.push(ALNUM.test(out) ? out : '');
    }
    folded = { ignorable: false, parts };
  }
  if (cache.size < 10_000) cache.set(cp, folded);
  return folded;
}

/** The letters and digits of a text, folded and run together: what a key is matched as. */
export function skeletonOf(text: string): string {
  let out = '';
  for (const cp of text) {
    const folded = foldCodePoint(cp);
    if (!folded.ignorable) out += folded.parts.join('');
  }
  return out;
}

/**
 * How many edits (Levenshtein) a key's near forms may differ by: none under 8 letters, one from 8, two from 12.
 * A 6- or 7-letter key has ordinary one-edit neighbours that an explanation uses ("median" and "medians",
 * "medial"); from 8 letters a one-edit neighbour is nearly always the key inflected or misspelled
 * ("hypotheses" for "hypothesis"), and from 12 the Latin and Greek endings differ by two ("mitochondrion" for
 * "mitochondria", "standard errors").
 */
export function editsAllowed(skeleton: string): number {
  return skeleton.length >= 12 ? 2 : skeleton.length >= 8 ? 1 : 0;
}

/** A near form keeps a key's first letters: inflections and slips change endings and insides, not the start. */
export const NEAR_FORM_STEM = 4;

let rowA = new Int32Array(128);
let rowB = new Int32Array(128);

/**
 * The Levenshtein distance of a from b, or of a from b's closest prefix when `prefix` is set, if it is at most
 * max (else max + 1). Only the diagonal band of width 2·max + 1 is computed (Ukkonen's cut-off), in two rows
 * reused from call to call (the guard asks this for every word of every streamed reply).
 */
export function distanceWithin(a: string, b: string, max: number, prefix = false): number {
  const over = max + 1;
  if (!prefix && Math.abs(a.length - b.length) > max) return over;
  if (rowA.length <= b.length) {
    rowA = new Int32Array(b.length * 2 + 2);
    rowB = new Int32Array(b.length * 2 + 2);
  }
  let prev = rowA;
  let row = rowB;
  for (let j = 0; j <= b.length; j++) prev[j] = j <= max ? j : over;
  for (let i = 1; i <= a.length; i++) {
    row.fill(over, 0, b.length + 1);
    row[0] = i <= max ? i : over;
    let best = row[0]!;
    const to = Math.min(b.length, i + max);
    for (let j = Math.max(1, i - max); j <= to; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      const value = Math.min(over, prev[j - 1]! + cost, prev[j]! + 1, row[j - 1]! + 1);
      row[j] = value;
      if (value < best) best = value;
    }
    if (best > max) return over;
    [prev, row] = [row, prev];
  }
  if (!prefix) return Math.min(over, prev[b.length]!);
  let best = over;
  for (let j = 0; j <= b.length; j++) best = Math.min(best, prev[j]!);
  return best;
}
