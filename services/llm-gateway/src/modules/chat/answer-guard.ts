import { compileKeys, type AnswerKey, type CompiledKey, type OptionKey } from './answer-keys.ts';
import { distanceWithin, foldCodePoint, skeletonOf } from './guard-text.ts';
import { StructuredWatch } from './structured-guard.ts';

export {
  answerKeysOf,
  keyTextsOf,
  MAX_KEY_CHARS,
  MIN_KEY_CHARS,
  normaliseForMatch,
  optionKeysOf,
  type AnswerKey,
  type OptionKey,
} from './answer-keys.ts';

/**
 * The "stop solutions" guardrail, enforced: a reply is checked as it streams against the answer keys of the
 * exam's questions (answer-keys.ts), which only the server knows, and stopped before a key reaches the candidate.
 *
 * The reply is read as rendered and folded (guard-text.ts: invisible characters dropped, compatibility forms
 * and confusables folded) and cut into words at every separator. A key is given away when:
 * - Some run of whole consecutive words, run together, is the key's letters (its skeleton): "Standard Error",
 *   `photo**synthesis**`, "p h o t o s y n t h e s i s", "p-h-o-t-o…" and "photo\u200Bsynthesis" all are. Whole words
 *   only: "medians", "nonstandard" and "errorless" do not contain the keys "median" and "standard error".
 * - or such a run is a near form of a key of 8 letters or more: its first NEAR_FORM_STEM (4) letters, then at most
 *   editsAllowed edits apart ("mitochondrion" for "mitochondria", "photosynthesys");
 * - or letters spelled out one by one (runs of two or more one-letter words), taken together across the whole
 *   conversation, spell the key: the first letters in one reply, the rest in the next;
 * - or words run together across the end of the assistant's earlier replies and the start of this one do;
 * - or the reply names a correct option by letter or number in an answering phrase: "the answer is B",
 *   "option 2", "B is correct" (a lone lower-case "a" only right after "option", so "the answer is a bit" passes).
 * - or the reply states a structured key (a true/false verdict, an ordering's order, a matching pair, a number that
 *   scores): structured-keys.ts and structured-guard.ts.
 * A match must end in this reply: what the earlier replies said alone was checked when they streamed.
 *
 * What matching cannot catch: a key encoded (base64, ROT13, a Caesar shift, reversed), translated, or described
 * without its words. The creator is told so where "stop solutions" is turned on.
 *
 * Across chunk boundaries: only raw text that can no longer be the start of a match is released. The held tail
 * begins at the separator before the earliest word from which the rest of the reply may still become a key (or a
 * near form of one, or a spelled-out key, or an option phrase), and is held until more text (or the end of the
 * reply) shows whether it is one. A tail that cannot become a key is released at once, so the first token of an
 * ordinary reply is not held back for the next one.
 */

export type GuardStep = { release: string; leak: AnswerKey | undefined };

type Token = {
  /** Its letters and digits, folded. */
  text: string;
  /** Where in this reply's raw text the separators before it begin (0 for a word of an earlier reply). */
  gapStart: number;
  /** One letter or digit standing alone, as in spelled-out text. */
  spelled: boolean;
  /** That one letter was written in upper case. */
  upper: boolean;
  /** Said in an earlier reply of the conversation. */
  earlier: boolean;
};

const words = (list: string) => new Set(list.split(' ').map(skeletonOf));
/** Words that, right before a letter or number, name an option; "option a" counts even in lower case. */
const STRONG_CUES = words('option choice letter number alternative');
/** Words after which an upper-case letter is an answer: "the answer is B", "I'd pick C". */
const WEAK_CUES = words('answer correct right pick choose select solution');
/** Words that may stand between a cue and the letter, or a letter and its verdict ("B is the correct one"). */
const FILLERS = words(
  'is the would be should must it s probably definitely clearly one so here that thus therefore final actually',
);
/** The verdict after a letter: "B is correct", "B is the answer". */
const VERDICTS = words('correct right answer solution');
const CUE_WORDS = [...STRONG_CUES, ...WEAK_CUES];
const LOOKBACK = 6;
const KEEP_TOKENS = 128;

/** A run of words is a near form of a key: its first letters exactly, then at most the key's edits apart. */
function isNearForm(run: string, key: CompiledKey): boolean {
  return run.startsWith(key.stem) && distanceWithin(run, key.skeleton, key.edits) <= key.edits;
}

/** A run of words may still grow into a near form of a key (or the key itself). */
function mayBecomeNearForm(run: string, key: CompiledKey): boolean {
  if (run.length <= key.stem.length) return key.stem.startsWith(run);
  return run.startsWith(key.stem) && distanceWithin(run, key.skeleton, key.edits, true) <= key.edits;
}

/**
 * One reply's scanner. push() takes each chunk as it arrives and answers the raw text now safe to send on,
 * or the key the reply has just given away (then nothing more may be sent). end() releases the rest.
 * `earlier` is what the assistant's earlier replies of the conversation said (as the candidate saw them).
 */
export class AnswerGuard {
  readonly #keys: CompiledKey[];
  readonly #options: { key: OptionKey; letter: string; number: string }[];
  readonly #reach: number;
  readonly #structured: StructuredWatch;
  /** The first letter of every key: a run of words starting with another can become none. */
  readonly #firstLetters: Set<number>;
  #raw = '';
  #released = 0;
  #tokens: Token[] = [];
  /** The word being read (its end not seen yet), and where the separators after the last word began. */
  #cur: (Token & { cps: number }) | undefined;
  #gapStart = 0;
  /** Spelled-out letters of the conversation, runs of two or more only; #pending is a lone one that may start a run. */
  #spelled: Token[] = [];
  #pending: Token | undefined;
  #reading = true;
  #leak: AnswerKey | undefined;

  constructor(keys: AnswerKey[], opts: { options?: OptionKey[]; earlier?: string } = {}) {
    this.#keys = compileKeys(keys);
    this.#options = (opts.options ?? []).map((key) => ({
      key,
      letter: skeletonOf(String.fromCharCode(97 + key.option)),
      number: skeletonOf(String(key.option + 1)),
    }));
    this.#firstLetters = new Set(this.#keys.map((k) => k.skeleton.charCodeAt(0)));
    this.#structured = new StructuredWatch(keys);
    this.#reach = this.#keys.reduce((max, k) => Math.max(max, k.skeleton.length + k.edits), this.#structured.reach);
    if (opts.earlier && this.#enabled) {
      this.#reading = false;
      this.#consume(opts.earlier, 0);
      this.#close(0);
      this.#reading = true;
      this.#gapStart = 0;
    }
  }

  get #enabled() {
    return this.#keys.length > 0 || this.#options.length > 0 || this.#structured.enabled;
  }

  push(text: string): GuardStep {
    if (this.#leak) return { release: '', leak: this.#leak };
    if (!this.#enabled) return { release: text, leak: undefined };
    const start = this.#raw.length;
    this.#raw += text;
    this.#consume(text, start);
    if (this.#leak) return { release: '', leak: this.#leak };
    const numbers = this.#structured.numbers(this.#raw, false);
    this.#leak = numbers.leak;
    if (this.#leak) return { release: '', leak: this.#leak };
    return { release: this.#releaseTo(Math.min(this.#heldFrom(), numbers.heldFrom)), leak: undefined };
  }

  /** The reply is complete: its end is a word boundary too. */
  end(): GuardStep {
    if (this.#leak) return { release: '', leak: this.#leak };
    if (this.#enabled) this.#close(this.#raw.length);
    if (this.#structured.enabled) {
      this.#leak ??= this.#structured.finish(this.#tokens) ?? this.#structured.numbers(this.#raw, true).leak;
    }
    if (this.#leak) return { release: '', leak: this.#leak };
    return { release: this.#releaseTo(this.#raw.length), leak: undefined };
  }

  #consume(text: string, start: number) {
    let index = start;
    for (const cp of text) {
      const folded = foldCodePoint(cp);
      if (!folded.ignorable) {
        let counted = false;
        for (const part of folded.parts) {
          if (!part) {
            this.#close(index);
            if (this.#leak) return;
            continue;
          }
          this.#cur ??= {
            text: '',
            gapStart: this.#gapStart,
            spelled: false,
            upper: false,
            earlier: !this.#reading,
            cps: 0,
          };
          this.#cur.text += part;
          if (!counted) {
            this.#cur.cps += 1;
            this.#cur.upper = cp !== cp.toLowerCase();
            counted = true;
          }
        }
      }
      index += cp.length;
    }
  }

  /** The word being read ends at raw index `at` (a separator, or the end of the text). */
  #close(at: number) {
    const cur = this.#cur;
    if (!cur) return;
    this.#cur = undefined;
    this.#gapStart = at;
    const token: Token = {
      text: cur.text,
      gapStart: cur.gapStart,
      spelled: cur.cps === 1,
      upper: cur.cps === 1 && cur.upper,
      earlier: cur.earlier,
    };
    const prev = this.#tokens.at(-1);
    this.#tokens.push(token);
    if (this.#tokens.length > 2 * KEEP_TOKENS) this.#tokens = this.#tokens.slice(-KEEP_TOKENS);
    this.#spell(token, prev);
    const structured = this.#structured.enabled ? this.#structured.word(this.#tokens, this.#reading) : undefined;
    if (this.#reading) this.#leak ??= this.#wordsLeak() ?? this.#spelledLeak() ?? this.#optionLeak() ?? structured;
  }

  #spell(token: Token, prev: Token | undefined) {
    if (!token.spelled) {
      this.#pending = undefined;
      return;
    }
    if (!prev?.spelled) {
      this.#pending = token;
      return;
    }
    if (this.#pending === prev) this.#spelled.push(prev);
    this.#pending = undefined;
    this.#spelled.push(token);
    if (this.#spelled.length > 2 * KEEP_TOKENS) this.#spelled = this.#spelled.slice(-KEEP_TOKENS);
  }

  /** A run of whole words ending with the last one is a key or a near form of one. */
  #wordsLeak(): AnswerKey | undefined {
    for (const key of this.#keys) {
      let run = '';
      for (let i = this.#tokens.length - 1; i >= 0; i--) {
        run = this.#tokens[i]!.text + run;
        if (run.length > key.skeleton.length + key.edits) break;
        if (key.edits === 0) {
          if (!key.skeleton.endsWith(run)) break;
          if (run === key.skeleton) return key.answer;
        } else if (
          run.length >= key.skeleton.length - key.edits &&
          // The first letter from the word itself: asking the run joined so far would flatten it, at every word.
          this.#tokens[i]!.text.charCodeAt(0) === key.stem.charCodeAt(0) &&
          isNearForm(run, key)
        )
          return key.answer;
      }
    }
    return undefined;
  }

  /** The letters spelled out so far in the conversation end with a key, the last of them just read. */
  #spelledLeak(): AnswerKey | undefined {
    if (this.#spelled.at(-1) !== this.#tokens.at(-1)) return undefined;
    const text = this.#spelled
      .slice(-this.#reach - 1)
      .map((t) => t.text)
      .join('');
    return this.#keys.find((key) => text.endsWith(key.skeleton))?.answer;
  }

  /** The last word is a correct option's letter or number after a cue, or a verdict after its letter. */
  #optionLeak(): AnswerKey | undefined {
    const tokens = this.#tokens;
    const last = tokens.length - 1;
    const token = tokens[last]!;
    for (const { key, letter, number } of this.#options) {
      const leak = { questionIndex: key.questionIndex, key: `option ${String.fromCharCode(65 + key.option)}` };
      if (token.spelled && (token.text === letter || token.text === number)) {
        const byNumber = token.text === number && token.text !== letter;
        const article = !token.upper && (letter === 'a' || letter === 'i');
        for (let k = 1; k <= LOOKBACK && last - k >= 0; k++) {
          const before = tokens[last - k]!.text;
          if (STRONG_CUES.has(before) && (k === 1 || (!byNumber && !article))) return leak;
          if (WEAK_CUES.has(before) && !byNumber && !article && token.upper) return leak;
          if (!FILLERS.has(before)) break;
        }
      }
      if (VERDICTS.has(token.text)) {
        for (let k = 1; k <= 4 && last - k >= 0; k++) {
          const before = tokens[last - k]!;
          if (before.spelled && before.upper && before.text === letter) return leak;
          if (!FILLERS.has(before.text)) break;
        }
      }
    }
    return undefined;
  }

  /** The raw index up to which the reply may be released now. */
  #heldFrom(): number {
    // A key is at most #reach letters, an option phrase LOOKBACK words: nothing before those can be held.
    const tail: Token[] = this.#tokens.slice(-Math.max(this.#reach, LOOKBACK) - 2);
    if (this.#cur) tail.push(this.#cur);
    let held = this.#cur ? this.#raw.length : this.#gapStart;
    const hold = (i: number) => {
      const token = tail[i]!;
      held = Math.min(held, token.earlier ? 0 : token.gapStart);
    };
    // Words from which the rest may still become a key or a near form of one.
    if (this.#keys.length) {
      let run = '';
      for (let i = tail.length - 1; i >= 0; i--) {
        const first = tail[i]!.text.charCodeAt(0);
        run = tail[i]!.text + run;
        if (run.length > this.#reach) break;
        if (!this.#firstLetters.has(first)) continue;
        if (this.#keys.some((k) => (k.edits ? mayBecomeNearForm(run, k) : k.skeleton.startsWith(run)))) hold(i);
      }
      this.#holdSpelled(hold, tail);
    }
    if (this.#options.length) this.#holdOptionPhrase(hold, tail);
    if (this.#structured.enabled) this.#structured.hold(tail, hold);
    return held;
  }

  /** Letters being spelled out at the end of the reply, which with those before may still spell a key. */
  #holdSpelled(hold: (i: number) => void, tail: Token[]) {
    const cur = this.#cur;
    const lastClosed = this.#tokens.at(-1);
    if (cur && cur.cps !== 1) return;
    if (!lastClosed?.spelled && !cur) return;
    const members = [...this.#spelled, ...(this.#pending ? [this.#pending] : []), ...(cur ? [cur] : [])];
    let run = '';
    for (let m = members.length - 1; m >= 0; m--) {
      run = members[m]!.text + run;
      if (run.length > this.#reach) break;
      if (this.#keys.some((k) => k.skeleton.startsWith(run))) {
        const first = members.slice(m).find((t) => !t.earlier);
        const at = first ? tail.indexOf(first) : -1;
        if (at >= 0) hold(at);
      }
    }
  }

  /** An answering phrase still open at the end: a cue and fillers, or a correct letter and fillers. */
  #holdOptionPhrase(hold: (i: number) => void, tail: Token[]) {
    const cur = this.#cur;
    if (cur && CUE_WORDS.some((w) => w.startsWith(cur.text))) hold(tail.length - 1);
    const letters = new Set(this.#options.map((o) => o.letter));
    for (let i = tail.length - 1, k = 0; i >= 0 && k <= LOOKBACK; i--, k++) {
      const token = tail[i]!;
      if (STRONG_CUES.has(token.text) || WEAK_CUES.has(token.text)) hold(i);
      else if (token.spelled && token.upper && letters.has(token.text) && k <= 4) hold(i);
      else if (!FILLERS.has(token.text) && token !== cur) break;
    }
  }

  #releaseTo(rawEnd: number): string {
    if (rawEnd <= this.#released) return '';
    const out = this.#raw.slice(this.#released, rawEnd);
    this.#released = rawEnd;
    return out;
  }
}
