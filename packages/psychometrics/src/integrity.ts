/** Integrity figures of the insights page (docs/product.md#insights) as pure functions. */

export interface TimedEvent {
  type: string;
  /** Epoch milliseconds. */
  at: number;
}

/**
 * Focus % (docs/product.md#insights: focus time over total, 100 when there is no data): the share of the
 * attempt, from start to submission, during which the exam page had focus. The page starts focused;
 * 'focus-lost' and 'focus-gained' events switch the state; events outside the attempt are clamped to it.
 * No focus events, or an attempt without a positive duration, is "no data" → 100.
 */
export function focusPercent(events: readonly TimedEvent[], startedAt: number, completedAt: number): number {
  const total = completedAt - startedAt;
  const changes = events
    .filter((e) => e.type === 'focus-lost' || e.type === 'focus-gained')
    .sort((a, b) => a.at - b.at);
  if (!(total > 0) || changes.length === 0) return 100;
  let focused = true;
  let since = startedAt;
  let unfocused = 0;
  for (const event of changes) {
    const at = Math.min(completedAt, Math.max(startedAt, event.at));
    if (!focused) unfocused += at - since;
    focused = event.type === 'focus-gained';
    since = at;
  }
  if (!focused) unfocused += completedAt - since;
  return Math.round((100 * (total - unfocused)) / total);
}

export function countEvents(events: readonly TimedEvent[], type: string): number {
  return events.reduce((n, e) => n + (e.type === type ? 1 : 0), 0);
}

/**
 * Copy writing: how much of a written answer appears verbatim in the assistant's replies.
 * Text is normalised to lowercase words split on whitespace, with Markdown emphasis and code marks
 * (` and *) removed. An answer word counts as copied when it lies inside some run of SHINGLE_SIZE
 * consecutive answer words that also occurs, consecutively, in one reply (word k-shingles, k = 5).
 * Answers shorter than k words are compared as one whole phrase; single-word answers are not judged
 * (too common to be evidence of copying) and count as no words.
 */
export const SHINGLE_SIZE = 5;
export const MIN_JUDGED_WORDS = 2;
/** An answer with at least this share of its words copied counts as copied (Reasoning credit 0). */
export const COPY_THRESHOLD = 0.5;

export function normaliseWords(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[`*]/g, ' ')
    .split(/\s+/)
    .filter((w) => w !== '');
}

export interface CopyOverlap {
  /** Words judged (0 for answers too short to judge). */
  words: number;
  copiedWords: number;
}

export interface ReplyIndex {
  /** Every word of the replies: a shingle whose first word is not here cannot match. */
  words: ReadonlySet<string>;
  /** Shingles of the replies of one length, built once per length. */
  shingles(size: number): ReadonlySet<string>;
}

export function createReplyIndex(replies: readonly string[]): ReplyIndex {
  const wordLists = replies.map(normaliseWords);
  const cache = new Map<number, Set<string>>();
  return {
    words: new Set(wordLists.flat()),
    shingles(size) {
      let set = cache.get(size);
      if (!set) {
        set = new Set();
        for (const words of wordLists)
          for (let i = 0; i + size <= words.length; i += 1) set.add(words.slice(i, i + size).join(' '));
        cache.set(size, set);
      }
      return set;
    },
  };
}

export function copyOverlap(answer: string, replies: ReplyIndex, k = SHINGLE_SIZE): CopyOverlap {
  const words = normaliseWords(answer);
  if (words.length < MIN_JUDGED_WORDS) return { words: 0, copiedWords: 0 };
  if (replies.words.size === 0) return { words: words.length, copiedWords: 0 };
  const size = Math.min(k, words.length);
  const shingles = replies.shingles(size);
  // Words covered by a matching shingle form runs; `coveredUntil` is the end of the current run.
  let copiedWords = 0;
  let coveredUntil = 0;
  for (let i = 0; i + size <= words.length; i += 1) {
    if (!replies.words.has(words[i]!) || !shingles.has(words.slice(i, i + size).join(' '))) continue;
    copiedWords += i + size - Math.max(i, coveredUntil);
    coveredUntil = i + size;
  }
  return { words: words.length, copiedWords };
}

export function copyShare(overlap: CopyOverlap): number | null {
  return overlap.words === 0 ? null : overlap.copiedWords / overlap.words;
}

/**
 * Reasoning: credit for what the candidate achieved on their own. Per question, a correct answer
 * earns 1; 0.5 when the candidate sent the assistant a message while that question was open; 0 when
 * the answer was copied from the assistant (≥ COPY_THRESHOLD of its words verbatim in its replies).
 * Wrong and not-yet-graded answers earn 0. Score = 100 × Σ credit ÷ number of questions.
 */
export const CONSULTED_CREDIT = 0.5;
export const REASONING_FORMULA =
  'Reasoning = 100 × (sum of credits) ÷ (number of questions). A correct answer earns 1 credit, 0.5 if the candidate asked the AI assistant while on that question, and 0 if at least half of the answer was copied word for word from the assistant’s replies. Wrong or ungraded answers earn 0.';

export interface ReasoningInput {
  mark: number | null;
  consulted: boolean;
  copied: boolean;
}

export function reasoningCredit({ mark, consulted, copied }: ReasoningInput): number {
  const base = mark ?? 0;
  if (base === 0 || copied) return 0;
  return consulted ? base * CONSULTED_CREDIT : base;
}

/** Percent 0–100; null when there are no questions. */
export function reasoningScore(questions: readonly ReasoningInput[]): number | null {
  if (questions.length === 0) return null;
  return (100 * questions.reduce((sum, q) => sum + reasoningCredit(q), 0)) / questions.length;
}

/**
 * Range badge (docs/product.md#insights): 'in' within a band of ±15 around the cohort mean, the band's lower bound
 * raised to at least 10 and its upper bound lowered to at most 90; 'above' / 'below' outside it.
 */
export const BADGE_HALF_WIDTH = 15;
export type RangeBadge = 'above' | 'in' | 'below';

export function rangeBand(cohortMean: number): { lower: number; upper: number } {
  return { lower: Math.max(10, cohortMean - BADGE_HALF_WIDTH), upper: Math.min(90, cohortMean + BADGE_HALF_WIDTH) };
}

export function rangeBadge(value: number, cohortMean: number): RangeBadge {
  const { lower, upper } = rangeBand(cohortMean);
  if (value > upper) return 'above';
  if (value < lower) return 'below';
  return 'in';
}
