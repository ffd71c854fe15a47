import { matchesQuantity } from '@exam/domain/grading';
import type { AnswerKey } from './answer-keys.ts';
import { skeletonOf } from './guard-text.ts';
import {
  NUMBER_IN_TEXT,
  ORDER_GAP,
  PAIR_GAP,
  readNumber,
  significantDigits,
  type KeyShape,
} from './structured-keys.ts';

/**
 * The answer guard's reading of structured keys (structured-keys.ts says what each is): AnswerGuard hands it every
 * word it closes (folded, as guard-text.ts reads text) and the raw text of the reply, and asks it which words to
 * hold back. Phrases (ordering items, matching prompts and answers) are found as the guard finds text keys: a run
 * of whole words that is the phrase's letters. Numbers are read from the raw text, where "12.5" is one number.
 */

export type Word = { text: string; earlier: boolean };
type Shaped<K extends KeyShape['kind']> = { answer: AnswerKey; shape: Extract<KeyShape, { kind: K }> };

type Mention = { phrase: number; start: number; end: number };
type OrderState = {
  key: Shaped<'order'>;
  phrases: number[];
  need: number;
  from: number;
  length: number;
  last: Mention | undefined;
};
type PairState = {
  key: Shaped<'pairs'>;
  prompts: number[];
  answers: number[];
  phrases: Set<number>;
  last: Mention | undefined;
};

/** Words as the guard reads them (guard-text.ts folds "m" to "rn", "1" to "l", "0" to "o"). */
const set = (list: string) => new Set(list.split(' ').map(skeletonOf));
const DIGITS = '[0-9ol]';
const TRUTH_CUES = set('answer statement claim assertion solution verdict question');
const VERDICTS = set('correct right answer');
const TRUTH_FILLERS = set(
  'is the would be should must it s t probably definitely clearly so here that thus therefore final actually to in of for this given above number',
);
const NEGATORS = set('not isn wasn never');
/** After a value, these make it a choice named, not a verdict: "true or false", "true/false". */
const ALTERNATIVES = set('or and nor vs versus true false');
const TRUTH_LOOKBACK = 8;
const QUESTION_NUMBER = new RegExp(`^q${DIGITS}{1,3}$`);
const NUMBER_WORD = new RegExp(`^${DIGITS}{1,3}$`);
const isCue = (w: string) => TRUTH_CUES.has(w) || QUESTION_NUMBER.test(w);
const isFiller = (w: string) => TRUTH_FILLERS.has(w) || NUMBER_WORD.test(w);
const TRUTH_WORDS = ['true', 'false', ...TRUTH_CUES, ...VERDICTS];

/** One scanner for every guard: numbers() sets its lastIndex before each use (replies are read one at a time). */
const NUMBERS = new RegExp(NUMBER_IN_TEXT.source, 'gu');
/** Unit symbols and what may follow a number before its unit is known: letters, °, %, /, ^ and the like. */
const UNIT_ZONE = /^[ \u00a0]?(?:[\p{L}µ°Ω%/^·*][\p{L}\p{N}µ°Ω%/^·*²³⁻]{0,11})?/u;

export class StructuredWatch {
  readonly #truths: Shaped<'truth'>[];
  readonly #quantities: Shaped<'quantity'>[];
  readonly #phrases: string[] = [];
  readonly #orders: OrderState[] = [];
  readonly #pairs: PairState[] = [];
  readonly #hasUnits: boolean;
  /** Words read so far in the conversation, earlier replies included. */
  #position = -1;
  /** How far the raw text of this reply has been read for numbers. */
  #numbersFrom = 0;

  constructor(keys: ReadonlyArray<AnswerKey>) {
    const of = <K extends KeyShape['kind']>(kind: K) =>
      keys.flatMap((answer) => (answer.shape?.kind === kind ? [{ answer, shape: answer.shape } as Shaped<K>] : []));
    this.#truths = of('truth');
    this.#quantities = of('quantity');
    this.#hasUnits = this.#quantities.some((q) => q.shape.units.units.length > 0);
    for (const key of of('order')) {
      const phrases = key.shape.items.map((item) => this.#phrase(item));
      const n = phrases.length;
      this.#orders.push({ key, phrases, need: n <= 3 ? n : n - 1, from: 0, length: 0, last: undefined });
    }
    for (const key of of('pairs')) {
      const prompts = key.shape.pairs.map((p) => this.#phrase(p.prompt));
      const answers = key.shape.pairs.map((p) => this.#phrase(p.answer));
      const phrases = new Set([...prompts, ...answers, ...key.shape.others.map((o) => this.#phrase(o))]);
      this.#pairs.push({ key, prompts, answers, phrases, last: undefined });
    }
  }

  get enabled() {
    return this.#truths.length + this.#quantities.length + this.#orders.length + this.#pairs.length > 0;
  }

  /** The longest phrase, in letters: how far back a held run of words may reach. */
  get reach() {
    return this.#phrases.reduce((max, p) => Math.max(max, p.length), 0);
  }

  #phrase(text: string): number {
    const skeleton = skeletonOf(text);
    const at = this.#phrases.indexOf(skeleton);
    if (at >= 0) return at;
    this.#phrases.push(skeleton);
    return this.#phrases.length - 1;
  }

  /** A word closed (the last of `words`): the key it completes, if any. `reading`: said in this reply. */
  word(words: readonly Word[], reading: boolean): AnswerKey | undefined {
    this.#position += 1;
    const mentions = this.#mentions(words);
    let leak: AnswerKey | undefined;
    for (const state of this.#orders) leak ??= this.#order(state, mentions);
    for (const state of this.#pairs) leak ??= this.#pair(state, mentions);
    if (!reading) return undefined;
    return leak ?? this.#truth(words);
  }

  /** The phrases the run of words ending with the last one is, the longest first. */
  #mentions(words: readonly Word[]): Mention[] {
    const found: Mention[] = [];
    this.#phrases.forEach((phrase, index) => {
      let run = '';
      for (let i = words.length - 1; i >= 0; i--) {
        run = words[i]!.text + run;
        if (!phrase.endsWith(run)) break;
        if (run === phrase) {
          found.push({ phrase: index, start: this.#position - (words.length - 1 - i), end: this.#position });
          break;
        }
      }
    });
    return found.sort((a, b) => a.start - b.start);
  }

  #order(state: OrderState, mentions: Mention[]): AnswerKey | undefined {
    const mention = mentions.find((m) => state.phrases.includes(m.phrase));
    if (!mention) return undefined;
    const item = state.phrases.indexOf(mention.phrase);
    const last = state.last;
    if (last && last.phrase === mention.phrase) state.last = mention;
    else if (last && item === state.from + state.length && mention.start - last.end - 1 <= ORDER_GAP) {
      state.length += 1;
      state.last = mention;
    } else {
      state.from = item;
      state.length = 1;
      state.last = mention;
    }
    return state.length >= state.need ? state.key.answer : undefined;
  }

  #pair(state: PairState, mentions: Mention[]): AnswerKey | undefined {
    const mention = mentions.find((m) => state.phrases.has(m.phrase));
    if (!mention) return undefined;
    const last = state.last;
    state.last = mention;
    if (!last || last.phrase === mention.phrase || mention.start - last.end - 1 > PAIR_GAP) return undefined;
    const i = state.prompts.findIndex(
      (prompt, k) =>
        (prompt === last.phrase && state.answers[k] === mention.phrase) ||
        (prompt === mention.phrase && state.answers[k] === last.phrase),
    );
    if (i < 0) return undefined;
    const pair = state.key.shape.pairs[i]!;
    return { questionIndex: state.key.answer.questionIndex, key: `${pair.prompt} → ${pair.answer}` };
  }

  /**
   * The truth value stated as a verdict, if it is a key's: by the word before the last (a value is read once the
   * word after it shows it is no "true or false"), by the last when it is a verdict ("False is correct"), or by
   * the last when the reply is `complete`.
   */
  #truth(words: readonly Word[], complete = false): AnswerKey | undefined {
    if (!this.#truths.length) return undefined;
    const last = words.length - 1;
    const word = words[last]?.text ?? '';
    let stated = complete ? this.#valueAt(words, last, undefined) : undefined;
    if (!stated && last >= 1 && !words[last - 1]!.earlier) stated = this.#valueAt(words, last - 1, word);
    if (!stated && VERDICTS.has(word)) {
      for (let k = 1; k <= 4 && last - k >= 0 && !words[last - k]!.earlier; k++) {
        const before = words[last - k]!.text;
        if (before === 'true' || before === 'false') {
          stated = before;
          break;
        }
        if (!isFiller(before)) break;
      }
    }
    return stated ? this.#truths.find((t) => t.shape.value === stated)?.answer : undefined;
  }

  /** The value words[at] states, told the word after it: after a cue (negations counted), or opening the reply. */
  #valueAt(words: readonly Word[], at: number, next: string | undefined): string | undefined {
    const word = words[at]?.text;
    if ((word !== 'true' && word !== 'false') || words[at]!.earlier) return undefined;
    if (next !== undefined && ALTERNATIVES.has(next)) return undefined;
    let negated = false;
    for (let k = 1; k <= TRUTH_LOOKBACK && at - k >= 0 && !words[at - k]!.earlier; k++) {
      const before = words[at - k]!.text;
      if (NEGATORS.has(before)) negated = !negated;
      else if (isCue(before)) return negated === (word === 'true') ? 'false' : 'true';
      else if (!isFiller(before)) break;
    }
    return at === 0 || words[at - 1]!.earlier ? word : undefined;
  }

  /** The reply is complete: its last word may be a verdict no word follows. */
  finish(words: readonly Word[]): AnswerKey | undefined {
    return this.#truth(words, true);
  }

  /**
   * Holds what may still complete a structured key: a truth verdict being said, the next item of an order one item
   * short of a leak, the partner of a matching phrase just named. `words` is the tail of the conversation's words,
   * the last maybe still being read; hold(i) holds from words[i].
   */
  hold(words: readonly Word[], hold: (i: number) => void) {
    const pending: number[] = [];
    for (const state of this.#orders) {
      const next = state.from + state.length;
      if (state.length === state.need - 1 && next < state.phrases.length && this.#near(state.last, ORDER_GAP))
        pending.push(state.phrases[next]!);
    }
    for (const state of this.#pairs) {
      const last = state.last;
      if (!last || !this.#near(last, PAIR_GAP)) continue;
      state.prompts.forEach((prompt, k) => {
        if (prompt === last.phrase) pending.push(state.answers[k]!);
        if (state.answers[k] === last.phrase) pending.push(prompt);
      });
    }
    if (pending.length) {
      let run = '';
      for (let i = words.length - 1; i >= 0; i--) {
        run = words[i]!.text + run;
        if (run.length > this.reach) break;
        if (pending.some((p) => this.#phrases[p]!.startsWith(run))) hold(i);
      }
    }
    if (this.#truths.length) this.#holdTruth(words, hold);
  }

  #near(mention: Mention | undefined, gap: number) {
    return mention !== undefined && this.#position - mention.end <= gap;
  }

  #holdTruth(words: readonly Word[], hold: (i: number) => void) {
    const end = words.length - 1;
    if (end >= 0 && TRUTH_WORDS.some((w) => w.startsWith(words[end]!.text))) hold(end);
    for (let i = end, k = 0; i >= 0 && k <= TRUTH_LOOKBACK && !words[i]!.earlier; i--, k++) {
      const w = words[i]!.text;
      if (isCue(w) || w === 'true' || w === 'false') hold(i);
      else if (!isFiller(w) && !NEGATORS.has(w) && i !== end) break;
    }
  }

  /**
   * Reads the numbers of this reply's raw text not read yet. A number still open at the end (more digits, its
   * decimals or its unit may follow) is held from where it starts, unless the reply is `complete`.
   */
  numbers(raw: string, complete: boolean): { leak: AnswerKey | undefined; heldFrom: number } {
    if (!this.#quantities.length) return { leak: undefined, heldFrom: raw.length };
    const pattern = NUMBERS;
    pattern.lastIndex = this.#numbersFrom;
    for (let m = pattern.exec(raw); m; m = pattern.exec(raw)) {
      const end = m.index + m[0].length;
      const rest = raw.slice(end);
      const zone = UNIT_ZONE.exec(rest)![0];
      const open = /^(?:[.,]\d*|[eE][-+]?)?$/.test(rest) || (this.#hasUnits && zone.length === rest.length);
      if (open && !complete) return { leak: undefined, heldFrom: m.index };
      this.#numbersFrom = end + zone.length;
      pattern.lastIndex = this.#numbersFrom;
      const leak = this.#quantity(m[0], zone.trim());
      if (leak) return { leak, heldFrom: m.index };
    }
    this.#numbersFrom = Math.max(this.#numbersFrom, raw.length);
    return { leak: undefined, heldFrom: raw.length };
  }

  #quantity(written: string, unit: string): AnswerKey | undefined {
    const value = readNumber(written);
    if (value === undefined || significantDigits(value) < 2) return undefined;
    return this.#quantities.find(({ shape }) => {
      if (shape.exclude.some((n) => Math.abs(n - value) <= 1e-9 * Math.max(1, Math.abs(n)))) return false;
      const units = { units: shape.units.units, required: false };
      const named = shape.units.units.find((u) => u.symbol.trim() === unit);
      const readings = named
        ? [`${value}${named.symbol.trim()}`]
        : [String(value), ...shape.units.units.map((u) => `${value}${u.symbol.trim()}`)];
      return readings.some((r) => matchesQuantity(r, shape.accepted, units, shape.tolerance));
    })?.answer;
  }
}
