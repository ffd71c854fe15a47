import { encodeBlanks, encodeMatches, encodeOrder, splitGapText } from '@exam/domain/question-kinds';
import { answerParts, matchesQuantity, parseQuantity, type NumericTolerance } from '@exam/domain/grading';
import type { Question } from '@exam/domain/question';
import { NO_ANSWER } from '@exam/domain/result';

/**
 * The structured answers of the further question types, read back for the grader's screens.
 *
 * Result and grading-by-question pages receive each answer as @exam/domain/answer-text writes it ("1. a; 2. b",
 * "France → Paris; Spain → —", "The capital is [Paris].") and the key likewise; the structure (items, prompts,
 * gaps, units, tolerance) is on the exam the page loads. Reading the text against that structure gives back what
 * the candidate chose, piece by piece. When the text does not fit the exam's question (it was edited since), the
 * reader says so (undefined) and the screen falls back to the text as it came.
 */

/** The text of no answer, as answerText gives it. */
const isBlank = (text: string) => text.trim() === '' || text === NO_ANSWER;

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

type Shown = { answer: string; correctAnswer: string | null; parts?: boolean[] | null | undefined };

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

/** The server's parts when they fit the question, else the domain's own reckoning of the answer read back. */
function partsFor(question: Question, shown: Shown, raw: string, count: number): boolean[] {
  if (shown.parts && shown.parts.length === count) return shown.parts;
  return answerParts(question, raw) ?? [];
}

/** The accepted values of a numeric or calculated key ("0.125 m | 0.13 m"), without the key's unit. */
function keyValues(correctAnswer: string | null, unit: string | undefined): string[] {
  if (!correctAnswer) return [];
  return correctAnswer
    .split(' | ')
    .map((value) => (unit && value.endsWith(` ${unit}`) ? value.slice(0, -unit.length - 1) : value).trim());
}

function readQuantity(
  question: Question,
  shown: Shown,
  calculatedValues: Record<string, number> | null | undefined,
): QuantityView {
  const unit = question.units.units.find((u) => u.multiplier === 1)?.symbol;
  const accepted = keyValues(shown.correctAnswer, unit);
  const tolerance = toleranceText(question.matching.numeric, unit);
  const blank = isBlank(shown.answer);
  const value = blank ? undefined : parseQuantity(shown.answer, question.units);
  const bare = blank ? undefined : parseQuantity(shown.answer, { units: [], required: false });
  // Worth saying only when the candidate named another unit than the key's.
  const converted = value !== undefined && bare !== value && unit ? `${Number(value.toPrecision(12))} ${unit}` : null;
  const variables = question.calculated?.variables.map((v) => v.name) ?? [];
  const names = [...new Set([...variables, ...Object.keys(calculatedValues ?? {})])];
  const decimals = new Map(question.calculated?.variables.map((v) => [v.name, v.decimals]));
  return {
    kind: 'quantity',
    given: blank ? '' : shown.answer,
    converted,
    keys: accepted.map((a) => [a, unit, tolerance].filter(Boolean).join(' ')),
    isRight:
      accepted.length === 0
        ? null
        : !blank && matchesQuantity(shown.answer, accepted, question.units, question.matching.numeric),
    values: names.flatMap((name) => {
      const v = calculatedValues?.[name];
      if (v === undefined) return [];
      const d = decimals.get(name);
      return [{ name, value: d === undefined ? String(v) : v.toFixed(d) }];
    }),
  };
}

/**
 * The answer of one of the further types laid out for the grader, from the answer and key as the server wrote
 * them and the exam's question; undefined for the other types, or when the text does not fit the question.
 */
export function readAnswer(
  question: Question | undefined,
  shown: Shown & { questionType: string; calculatedValues?: Record<string, number> | null | undefined },
): AnswerView | undefined {
  if (!question || question.type !== shown.questionType) return undefined;
  switch (question.type) {
    case 'ordering': {
      const given = readOrder(shown.answer, question.items);
      if (!given) return undefined;
      const right = question.items;
      const kept = partsFor(question, shown, encodeOrder(given), Math.max(0, right.length - 1));
      return {
        kind: 'ordering',
        given,
        right,
        pairs: right.slice(0, -1).map((first, k) => ({ first, second: right[k + 1]!, kept: kept[k] ?? false })),
      };
    }
    case 'matching': {
      const chosen = readMatches(
        shown.answer,
        question.pairs.map((p) => p.prompt),
      );
      if (!chosen) return undefined;
      const rightParts = partsFor(question, shown, encodeMatches(chosen), question.pairs.length);
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
      const values = readBlanks(shown.answer, question.gapText, question.blanks.length);
      if (!values) return undefined;
      const rightParts = partsFor(question, shown, encodeBlanks(values), question.blanks.length);
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
      return readQuantity(question, shown, shown.calculatedValues);
    case 'true-false':
      return { kind: 'true-false', given: isBlank(shown.answer) ? null : shown.answer, key: shown.correctAnswer };
    case 'essay':
      return {
        kind: 'essay',
        text: isBlank(shown.answer) ? '' : shown.answer,
        formatted: question.essay.formatted,
        minWords: question.essay.minWords,
        maxWords: question.essay.maxWords,
      };
    default:
      return undefined;
  }
}
