import type { Question } from '@exam/domain/exam';

/**
 * The "stop solutions" guardrail, enforced: a reply is checked as it streams against the answer keys of the
 * exam's questions, which only the server knows, and stopped before a key reaches the candidate.
 *
 * Which keys, and when a reply "gives one away":
 * - Keys are the text of the correct option(s) of a multiple-choice question and the accepted answers of a
 *   short-answer question. Coding questions carry no hidden tests in the exam model, so they add none.
 *   Option letters ("B") are never keys: one letter cannot be told apart from ordinary text.
 * - Both the key and the reply are normalised the same way: Unicode compatibility decomposition (NFKD) with
 *   the combining marks dropped (so "é" is "e"), lower case, and every run of characters that are neither
 *   letters nor digits read as one space. "P-Value", "p value" and "p–value!" are then all "p value".
 * - A key matches only as whole words: the normalised key with a space (or the start/end of the reply) on
 *   both sides, so the key "mean" is not found in "meaning" and "4" would not be found in "42".
 * - A key is enforced only when it is distinctive enough to police: at least MIN_KEY_CHARS letters or
 *   digits, and not one of the generic answers below. Shorter keys ("4", "B", "cat") and "true"/"false"
 *   appear in ordinary explanations far too often; for those the prompt's instruction is the only guard.
 * - A long key is matched by its first MAX_KEY_CHARS characters (cut at a word end): a reply that
 *   reproduces that much of it has given it away, and the tail the stream must hold back stays short.
 *
 * Across chunk boundaries: the reply is normalised incrementally, each normalised character remembering
 * the raw character it came from, and searched over its whole accumulated text. Only raw text that can no
 * longer be the start of a match is released: the held tail begins at the earliest word break whose text
 * after it is still the beginning of some key (" stand" of "standard error"), and is held until more text
 * (or the end of the reply) shows whether it is one. A tail that cannot become a key is released at once,
 * so the first token of an ordinary reply is not held back for the next one.
 */

export const MIN_KEY_CHARS = 4;
export const MAX_KEY_CHARS = 80;
const GENERIC_ANSWERS = new Set([
  'true',
  'false',
  'none',
  'both',
  'neither',
  'none of the above',
  'all of the above',
  'not sure',
]);

export type AnswerKey = { questionIndex: number; key: string };

const ALNUM = /[\p{L}\p{N}]/u;
const MARKS = /\p{M}/gu;

/** The normalised form of one code point: letters and digits, or '' (a separator is decided by the caller). */
function foldCodePoint(cp: string): string {
  return cp.normalize('NFKD').replace(MARKS, '').toLowerCase();
}

/** Text of ASCII only takes a fast path: NFKD leaves it as it is, so folding is lower-casing. */
const ASCII_ONLY = /^[\p{ASCII}]*$/u;
/** The folded form of each ASCII code, '' for a separator. */
const ASCII_FOLD = Array.from({ length: 128 }, (_, code) => {
  const ch = String.fromCharCode(code).toLowerCase();
  return /[a-z0-9]/.test(ch) ? ch : '';
});

/** The normalised form of a whole text (used for keys): words separated by single spaces, no outer spaces. */
export function normaliseForMatch(text: string): string {
  let out = '';
  for (const cp of text) {
    for (const ch of foldCodePoint(cp)) {
      if (ALNUM.test(ch)) out += ch;
      else if (out !== '' && !out.endsWith(' ')) out += ' ';
    }
  }
  return out.trimEnd();
}

function enforceable(text: string): string | undefined {
  let key = normaliseForMatch(text);
  if (key.replace(/ /g, '').length < MIN_KEY_CHARS || GENERIC_ANSWERS.has(key)) return undefined;
  if (key.length > MAX_KEY_CHARS) {
    const cut = key.lastIndexOf(' ', MAX_KEY_CHARS);
    if (cut >= MIN_KEY_CHARS) key = key.slice(0, cut);
  }
  return key;
}

/** The keys the guardrail enforces for an exam's questions (answer keys included, as exam-service sends them). */
export function answerKeysOf(questions: ReadonlyArray<Question>): AnswerKey[] {
  const keys: AnswerKey[] = [];
  const seen = new Set<string>();
  questions.forEach((q, questionIndex) => {
    const texts =
      q.type === 'mcq'
        ? [...(q.correctAnswer ? [q.correctAnswer] : []), ...q.correctAnswers]
        : q.type === 'short-answer'
          ? q.acceptedAnswers
          : [];
    for (const text of texts) {
      const key = enforceable(text);
      if (!key || seen.has(key)) continue;
      seen.add(key);
      keys.push({ questionIndex, key });
    }
  });
  return keys;
}

export type GuardStep = { release: string; leak: AnswerKey | undefined };

/**
 * One reply's scanner. push() takes each chunk as it arrives and answers the raw text now safe to send on,
 * or the key the reply has just given away (then nothing more may be sent). end() releases the rest.
 */
export class AnswerGuard {
  readonly #keys: AnswerKey[];
  /** Each key followed by its closing word break: what may follow a held word break. */
  readonly #patterns: string[];
  readonly #longest: number;
  #raw = '';
  /** The normalised reply, behind a leading space so a key at the very start has its word boundary. */
  #norm = ' ';
  /** For each character of #norm, the index in #raw of the character it came from. */
  #origin: number[] = [0];
  #endsInSpace = true;
  #released = 0;
  #scanFrom = 0;
  #leak: AnswerKey | undefined;

  constructor(keys: AnswerKey[]) {
    this.#keys = keys;
    this.#patterns = keys.map((k) => `${k.key} `);
    this.#longest = keys.reduce((max, k) => Math.max(max, k.key.length), 0);
  }

  push(text: string): GuardStep {
    if (this.#leak) return { release: '', leak: this.#leak };
    if (!this.#keys.length) return { release: text, leak: undefined };
    const start = this.#raw.length;
    this.#raw += text;
    // The chunk's normalised text is built apart and appended once: appending to #norm character by character
    // and asking whether it ends in a space made V8 flatten the whole reply again for each character.
    let added = '';
    let space = this.#endsInSpace;
    const origin = this.#origin;
    if (ASCII_ONLY.test(text)) {
      for (let i = 0; i < text.length; i++) {
        const ch = ASCII_FOLD[text.charCodeAt(i)]!;
        if (ch || !space) {
          added += ch || ' ';
          origin.push(start + i);
          space = !ch;
        }
      }
    } else {
      let index = start;
      for (const cp of text) {
        for (const ch of foldCodePoint(cp)) {
          const alnum = ALNUM.test(ch);
          if (alnum || !space) {
            added += alnum ? ch : ' ';
            origin.push(index);
            space = !alnum;
          }
        }
        index += cp.length;
      }
    }
    this.#norm += added;
    this.#endsInSpace = space;
    const leak = this.#scan();
    if (leak) return { release: '', leak };
    // A match not complete yet starts with a word break, so the cut never falls in half a word.
    const held = this.#heldFrom();
    const release = held < this.#norm.length ? (this.#origin[held] ?? this.#released) : this.#raw.length;
    return { release: this.#releaseTo(release), leak: undefined };
  }

  /**
   * Where in #norm the tail that may still become a key begins: the earliest word break, among the last
   * longest + 1 characters, whose text after it is the start of a key (then its closing break); #norm's
   * length when there is none. A complete match has been found by #scan before this is asked.
   */
  #heldFrom(): number {
    const norm = this.#norm;
    let held = norm.length;
    for (
      let at = norm.lastIndexOf(' ');
      at >= 0 && norm.length - at - 1 <= this.#longest;
      at = norm.lastIndexOf(' ', at - 1)
    ) {
      const tail = norm.slice(at + 1);
      if (this.#patterns.some((pattern) => pattern.startsWith(tail))) held = at;
      if (at === 0) break;
    }
    return held;
  }

  /** The reply is complete: its end is a word boundary too. */
  end(): GuardStep {
    if (this.#leak) return { release: '', leak: this.#leak };
    if (this.#keys.length && !this.#endsInSpace) {
      this.#norm += ' ';
      this.#origin.push(this.#raw.length);
      this.#endsInSpace = true;
    }
    const leak = this.#keys.length ? this.#scan() : undefined;
    if (leak) return { release: '', leak };
    return { release: this.#releaseTo(this.#raw.length), leak: undefined };
  }

  #scan(): AnswerKey | undefined {
    const from = this.#scanFrom;
    let found: { at: number; key: AnswerKey } | undefined;
    for (const key of this.#keys) {
      const at = this.#norm.indexOf(` ${key.key} `, from);
      if (at !== -1 && (!found || at < found.at)) found = { at, key };
    }
    // Everything before this point has been searched for every key; a later match ends after it.
    this.#scanFrom = Math.max(0, this.#norm.length - this.#longest - 2);
    this.#leak = found?.key;
    return this.#leak;
  }

  #releaseTo(rawEnd: number): string {
    if (rawEnd <= this.#released) return '';
    const out = this.#raw.slice(this.#released, rawEnd);
    this.#released = rawEnd;
    return out;
  }
}
