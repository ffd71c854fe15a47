import type { AnswerOperation } from './answer-operations.ts';
import type { TypingSignals } from './timeline.ts';

/**
 * Typing figures of one answer, from its operations (issue 31). Review signals shown beside a cohort, never a
 * verdict and never a score.
 *
 * The features are the ones keystroke-logging research uses to tell composing from transcribing:
 * - Pauses: an inter-key interval of 2 s or more is a pause and ends a "P-burst" (Chenoweth & Hayes, "Fluency in
 *   writing", Written Communication 18(1), 2001; the 2 s threshold is Inputlog's default, Leijten & Van Waes,
 *   Written Communication 30(3), 2013).
 * - Production rate while typing, the revision ratio (deleted ÷ inserted) and the longest burst: the process
 *   features of Conijn, Roeser & van Zaanen, "Understanding the keystroke log", Reading and Writing 32, 2019.
 * - Transcribed text is typed at a steadier pace with fewer long pauses and far fewer revisions than composed
 *   text; Crossley, Tian, Choi, Holmes & Morris (EDM 2024) separate authentic from transcribed essays almost
 *   perfectly on such features, and Kundu et al. (2024) report 52–81% across conditions, so the indicator below
 *   is a prompt to look, never a finding.
 *
 * The thresholds below are argued from those studies, each with its reason, and checked on simulated composition
 * and transcription sessions (typing-sessions.testing.ts, typing-signals.test.ts: about 99% of sessions told apart
 * on a seed set used while choosing them and on one that was not). A simulation only shows the rules do what the
 * literature's description of the two behaviours implies; it is no measurement of real candidates.
 */

/** An inter-key interval of this length or more is a pause (Chenoweth & Hayes 2001). */
export const PAUSE_MS = 2_000;
/** Intervals this long mean the candidate left the answer: they end a span and count in no rate. */
export const AWAY_MS = 30_000;
/** A span must hold this many typed characters before it can look transcribed. */
export const TRANSCRIPTION_MIN_CHARS = 200;
/**
 * At most this many characters deleted per character inserted in a transcription-like span. Counted in
 * characters, not keys, so a selection deleted or typed over with one key counts for what it removed. A transcriber
 * who fixes up to 2% of characters with one or two Backspaces each deletes at most about 3% of what they type;
 * composing writers revise 5–15% (Crossley et al. 2024 find authentic writing deletes far more characters and
 * words than transcription). Was 2% of keystrokes: that missed careful transcribers at the top of the 0–2% range.
 */
export const TRANSCRIPTION_MAX_REVISION = 0.03;
/**
 * At most this many pauses (PAUSE_MS or more) per 100 typed characters in a transcription-like span: composing
 * writers pause that long at most sentence and paragraph starts (Medimorec & Risko 2017), about one a sentence of
 * 80–150 characters, while a transcriber's look-backs at the source mostly stay under 2 s.
 */
export const TRANSCRIPTION_MAX_PAUSES_PER_100 = 1;
/**
 * Intervals under PAUSE_MS vary at most this much (coefficient of variation) in a transcription-like span: it
 * leaves out erratic typing only. Was 0.6: a transcriber's look-backs at the source (0.4–1.5 s every phrase,
 * Salthouse 1986) alone put the CV of steady copy typing between 0.4 and 1.0, so 0.6 missed about half of them;
 * the revision and pause criteria carry the separation.
 */
export const TRANSCRIPTION_MAX_CV = 1;
/** A span's text found in something the candidate could see (an assistant reply, the question) is not flagged. */
export const VISIBLE_MATCH_CHARS = 40;
/** Fewer keystrokes than this give no rate. */
export const MIN_KEYSTROKES = 20;

type Keystroke = { t: number; inserted: number; deleted: number; text: string };

/** Typed keystrokes in order, split wherever something other than typing changed the answer. */
function typedRuns(ops: ReadonlyArray<AnswerOperation>): Keystroke[][] {
  const runs: Keystroke[][] = [];
  let current: Keystroke[] = [];
  for (const op of ops) {
    if (op.source !== 'typed') {
      if (current.length) runs.push(current);
      current = [];
      continue;
    }
    let t = Date.parse(op.at);
    const keys = op.keys ?? [];
    if (keys.length === 0) {
      current.push({ t, inserted: op.insert.length, deleted: op.to - op.from, text: op.insert });
      continue;
    }
    if (op.insert.length > 0) {
      const points = Array.from(op.insert);
      points.forEach((point, i) => {
        if (i > 0) t += keys[i - 1] ?? 0;
        // A replaced selection is deleted by the first keystroke of the run.
        current.push({ t, inserted: point.length, deleted: i === 0 ? op.to - op.from : 0, text: point });
      });
    } else {
      const count = keys.length + 1;
      for (let i = 0; i < count; i++) {
        if (i > 0) t += keys[i - 1] ?? 0;
        current.push({ t, inserted: 0, deleted: i === count - 1 ? op.to - op.from - (count - 1) : 1, text: '' });
      }
    }
  }
  if (current.length) runs.push(current);
  return runs;
}

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function coefficientOfVariation(values: number[]): number {
  if (values.length < 2) return 0;
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  if (mean === 0) return 0;
  const variance = values.reduce((a, b) => a + (b - mean) ** 2, 0) / (values.length - 1);
  return Math.sqrt(variance) / mean;
}

/** Whether `text` shares a stretch of VISIBLE_MATCH_CHARS characters (spacing ignored) with any visible text. */
function seenIn(text: string, visible: ReadonlyArray<string>): boolean {
  const squash = (s: string) => s.replace(/\s+/g, ' ').toLowerCase();
  const span = squash(text);
  if (span.length < VISIBLE_MATCH_CHARS) return false;
  const haystacks = visible.map(squash);
  for (let i = 0; i + VISIBLE_MATCH_CHARS <= span.length; i += Math.max(1, VISIBLE_MATCH_CHARS >> 1)) {
    const piece = span.slice(i, i + VISIBLE_MATCH_CHARS);
    if (haystacks.some((h) => h.includes(piece))) return true;
  }
  return false;
}

/**
 * The figures of one answer. `visible` holds what the candidate could read and copy by hand (assistant replies,
 * the question's text): a span found there is not "without a visible source".
 */
export function computeTypingSignals(
  ops: ReadonlyArray<AnswerOperation>,
  visible: ReadonlyArray<string> = [],
): TypingSignals {
  const runs = typedRuns(ops);
  const intervals: number[] = [];
  let activeMs = 0;
  let typedChars = 0;
  let keystrokes = 0;
  let longestBurst = 0;
  const pauses = { under2s: 0, from2to10s: 0, over10s: 0 };
  const spans: TypingSignals['transcriptionLike']['spans'] = [];

  for (const run of runs) {
    let burst = 0;
    // A span: keystrokes between two absences (AWAY_MS) within one typed run.
    let span: Keystroke[] = [];
    const closeSpan = () => {
      const found = transcriptionLike(span, visible);
      if (found) spans.push(found);
      span = [];
    };
    run.forEach((key, i) => {
      keystrokes++;
      typedChars += key.inserted;
      if (i > 0) {
        const gap = key.t - run[i - 1]!.t;
        intervals.push(gap);
        if (gap < PAUSE_MS) pauses.under2s++;
        else if (gap < 10_000) pauses.from2to10s++;
        else pauses.over10s++;
        if (gap < PAUSE_MS) activeMs += gap;
        if (gap >= PAUSE_MS) burst = 0;
        if (gap >= AWAY_MS) closeSpan();
      }
      burst += key.inserted;
      longestBurst = Math.max(longestBurst, burst);
      span.push(key);
    });
    closeSpan();
  }

  let inserted = 0;
  let deleted = 0;
  let previous: AnswerOperation | undefined;
  for (const op of ops) {
    if (isCompositionUpdate(previous, op)) {
      // An IME replaces its composing text at every update ("n", "ni", "你"): only the committed text counts, and
      // replacing the composing text is no revision (else every CJK writer would look like a heavy reviser).
      inserted -= previous!.insert.length;
    } else {
      deleted += op.to - op.from;
    }
    inserted += op.insert.length;
    previous = op;
  }

  return {
    charsPerMinute: keystrokes >= MIN_KEYSTROKES && activeMs > 0 ? round1((typedChars / activeMs) * 60_000) : null,
    pauses: { medianMs: median(intervals), ...pauses },
    revisionRatio: inserted > 0 ? round3(deleted / inserted) : null,
    longestBurst,
    keystrokes,
    transcriptionLike: { flagged: spans.length > 0, spans, chars: spans.reduce((sum, s) => sum + s.chars, 0) },
  };
}

/** `op` replaces exactly the text the previous IME (autocomplete) update inserted. */
function isCompositionUpdate(previous: AnswerOperation | undefined, op: AnswerOperation): boolean {
  return (
    previous !== undefined &&
    previous.source === 'autocomplete' &&
    op.source === 'autocomplete' &&
    op.from === previous.from &&
    op.to === previous.from + previous.insert.length
  );
}

/** The text a span left, its Backspaces applied (typos typed and fixed are not part of what was copied). */
function netText(span: Keystroke[]): string {
  let text = '';
  for (const key of span) {
    if (key.deleted > 0 && key.inserted === 0) text = text.slice(0, Math.max(0, text.length - key.deleted));
    text += key.text;
  }
  return text;
}

function transcriptionLike(
  span: Keystroke[],
  visible: ReadonlyArray<string>,
): TypingSignals['transcriptionLike']['spans'][number] | null {
  const chars = span.reduce((sum, key) => sum + key.inserted, 0);
  if (chars < TRANSCRIPTION_MIN_CHARS) return null;
  const deleted = span.reduce((sum, key) => sum + key.deleted, 0);
  if (deleted / chars > TRANSCRIPTION_MAX_REVISION) return null;
  const gaps = span.slice(1).map((key, i) => key.t - span[i]!.t);
  const longPauses = gaps.filter((gap) => gap >= PAUSE_MS).length;
  if ((longPauses / chars) * 100 > TRANSCRIPTION_MAX_PAUSES_PER_100) return null;
  if (coefficientOfVariation(gaps.filter((gap) => gap < PAUSE_MS)) > TRANSCRIPTION_MAX_CV) return null;
  if (seenIn(netText(span), visible)) return null;
  return { start: new Date(span[0]!.t).toISOString(), end: new Date(span.at(-1)!.t).toISOString(), chars };
}

/**
 * The percentile rank of `value` in `cohort` (0–100): the share below it plus half the share equal to it
 * (the mid-rank definition), null for an empty cohort or a missing value.
 */
export function percentileRank(cohort: ReadonlyArray<number>, value: number | null): number | null {
  if (value === null || cohort.length === 0) return null;
  let below = 0;
  let equal = 0;
  for (const v of cohort) {
    if (v < value) below++;
    else if (v === value) equal++;
  }
  return Math.round(((below + equal / 2) / cohort.length) * 1000) / 10;
}

const round1 = (n: number) => Math.round(n * 10) / 10;
const round3 = (n: number) => Math.round(n * 1000) / 1000;
