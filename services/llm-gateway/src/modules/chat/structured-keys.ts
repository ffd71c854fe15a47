import type { NumericTolerance } from '@exam/domain/grading';
import type { TrueFalse, UnitSettings } from '@exam/domain/question-kinds';
import type { PublicQuestion, Question } from '@exam/domain/question';
import { skeletonOf } from './guard-text.ts';

/**
 * The keys of the question types whose answer is not one distinctive text (docs/product.md#question-types), as the
 * "stop solutions" guard enforces them (structured-guard.ts reads them). Each rule is chosen so that ordinary
 * tutoring about the question passes and a reply that states the key does not:
 *
 * - True/false: the words "true" and "false" fill every explanation, so only a verdict is a key: the question's
 *   truth value said of its statement or answer ("the statement is false", "Q3: true", "the answer is not true"),
 *   said as a verdict ("False is correct") or opening the reply ("False. The mean…").
 * - Ordering (three items or more, each of at least MIN_PHRASE letters or digits): the items named in the right
 *   order one after the other, each within ORDER_GAP words of the one before: all of them for three items, all but
 *   one from four (the last follows). Two items are one bit, like true/false: the prompt is their only guard.
 * - Matching: a pair, that is a prompt and its right answer named within PAIR_GAP words of each other with no other
 *   prompt or answer of the question between ("France → Paris", "Paris is the capital of France").
 * - Fill-in-the-blanks: each gap's accepted answers as short-answer keys are (answer-keys.ts); a numeric gap's as
 *   a quantity below.
 * - Numeric and calculated: a number stated in the reply that scores (within the tolerance, in any of the
 *   question's units; a bare number in any of them), when the key has at least two significant digits (a key of
 *   5 or 100 is a number explanations use all the time) and the number is not one the question itself states.
 *   A calculated question's key is the candidate's own (results-service's attempt snapshot): only the candidate's
 *   chat knows it.
 */

export const MIN_PHRASE = 2;
export const ORDER_GAP = 25;
export const PAIR_GAP = 5;

export type KeyShape =
  | { kind: 'truth'; value: TrueFalse }
  | { kind: 'order'; items: string[] }
  | { kind: 'pairs'; pairs: Array<{ prompt: string; answer: string }>; others: string[] }
  | {
      kind: 'quantity';
      accepted: string[];
      units: UnitSettings;
      tolerance: NumericTolerance | null;
      /** The numbers the question itself states: saying one of them again gives nothing away. */
      exclude: number[];
    };

/** A reply's number as written, the way structured-guard.ts finds it (not glued to a word: "Q3", "x2"). */
export const NUMBER_IN_TEXT = /(?<![\p{L}\p{N}_.,])[-+−]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][-+]?\d+)?/gu;

export function readNumber(written: string): number | undefined {
  const n = Number(written.replace(/,/g, '').replace('−', '-'));
  return Number.isFinite(n) ? n : undefined;
}

/** Significant digits of a value as a number (12.50 and 12.5 both have three; 100 has one). */
export function significantDigits(value: number): number {
  const digits = Math.abs(value)
    .toPrecision(15)
    .replace(/e.*$/, '')
    .replace('.', '')
    .replace(/^0+/, '')
    .replace(/0+$/, '');
  return digits.length;
}

/** The numbers a question's text states (what the candidate reads of it). */
export function numbersIn(texts: ReadonlyArray<string | undefined>): number[] {
  const out: number[] = [];
  for (const text of texts)
    for (const m of (text ?? '').matchAll(NUMBER_IN_TEXT)) {
      const n = readNumber(m[0]);
      if (n !== undefined) out.push(n);
    }
  return out;
}

/** What the candidate reads of a question, for its own numbers. */
export const questionTexts = (q: Partial<Pick<Question, 'title' | 'content' | 'gapText' | 'options'>>) => [
  q.title,
  q.content,
  q.gapText,
  ...(q.options ?? []),
];

const phrase = (text: string) => skeletonOf(text).length >= MIN_PHRASE;

/** A quantity key when one of the accepted values is distinctive enough (see above). */
export function quantityShape(
  accepted: readonly string[],
  units: UnitSettings,
  tolerance: NumericTolerance | null,
  exclude: number[],
): KeyShape | undefined {
  const values = accepted.filter((a) => {
    const n = readNumber(a.trim());
    return a.trim() !== '' && n !== undefined && significantDigits(n) >= 2;
  });
  return values.length ? { kind: 'quantity', accepted: values, units, tolerance, exclude } : undefined;
}

type Keyed = { key: string; shape: KeyShape };

/** The structured keys of one question as the creator wrote it (a calculated question's come per attempt). */
export function shapesOf(q: Question): Keyed[] {
  switch (q.type) {
    case 'true-false':
      return q.correctAnswer === 'true' || q.correctAnswer === 'false'
        ? [{ key: q.correctAnswer, shape: { kind: 'truth', value: q.correctAnswer } }]
        : [];
    case 'ordering':
      return q.items.length >= 3 && q.items.every(phrase)
        ? [{ key: q.items.map((item, i) => `${i + 1}. ${item}`).join('; '), shape: { kind: 'order', items: q.items } }]
        : [];
    case 'matching': {
      const pairs = q.pairs.filter((p) => phrase(p.prompt) && phrase(p.answer));
      const others = [...q.pairs.flatMap((p) => [p.prompt, p.answer]), ...q.distractors].filter(phrase);
      return pairs.length
        ? [{ key: pairs.map((p) => `${p.prompt} → ${p.answer}`).join('; '), shape: { kind: 'pairs', pairs, others } }]
        : [];
    }
    case 'fill-blanks':
      return q.blanks.flatMap((blank) => {
        if (blank.kind !== 'numeric') return [];
        const shape = quantityShape(
          blank.accepted,
          { units: [], required: false },
          { tolerance: blank.tolerance, mode: 'absolute' },
          numbersIn(questionTexts(q)),
        );
        return shape ? [{ key: blank.accepted.join(' | '), shape }] : [];
      });
    case 'numeric': {
      const shape = quantityShape(q.acceptedAnswers, q.units, q.matching.numeric, numbersIn(questionTexts(q)));
      return shape ? [{ key: q.acceptedAnswers.join(' | '), shape }] : [];
    }
    default:
      return [];
  }
}

/** A calculated question's key for one attempt, as results-service's internal attempt route sends it. */
export type AttemptCalculatedKey = {
  questionIndex: number;
  key: string;
  tolerance: NumericTolerance | null;
  units: UnitSettings;
};

/** The candidate's own calculated keys, the numbers of their question's text (their values) excluded. */
export function calculatedShapes(
  keys: ReadonlyArray<AttemptCalculatedKey>,
  seen: (questionIndex: number) => PublicQuestion | undefined,
): Array<Keyed & { questionIndex: number }> {
  return keys.flatMap((k) => {
    const q = seen(k.questionIndex);
    const shape = quantityShape([k.key], k.units, k.tolerance, numbersIn(q ? [q.title, q.content] : []));
    return shape ? [{ questionIndex: k.questionIndex, key: k.key, shape }] : [];
  });
}
