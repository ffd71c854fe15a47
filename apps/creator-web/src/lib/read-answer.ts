import { answerText } from '@exam/domain/answer-text';
import {
  decodeBlanks,
  decodeMatches,
  decodeOrder,
  encodeBlanks,
  encodeMatches,
  encodeOrder,
  splitGapText,
} from '@exam/domain/question-kinds';
import { answerParts, matchesQuantity, parseQuantity, type NumericTolerance } from '@exam/domain/grading';
import type { Question } from '@exam/domain/question';
import { NO_ANSWER } from '@exam/domain/result';

/**
 * The structured answers of the further question types, laid out for the grader's screens.
 *
 * Result and grading-by-question pages receive each answer as it was saved (`answerValue`: JSON for ordering,
 * matching and fill in the blanks) beside its words (`answer`, @exam/domain/answer-text); the structure (items,
 * prompts, gaps, units, tolerance) is on the exam the page loads. The saved answer is decoded with the domain's
 * codecs. Only an answer without `answerValue` (a server from before it, data cached from one) is read back from
 * its words, which an item holding "; 2. ", a prompt holding "→" or a gap value holding "]" can make ambiguous.
 * When the answer does not fit the exam's question (it was edited since), the reader says so (undefined) and the
 * screen falls back to the text as it came.
 */

/** The text of no answer, as answerText gives it. */
const isBlank = (text: string) => text.trim() === '' || text === NO_ANSWER;

// ---------------------------------------------------------------------------------------------------------------
// Reading the words back: only for answers sent without `answerValue`

/**
 * Ordering: `${i + 1}. ${item}` joined by '; '. Each entry is the longest known item that fits before the next
 * entry's number; an item the question no longer has runs up to that number.
 */
export function readOrder(text: string, items: readonly string[]): string[] | undefined {
  if (isBlank(text)) return [];
  const order: string[] = [];
  let at = 0;
  for (let k = 1; at < text.length; k++) {
    const prefix = `${k}. `;
    if (!text.startsWith(prefix, at)) return undefined;
    at += prefix.length;
    const separator = `; ${k + 1}. `;
    const fits = (item: string) =>
      text.startsWith(item, at) && (at + item.length === text.length || text.startsWith(separator, at + item.length));
    const known = [...items].sort((a, b) => b.length - a.length).find(fits);
    const end = known !== undefined ? at + known.length : text.indexOf(separator, at);
    const item = text.slice(at, end < 0 ? text.length : end);
    order.push(item);
    at = end < 0 ? text.length : end + 2;
  }
  return order;
}

/** Matching: `${prompt} → ${chosen || '—'}` per prompt, in the question's order, joined by '; '. */
export function readMatches(text: string, prompts: readonly string[]): string[] | undefined {
  if (isBlank(text)) return prompts.map(() => '');
  const chosen: string[] = [];
  let at = 0;
  for (let i = 0; i < prompts.length; i++) {
    const head = `${i > 0 ? '; ' : ''}${prompts[i]} → `;
    if (!text.startsWith(head, at)) return undefined;
    at += head.length;
    const next = prompts[i + 1];
    const end = next === undefined ? text.length : text.indexOf(`; ${next} → `, at);
    if (end < 0) return undefined;
    const value = text.slice(at, end);
    chosen.push(value === '—' ? '' : value);
    at = end;
  }
  return at === text.length ? chosen : undefined;
}

/** Fill in the blanks: the gap text with each gap's value as `[value]` ('…' for an empty gap). */
export function readBlanks(text: string, gapText: string, gaps: number): string[] | undefined {
  const values = Array.from({ length: gaps }, () => '');
  if (isBlank(text)) return values;
  const parts = splitGapText(gapText);
  let at = 0;
  for (let p = 0; p < parts.length; p++) {
    const part = parts[p]!;
    if ('text' in part) {
      if (!text.startsWith(part.text, at)) return undefined;
      at += part.text.length;
      continue;
    }
    if (text[at] !== '[') return undefined;
    const following = parts[p + 1];
    const closing = following === undefined ? null : 'text' in following ? `]${following.text}` : '][';
    const end = closing === null ? (text.endsWith(']') ? text.length - 1 : -1) : text.indexOf(closing, at + 1);
    if (end < 0) return undefined;
    const value = text.slice(at + 1, end);
    if (part.gap >= 0 && part.gap < gaps) values[part.gap] = value === '…' ? '' : value;
    at = end + 1;
  }
  return at === text.length ? values : undefined;
}

/** The tolerance of a numeric key as the grader reads it: "± 1%", "± 0.01 m"; '' when exact. */
export function toleranceText(tolerance: NumericTolerance | null, unit: string | undefined): string {
  if (!tolerance || tolerance.tolerance === 0) return '';
  if (tolerance.mode === 'relative') return `± ${Number((tolerance.tolerance * 100).toPrecision(12))}%`;
  return `± ${tolerance.tolerance}${unit ? ` ${unit}` : ''}`;
}

/** One answer as a result page or a grading-by-question row carries it. */
export type Shown = {
  answer: string;
  /** The answer as saved; null when unanswered; undefined from a server that does not send it. */
  answerValue?: string | null | undefined;
  correctAnswer: string | null;
  parts?: boolean[] | null | undefined;
  calculatedValues?: Record<string, number> | null | undefined;
};

export type OrderingView = {
  kind: 'ordering';
  given: string[];
  right: string[];
  /** The right order's neighbouring pairs (item k before item k + 1), each kept or broken in the answer. */
  pairs: Array<{ first: string; second: string; kept: boolean }>;
};
export type MatchingView = {
  kind: 'matching';
  rows: Array<{ prompt: string; chosen: string; right: string; isRight: boolean }>;
};
export type BlanksView = {
  kind: 'fill-blanks';
  pieces: Array<{ text: string } | { gap: number; value: string; accepted: string[]; isRight: boolean }>;
  right: number;
  total: number;
};
export type QuantityView = {
  kind: 'quantity';
  given: string;
  /** The answer in the key's unit, when it names another (12.5 cm → 0.125 m); null when the same or unreadable. */
  converted: string | null;
  /** Each accepted value with its unit and tolerance: "0.125 m ± 1%". */
  keys: string[];
  isRight: boolean | null;
  /** A calculated question's values for this candidate, in the variables' order. */
  values: Array<{ name: string; value: string }>;
};
export type TrueFalseView = { kind: 'true-false'; given: string | null; key: string | null };
export type EssayView = {
  kind: 'essay';
  text: string;
  formatted: boolean;
  minWords: number | null;
  maxWords: number | null;
};
export type AnswerView = OrderingView | MatchingView | BlanksView | QuantityView | TrueFalseView | EssayView;

/** Parts right of parts, for the partial-credit line; null for the types not scored in parts. */
export function partsOf(
  view: AnswerView,
): { kind: 'ordering' | 'matching' | 'fill-blanks'; right: number; total: number } | null {
  if (view.kind === 'ordering')
    return { kind: view.kind, right: view.pairs.filter((p) => p.kept).length, total: view.pairs.length };
  if (view.kind === 'matching')
    return { kind: view.kind, right: view.rows.filter((r) => r.isRight).length, total: view.rows.length };
  if (view.kind === 'fill-blanks') return { kind: view.kind, right: view.right, total: view.total };
  return null;
}

/** The server's parts when they fit the question, else the domain's own reckoning of the saved answer. */
function partsFor(question: Question, shown: Shown, saved: string | null, count: number): boolean[] {
  if (shown.parts && shown.parts.length === count) return shown.parts;
  return answerParts(question, saved ?? undefined) ?? [];
}

/** The saved answer encoded again from its words, for an answer sent without `answerValue`. */
function readSaved(question: Question, text: string): string | undefined {
  switch (question.type) {
    case 'ordering': {
      const order = readOrder(text, question.items);
      return order && encodeOrder(order);
    }
    case 'matching': {
      const chosen = readMatches(
        text,
        question.pairs.map((p) => p.prompt),
      );
      return chosen && encodeMatches(chosen);
    }
    case 'fill-blanks': {
      const values = readBlanks(text, question.gapText, question.blanks.length);
      return values && encodeBlanks(values);
    }
    default:
      return undefined;
  }
}

/**
 * An ordering, matching or fill-in-the-blanks answer as saved (null: unanswered); undefined when it does not fit
 * the exam's question. A saved answer fits when the question words it as the server did: prompts and gaps are
 * kept by position, so a question whose prompts or gap text changed since would put answers beside the wrong ones.
 */
function savedAnswer(question: Question, shown: Shown): string | null | undefined {
  if (shown.answerValue === undefined) return readSaved(question, shown.answer);
  if (shown.answerValue === null) return null;
  return answerText(question, shown.answerValue) === shown.answer ? shown.answerValue : undefined;
}

/** A numeric, calculated, true/false or essay answer as saved; '' when unanswered. */
function savedText(shown: Shown): string {
  if (shown.answerValue !== undefined) return shown.answerValue ?? '';
  return isBlank(shown.answer) ? '' : shown.answer;
}

/**
 * The accepted values of a numeric or calculated key ("0.125 ± 0.001 m | 0.13 m", as answerKeyText words it),
 * without the key's tolerance and unit.
 */
function keyValues(correctAnswer: string | null, unit: string | undefined): string[] {
  if (!correctAnswer) return [];
  return correctAnswer
    .split(' | ')
    .map((value) => value.split(' ± ')[0]!.trim())
    .map((value) => (unit && value.endsWith(` ${unit}`) ? value.slice(0, -unit.length - 1) : value).trim());
}

function readQuantity(question: Question, shown: Shown): QuantityView {
  const unit = question.units.units.find((u) => u.multiplier === 1)?.symbol;
  const accepted = keyValues(shown.correctAnswer, unit);
  const tolerance = toleranceText(question.matching.numeric, unit);
  const given = savedText(shown);
  const value = given ? parseQuantity(given, question.units) : undefined;
  const bare = given ? parseQuantity(given, { units: [], required: false }) : undefined;
  // Worth saying only when the candidate named another unit than the key's.
  const converted = value !== undefined && bare !== value && unit ? `${Number(value.toPrecision(12))} ${unit}` : null;
  const { calculatedValues } = shown;
  const variables = question.calculated?.variables.map((v) => v.name) ?? [];
  const names = [...new Set([...variables, ...Object.keys(calculatedValues ?? {})])];
  const decimals = new Map(question.calculated?.variables.map((v) => [v.name, v.decimals]));
  return {
    kind: 'quantity',
    given,
    converted,
    keys: accepted.map((a) => [a, unit, tolerance].filter(Boolean).join(' ')),
    isRight:
      accepted.length === 0
        ? null
        : given !== '' && matchesQuantity(given, accepted, question.units, question.matching.numeric),
    values: names.flatMap((name) => {
      const v = calculatedValues?.[name];
      if (v === undefined) return [];
      const d = decimals.get(name);
      return [{ name, value: d === undefined ? String(v) : v.toFixed(d) }];
    }),
  };
}

/**
 * The answer of one of the further types laid out for the grader, from the answer and key as the server sent
 * them and the exam's question; undefined for the other types, or when the answer does not fit the question.
 */
export function readAnswer(
  question: Question | undefined,
  shown: Shown & { questionType: string },
): AnswerView | undefined {
  if (!question || question.type !== shown.questionType) return undefined;
  switch (question.type) {
    case 'ordering': {
      const saved = savedAnswer(question, shown);
      if (saved === undefined) return undefined;
      const right = question.items;
      const kept = partsFor(question, shown, saved, Math.max(0, right.length - 1));
      return {
        kind: 'ordering',
        given: decodeOrder(saved),
        right,
        pairs: right.slice(0, -1).map((first, k) => ({ first, second: right[k + 1]!, kept: kept[k] ?? false })),
      };
    }
    case 'matching': {
      const saved = savedAnswer(question, shown);
      if (saved === undefined) return undefined;
      const chosen = decodeMatches(saved, question.pairs.length);
      const rightParts = partsFor(question, shown, saved, question.pairs.length);
      return {
        kind: 'matching',
        rows: question.pairs.map((p, i) => ({
          prompt: p.prompt,
          chosen: chosen[i] ?? '',
          right: p.answer,
          isRight: rightParts[i] ?? false,
        })),
      };
    }
    case 'fill-blanks': {
      const saved = savedAnswer(question, shown);
      if (saved === undefined) return undefined;
      const values = decodeBlanks(saved, question.blanks.length);
      const rightParts = partsFor(question, shown, saved, question.blanks.length);
      return {
        kind: 'fill-blanks',
        pieces: splitGapText(question.gapText).map((part) =>
          'text' in part
            ? part
            : {
                gap: part.gap,
                value: values[part.gap] ?? '',
                accepted: question.blanks[part.gap]?.accepted ?? [],
                isRight: rightParts[part.gap] ?? false,
              },
        ),
        right: rightParts.filter(Boolean).length,
        total: question.blanks.length,
      };
    }
    case 'numeric':
    case 'calculated':
      return readQuantity(question, shown);
    case 'true-false': {
      const given = savedText(shown);
      return { kind: 'true-false', given: given ? answerText(question, given) : null, key: shown.correctAnswer };
    }
    case 'essay':
      return {
        kind: 'essay',
        text: savedText(shown),
        formatted: question.essay.formatted,
        minWords: question.essay.minWords,
        maxWords: question.essay.maxWords,
      };
    default:
      return undefined;
  }
}
