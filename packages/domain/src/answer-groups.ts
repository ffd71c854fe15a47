import { hashSeed } from './arrangement.ts';
import { tokenize } from './code-tokens.ts';
import type { CodingLanguage } from './question.ts';
import { normalizeText } from './grading.ts';

/**
 * Answer groups for grading by question: one mark covers every answer of a group.
 *
 * 1. Answers equal after the question's own normalisation (normalizeText, the one keys are matched with:
 *    trimmed, inner whitespace collapsed, lower-cased unless the question is case-sensitive) are one form.
 * 2. Near-identical forms are merged when they differ by typing slips only. The measure is the optimal string
 *    alignment distance (Levenshtein 1966 with Damerau's 1964 adjacent transposition counted as one edit):
 *    Damerau, "A technique for computer detection and correction of spelling errors", CACM 7(3), found about
 *    80% of misspellings to be one insertion, deletion, substitution or transposition. Short answers are often
 *    one or two words, where word shingles (Broder 1997) have nothing to compare, so the measure works on
 *    characters. Two forms merge when
 *    - the distance is at most one edit per CHARACTERS_PER_EDIT characters of the longer form, so a form of
 *      fewer than 8 characters ("Paris", "42") only ever groups with an identical one;
 *    - their digits are identical: "1024" and "1025" are different answers, not a typo of each other;
 *    - both are at most MAX_FUZZY_LENGTH characters: longer texts group only when identical (near-identical
 *      essays are the similarity report's business, not a shared mark).
 * Forms are taken most frequent first and each joins the first group whose representative is close enough, else
 * starts a group (leader clustering, Hartigan 1975, "Clustering Algorithms", ch. 3). Comparing with
 * representatives only, never member to member, keeps a chain of small slips from drifting to a different
 * answer, and makes the most common spelling the representative.
 */

/** One allowed edit per this many characters of the longer form. */
export const CHARACTERS_PER_EDIT = 8;
/** Forms longer than this (after normalisation) are grouped only with identical ones. */
export const MAX_FUZZY_LENGTH = 200;

export interface AnswerToGroup {
  resultId: string;
  answer: string;
}

export interface AnswerGroup {
  /** A hash of the representative's normalised form: the same answers give the same id in every run. */
  groupId: string;
  /** Sorted. */
  resultIds: string[];
  /** The representative answer as a candidate typed it (its most frequent spelling, trimmed). */
  answer: string;
  /** How many different normalised forms the group holds: 1 means every member is identical. */
  forms: number;
  /** The group of empty (blank) answers. */
  empty: boolean;
}

interface Form {
  text: string;
  digits: string;
  histogram: Int32Array;
  members: AnswerToGroup[];
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Optimal string alignment distance if it is at most `limit`, else limit + 1. Only the diagonal band
 * |i − j| ≤ limit is computed (Ukkonen 1985, "Algorithms for approximate string matching", Inf. Control 64),
 * O(limit · length), and it stops as soon as a whole row exceeds the limit.
 */
export function boundedEditDistance(a: string, b: string, limit: number): number {
  const far = limit + 1;
  if (Math.abs(a.length - b.length) > limit) return far;
  if (limit === 0) return a === b ? 0 : 1;
  const width = b.length + 1;
  // Rows i − 2, i − 1 and i; each row writes every cell the next two rows read (its band and one cell either side).
  let before = new Int32Array(width);
  let previous = new Int32Array(width);
  let current = new Int32Array(width);
  for (let j = 0; j <= Math.min(b.length, limit); j++) previous[j] = j;
  if (limit + 1 < width) previous[limit + 1] = far;
  for (let i = 1; i <= a.length; i++) {
    const from = Math.max(1, i - limit);
    const to = Math.min(b.length, i + limit);
    current[0] = i <= limit ? i : far;
    current[from - 1] = from === 1 ? current[0]! : far;
    if (to + 1 < width) current[to + 1] = far;
    let rowMin = from === 1 ? current[0]! : far;
    for (let j = from; j <= to; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      current[j] = Math.min(d, far);
      if (d < rowMin) rowMin = d;
    }
    // A transposition skips a row, but only from a cell whose neighbour in the skipped row is as small.
    if (rowMin > limit) return far;
    [before, previous, current] = [previous, current, before];
  }
  return previous[b.length]!;
}

/** Letter counts in 64 buckets: an edit changes their L1 distance by at most 2, a cheap lower bound. */
function histogram(text: string): Int32Array {
  const counts = new Int32Array(64);
  for (let i = 0; i < text.length; i++) counts[text.charCodeAt(i) & 63]!++;
  return counts;
}

function histogramBound(a: Int32Array, b: Int32Array): number {
  let l1 = 0;
  for (let i = 0; i < 64; i++) l1 += Math.abs(a[i]! - b[i]!);
  return Math.ceil(l1 / 2);
}

function isNearIdentical(a: Form, b: Form): boolean {
  if (a.digits !== b.digits) return false;
  const longer = Math.max(a.text.length, b.text.length);
  if (longer > MAX_FUZZY_LENGTH) return false;
  const limit = Math.floor(longer / CHARACTERS_PER_EDIT);
  if (limit === 0 || Math.abs(a.text.length - b.text.length) > limit) return false;
  return histogramBound(a.histogram, b.histogram) <= limit && boundedEditDistance(a.text, b.text, limit) <= limit;
}

const digitsOf = (text: string) => (text.match(/\d+/g) ?? []).join(' ');

/** The most frequent trimmed spelling among members, the first in code-unit order on a tie. */
function representativeAnswer(members: readonly AnswerToGroup[]): string {
  const counts = new Map<string, number>();
  for (const { answer } of members) counts.set(answer.trim(), (counts.get(answer.trim()) ?? 0) + 1);
  return [...counts].sort((x, y) => y[1] - x[1] || compareText(x[0], y[0]))[0]![0];
}

/**
 * The groups of one question's answers, the largest first (then by representative text), each with its members'
 * result ids sorted. Independent of the input's order. Throws RangeError on a repeated result id. `exact` groups
 * identical normalised forms only (step 1), never near-identical ones.
 */
export function groupAnswers(
  answers: readonly AnswerToGroup[],
  caseSensitive = false,
  opts: { exact?: boolean } = {},
): AnswerGroup[] {
  const forms = new Map<string, Form>();
  const seen = new Set<string>();
  for (const item of answers) {
    if (seen.has(item.resultId)) throw new RangeError(`result ${item.resultId} appears twice`);
    seen.add(item.resultId);
    const text = normalizeText(item.answer, caseSensitive);
    let form = forms.get(text);
    if (!form) forms.set(text, (form = { text, digits: digitsOf(text), histogram: histogram(text), members: [] }));
    form.members.push(item);
  }
  const ordered = [...forms.values()].sort(
    (x, y) => y.members.length - x.members.length || compareText(x.text, y.text),
  );
  const clusters: Form[][] = [];
  for (const form of ordered) {
    // Exact: answers read from a structure (a chosen order, pairs, gaps), where one character apart is another choice.
    const home =
      opts.exact || form.text === ''
        ? undefined
        : clusters.find((c) => c[0]!.text !== '' && isNearIdentical(c[0]!, form));
    if (home) home.push(form);
    else clusters.push([form]);
  }
  const groups = clusters.map((cluster) => {
    const leader = cluster[0]!;
    const members = cluster.flatMap((f) => f.members);
    return {
      text: leader.text,
      group: {
        groupId: '',
        resultIds: members.map((m) => m.resultId).sort(compareText),
        answer: representativeAnswer(leader.members),
        forms: cluster.length,
        empty: leader.text === '',
      },
    };
  });
  groups.sort((x, y) => y.group.resultIds.length - x.group.resultIds.length || compareText(x.text, y.text));
  // Ids are a hash of the representative's form; a collision (about 1 in 4 billion per pair) gets a suffix in
  // this fixed order, so ids stay unique and stable.
  const used = new Set<string>();
  for (const { text, group } of groups) {
    const base = `g${hashSeed(text).toString(16).padStart(8, '0')}`;
    let id = base;
    for (let n = 2; used.has(id); n++) id = `${base}-${n}`;
    used.add(id);
    group.groupId = id;
  }
  return groups.map((g) => g.group);
}

/**
 * Answer groups of a coding question: answers whose programs are the same token for token (code-tokens.ts with
 * `literal`: comments and layout vanish, names, numbers and strings stay) form one group. Nothing looser: the
 * similarity fingerprints (similarity.ts) erase names and literals, so `total + 1` and `count - 1` look alike to
 * them, which is right for finding copies and wrong for sharing a mark; a program that differs in one name may
 * call a different function. Blank answers form the empty group. The groups come largest first, with ids that
 * hash the shared token stream, so the same answers give the same ids in every run.
 */
export function groupCodeAnswers(answers: readonly AnswerToGroup[], language: CodingLanguage): AnswerGroup[] {
  const byProgram = new Map<string, AnswerToGroup[]>();
  const seen = new Set<string>();
  for (const item of answers) {
    if (seen.has(item.resultId)) throw new RangeError(`result ${item.resultId} appears twice`);
    seen.add(item.resultId);
    const program = tokenize(item.answer, language, { literal: true }).join('\u0000');
    byProgram.set(program, [...(byProgram.get(program) ?? []), item]);
  }
  const groups = [...byProgram]
    .map(([program, members]) => ({
      program,
      group: {
        groupId: '',
        resultIds: members.map((m) => m.resultId).sort(compareText),
        answer: representativeAnswer(members),
        forms: new Set(members.map((m) => m.answer.trim())).size,
        empty: program === '',
      },
    }))
    .sort((x, y) => y.group.resultIds.length - x.group.resultIds.length || compareText(x.program, y.program));
  const used = new Set<string>();
  for (const { program, group } of groups) {
    const base = `c${hashSeed(program).toString(16).padStart(8, '0')}`;
    let id = base;
    for (let n = 2; used.has(id); n++) id = `${base}-${n}`;
    used.add(id);
    group.groupId = id;
  }
  return groups.map((g) => g.group);
}
