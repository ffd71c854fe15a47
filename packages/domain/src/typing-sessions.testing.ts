import { applyOperation, coalesce, type AnswerOperation } from './answer-operations.ts';
import { mulberry32 } from './arrangement.ts';

/**
 * Simulated writing sessions for the typing-signal tests and the storage benchmark: a seeded generator of key
 * events for someone composing an answer and for someone retyping a text they read elsewhere, recorded the way the
 * candidate page records them (one operation per key event, consecutive keys coalesced). Test-only
 * (eslint.config.js): nothing in production imports it.
 *
 * The timing model follows published keystroke studies; the numbers are the literature's orders of magnitude, not
 * fitted to any data set:
 * - Inter-key intervals (IKI) within words are right-skewed, close to log-normal (Chukharev-Hudilainen, "Pauses in
 *   spontaneous written communication", Journal of Writing Research 6(1), 2014, fits ex-Gaussians; Roeser et al.,
 *   Reading and Writing 34, 2021, model copy typing as a mixture of fluent log-normal transitions and
 *   disfluencies). Typists differ a lot: in 168,000 people's transcription of test sentences the mean speed was
 *   about 52 words a minute, i.e. mean IKI near 230 ms, with a wide spread, and faster typists erred less (Dhakal,
 *   Feit, Kristensson & Oulasvirta, "Observations on typing from 136 million keystrokes", CHI 2018). Medians here
 *   run from 100 ms (≈ 120 wpm) to 330 ms (≈ 35 wpm).
 * - Composition pauses grow with the text unit: within words < between words < between sentences < between
 *   paragraphs, with many 0.3–2 s hesitations at word boundaries and most sentence and paragraph starts past 2 s
 *   (Medimorec & Risko, "Pauses in written composition", Reading and Writing 30, 2017; Conijn, Roeser & van Zaanen,
 *   Reading and Writing 32, 2019; Chenoweth & Hayes, Written Communication 18(1), 2001, for P-bursts ended by
 *   2 s pauses).
 * - Composed text is revised as it is written (typo fixes, words and phrases deleted and rewritten, earlier text
 *   amended); transcribed text is linear, with few deletions, fewer long pauses and more uniform bursts (Crossley,
 *   Tian, Choi, Holmes & Morris, "Plagiarism detection using keystroke logs", EDM 2024; Deane, Zhang, Hao & Li,
 *   "Using keystroke dynamics to detect nonoriginal text", Journal of Educational Measurement 63(1), 2026).
 *   Composition here revises 5–15% of what it inserts, transcription corrects 0–2% of its characters.
 * - A transcriber reads a phrase of the source, types it, looks back (Salthouse, "Perceptual, cognitive, and
 *   motoric aspects of transcription typing", Psychological Bulletin 99(3), 1986): short look-back pauses of about
 *   0.4–1.5 s every phrase, now and then a longer one to find the place again.
 */

/** A seeded generator of numbers in [0, 1) (arrangement.ts's mulberry32): the same seed gives the same sessions. */
export const createRandom: (seed: number) => () => number = mulberry32;

type Random = () => number;
const normal = (rng: Random) => Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
const logNormal = (rng: Random, median: number, sigma: number) => median * Math.exp(sigma * normal(rng));
const between = (rng: Random, low: number, high: number) => low + (high - low) * rng();
const logBetween = (rng: Random, low: number, high: number) => Math.exp(between(rng, Math.log(low), Math.log(high)));
const chance = (rng: Random, p: number) => rng() < p;

const LETTERS = 'etaoinshrdlucmfwypvbgkjqxz';
function word(rng: Random): string {
  const length = Math.max(1, Math.round(logNormal(rng, 4.2, 0.45)));
  let w = '';
  // Letter frequencies roughly English (skewed towards the front of LETTERS).
  for (let i = 0; i < length; i++) w += LETTERS[Math.floor(LETTERS.length * rng() ** 2)];
  return w;
}

/** One key event: the change it made to the answer and when (ms since the attempt started). */
export type KeyEvent = { t: number; from: number; to: number; insert: string };

export type WritingKind = 'composition' | 'transcription';

export type Typist = {
  /** Median inter-key interval within words, ms. */
  medianIkiMs: number;
  /** Spread of log IKI within words. */
  sigma: number;
  /** Composition: share of inserted characters later deleted; transcription: share of characters mistyped and fixed. */
  revision: number;
};

export type Session = { kind: WritingKind; typist: Typist; events: KeyEvent[]; text: string };

/** A typist drawn for a kind of session. */
export function drawTypist(kind: WritingKind, rng: Random): Typist {
  const medianIkiMs = logBetween(rng, 100, 330);
  return kind === 'composition'
    ? { medianIkiMs, sigma: between(rng, 0.3, 0.45), revision: between(rng, 0.05, 0.15) }
    : { medianIkiMs, sigma: between(rng, 0.2, 0.35), revision: between(rng, 0, 0.02) };
}

/**
 * A session of `kind` producing at least `chars` characters of text. `source` (transcription only) is the text
 * being retyped; without it one is generated.
 */
export function simulateWriting(
  kind: WritingKind,
  rng: Random,
  options: { chars: number; typist?: Typist; startMs?: number; source?: string },
): Session {
  const typist = options.typist ?? drawTypist(kind, rng);
  const { medianIkiMs: m, sigma } = typist;
  const events: KeyEvent[] = [];
  let text = '';
  let caret = 0;
  let t = options.startMs ?? 60_000;
  let inserted = 0;
  let deleted = 0;
  const key = (wait: number, from: number, to: number, insert: string) => {
    t += Math.max(8, Math.round(wait));
    events.push({ t, from, to, insert });
    text = applyOperation(text, { from, to, insert });
    caret = from + insert.length;
    inserted += insert.length;
    deleted += to - from;
  };
  const typeText = (chunk: string, firstWait: number) => {
    const chars = Array.from(chunk);
    chars.forEach((ch, i) => {
      const wait = i === 0 ? firstWait : ch === ' ' ? logNormal(rng, m * 1.2, sigma) : logNormal(rng, m, sigma);
      if (ch !== ' ' && chance(rng, kind === 'transcription' ? typist.revision : 0.02)) {
        // A typo noticed at once: wrong key, one or two Backspaces, the right key (both kinds of writer do this).
        key(wait, caret, caret, LETTERS[Math.floor(rng() * LETTERS.length)]!);
        const extra = chance(rng, 0.3) && i > 0 ? 1 : 0;
        for (let b = 0; b <= extra; b++) key(logNormal(rng, m * 1.6, 0.35), caret - 1, caret, '');
        if (extra) key(logNormal(rng, m, sigma), caret, caret, chars[i - 1]!);
        key(logNormal(rng, m, sigma), caret, caret, ch);
      } else {
        key(wait, caret, caret, ch);
      }
    });
  };

  if (kind === 'transcription') {
    const source = options.source ?? paragraphs(rng, options.chars).slice(0, options.chars);
    let sincePeek = 0;
    let nextPeek = between(rng, 15, 60);
    let first = true;
    for (const piece of source.match(/\S+\s*/g) ?? []) {
      let wait = first ? logNormal(rng, 3000, 0.5) : logNormal(rng, m * 1.5, sigma);
      first = false;
      if (sincePeek >= nextPeek) {
        // Looking back at the source for the next phrase; now and then finding the place takes longer.
        wait = chance(rng, 0.06) ? logNormal(rng, 2600, 0.35) : logNormal(rng, 750, 0.4);
        sincePeek = 0;
        nextPeek = between(rng, 15, 60);
      }
      if (/[.!?]\s*$/.test(text)) wait += logNormal(rng, m * 2, 0.4);
      typeText(piece, wait);
      sincePeek += piece.length;
    }
    return { kind, typist, events, text };
  }

  // Composition: sentences planned at their start, words retrieved with hesitations, text revised as it grows.
  let sentences = 0;
  while (text.length < options.chars) {
    const paragraphStart = sentences > 0 && chance(rng, 0.2);
    let wait = logNormal(rng, 2200, 0.7);
    if (paragraphStart) {
      wait = chance(rng, 0.15) ? logNormal(rng, 45_000, 0.4) : logNormal(rng, 6000, 0.8);
      key(logNormal(rng, m * 2, 0.4), caret, caret, '\n');
    }
    const words = Math.round(between(rng, 8, 25));
    for (let w = 0; w < words; w++) {
      let piece = word(rng);
      if (w === 0) piece = piece[0]!.toUpperCase() + piece.slice(1);
      piece += w === words - 1 ? '. ' : ' ';
      if (w > 0) {
        wait = logNormal(rng, m * 1.8, 0.5);
        if (chance(rng, 0.12)) wait += logNormal(rng, 900, 0.6);
      }
      typeText(piece, wait);
      // Revise when behind the writer's own revision rate: delete back over a word or a phrase, then write on.
      if (deleted < typist.revision * inserted && chance(rng, 0.25)) revise();
    }
    sentences++;
  }
  return { kind, typist, events, text };

  function revise(): void {
    const size = Math.min(caret, Math.round(logBetween(rng, 3, 30)));
    if (size === 0) return;
    const r = rng();
    if (r < 0.6) {
      // A Backspace run, the first press after a moment's reading, the rest at the key-repeat pace.
      key(logNormal(rng, 1500, 0.6), caret - 1, caret, '');
      for (let i = 1; i < size; i++) key(logNormal(rng, 110, 0.3), caret - 1, caret, '');
    } else if (r < 0.8) {
      // A selection deleted with one key (selected by mouse or Shift+Ctrl+Left).
      key(logNormal(rng, 2500, 0.5), caret - size, caret, '');
    } else {
      // Amending earlier text: the caret moves back, a few words go in there, then back to the end.
      const at = text.lastIndexOf(' ', Math.max(0, text.length - size - 1)) + 1;
      caret = at;
      const words = Array.from({ length: 1 + Math.floor(rng() * 3) }, () => word(rng) + ' ').join('');
      typeText(words, logNormal(rng, 2000, 0.5));
      caret = text.length;
      t += Math.round(logNormal(rng, 600, 0.4));
    }
  }
}

/** A text to retype: sentences of generated words in paragraphs, at least `chars` long. */
export function paragraphs(rng: Random, chars: number): string {
  let text = '';
  while (text.length < chars) {
    if (text && chance(rng, 0.2)) text = text.trimEnd() + '\n';
    const words = Array.from({ length: Math.round(between(rng, 8, 25)) }, () => word(rng));
    words[0] = words[0]![0]!.toUpperCase() + words[0]!.slice(1);
    text += words.join(' ') + '. ';
  }
  return text.trimEnd();
}

/**
 * The operations a page records for `events`: one per key, each folded into the previous by `coalesce` unless that
 * one was already saved. `saveAfterPauseMs`: a save goes out whenever the typist pauses this long (the autosave's
 * debounce), and the operations it carried are never folded into again. Returns the operations and, per save, how
 * many of them it carried.
 */
export function recordKeys(
  events: ReadonlyArray<KeyEvent>,
  startedAtMs: number,
  options: { saveAfterPauseMs?: number } = {},
): { ops: AnswerOperation[]; saves: number[] } {
  const ops: AnswerOperation[] = [];
  const saves: number[] = [];
  let saved = 0;
  let last = -Infinity;
  for (const event of events) {
    if (options.saveAfterPauseMs !== undefined && event.t - last >= options.saveAfterPauseMs && ops.length > saved) {
      saves.push(ops.length - saved);
      saved = ops.length;
    }
    last = event.t;
    const op: AnswerOperation = {
      at: new Date(startedAtMs + event.t).toISOString(),
      from: event.from,
      to: event.to,
      insert: event.insert,
      source: 'typed',
    };
    const merged = ops.length > saved ? coalesce(ops.at(-1), op) : null;
    if (merged) ops[ops.length - 1] = merged;
    else ops.push(op);
  }
  if (ops.length > saved) saves.push(ops.length - saved);
  return { ops, saves };
}
