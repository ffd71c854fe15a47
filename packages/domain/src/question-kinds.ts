import { z } from 'zod';
import { formulaIssue } from './formula.ts';

/**
 * The fields of the question types beyond multiple choice, short answer, file upload and coding
 * (docs/product.md#question-types): essay, true/false, ordering, matching, fill-in-the-blanks, numeric with units
 * and calculated, the creator's feedback every type carries, and how each type's answer travels as a string.
 *
 * Every answer is a string (the answer store, the timeline's operations and the CSV all hold strings); the
 * structured ones are JSON written and read only by the codecs below, so a hand-edited or truncated value
 * decodes to "no answer" rather than throwing.
 *
 * This module imports nothing of the domain but zod and formula.ts, so question.ts and grading.ts can both read it.
 */

const text = (max: number) => z.string().max(max);

// ---------------------------------------------------------------------------------------------------------------
// Feedback (every type)

/**
 * What the creator tells a candidate about a question: always (`general`), when the answer earned full points
 * (`correct`), some but not all (`partial`, falling back to `incorrect` when empty), or none (`incorrect`).
 * Shown while a practice exam is sat (practice.ts) and in a released result's review; never before.
 */
export const QuestionFeedbackSchema = z.object({
  general: text(5000).default(''),
  correct: text(5000).default(''),
  partial: text(5000).default(''),
  incorrect: text(5000).default(''),
});
export type QuestionFeedback = z.infer<typeof QuestionFeedbackSchema>;
export const EMPTY_FEEDBACK: QuestionFeedback = { general: '', correct: '', partial: '', incorrect: '' };

// ---------------------------------------------------------------------------------------------------------------
// Essay

export const EssaySettingsSchema = z.object({
  /** Words the answer should have at least / at most; null: no limit. The candidate sees a live count. */
  minWords: z.number().int().min(1).max(100_000).nullable().default(null),
  maxWords: z.number().int().min(1).max(100_000).nullable().default(null),
  /** The candidate writes in a formatted editor (bold, lists, code, headings), stored as Markdown. */
  formatted: z.boolean().default(false),
});
export type EssaySettings = z.infer<typeof EssaySettingsSchema>;
export const DEFAULT_ESSAY: EssaySettings = { minWords: null, maxWords: null, formatted: false };

/** Words as the essay's counter counts them: runs of letters, digits, apostrophes and hyphens. */
export function countWords(value: string): number {
  return value.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu)?.length ?? 0;
}

// ---------------------------------------------------------------------------------------------------------------
// True/false

/** A true/false question's key (`correctAnswer`) and answer are one of these; the screens say them in words. */
export const TRUE_FALSE = ['true', 'false'] as const;
export type TrueFalse = (typeof TRUE_FALSE)[number];

// ---------------------------------------------------------------------------------------------------------------
// Ordering

/**
 * An ordering question's `items` are written in the right order; the candidate gets them shuffled (never in
 * the right order when there are two or more distinct orders) and arranges them with "move up/down" buttons or
 * by picking a position, never by drag alone. The answer is the items' texts in the candidate's order.
 *
 * Partial credit (`scoring: 'partial'`) counts the right order's neighbouring pairs (item k directly before item
 * k + 1) that stand next to each other in that order in the answer: points × pairs kept / (n − 1). This is
 * Moodle's ordering question's "relative to the next item (excluding last)" grading
 * (docs.moodle.org/en/Ordering_question_type), chosen because QTI response processing can express it exactly.
 */
export const OrderingItemsSchema = z.array(text(1000)).max(20);

// ---------------------------------------------------------------------------------------------------------------
// Matching

/**
 * A matching question: each prompt has one right answer among the answers of every pair plus the distractors.
 * The candidate picks an answer for each prompt from a list (a select per prompt). Partial credit: points ×
 * right pairs / pairs; all-or-nothing: every pair right. An answer may be the right one of several prompts.
 */
export const MatchPairSchema = z.object({ prompt: text(1000), answer: text(1000) });
export type MatchPair = z.infer<typeof MatchPairSchema>;

// ---------------------------------------------------------------------------------------------------------------
// Fill in the blanks

export const BLANK_KINDS = ['text', 'numeric', 'choice'] as const;
export type BlankKind = (typeof BLANK_KINDS)[number];

/**
 * One gap of a fill-in-the-blanks question. `text`: any of `accepted` (compared as the question's `matching`
 * says: trimmed, spaces collapsed, case-insensitive unless caseSensitive); `numeric`: any of `accepted` within
 * `tolerance` (absolute); `choice`: a drop-down of `options`, right when it is one of `accepted`.
 * `weight` shares the question's points among gaps (Moodle cloze's per-gap weight); equal by default.
 */
export const BlankSchema = z.object({
  kind: z.enum(BLANK_KINDS).default('text'),
  accepted: z.array(text(500)).min(1, 'A gap needs at least one accepted answer').max(20),
  options: z.array(text(500)).max(20).default([]),
  tolerance: z.number().min(0).max(1e12).default(0),
  weight: z.number().positive().max(100).default(1),
});
export type Blank = z.infer<typeof BlankSchema>;

/** A gap in `gapText` is `[[n]]`, n counting the question's `blanks` from 1. */
export const GAP_MARKER = /\[\[(\d{1,2})\]\]/g;

/**
 * `gapText` cut at its gaps: text runs and gap numbers (0-based) in order. The candidate's page, the grader's and
 * every export read the text through this one function.
 */
export function splitGapText(gapText: string): Array<{ text: string } | { gap: number }> {
  const parts: Array<{ text: string } | { gap: number }> = [];
  let last = 0;
  for (const m of gapText.matchAll(GAP_MARKER)) {
    if (m.index > last) parts.push({ text: gapText.slice(last, m.index) });
    parts.push({ gap: Number(m[1]) - 1 });
    last = m.index + m[0].length;
  }
  if (last < gapText.length) parts.push({ text: gapText.slice(last) });
  return parts;
}

// ---------------------------------------------------------------------------------------------------------------
// Numeric with units, and calculated

/**
 * A unit the answer may be given in. As in Moodle's numerical question, the key is in the unit whose
 * multiplier is 1, and an answer in a unit with multiplier m is that value × m: with "m" (1) and "cm" (100),
 * 12.5 cm is 0.125 m. Symbols are compared exactly after trimming ("m" and "M" differ).
 */
export const UnitSchema = z.object({
  symbol: text(20).min(1, 'A unit needs a symbol'),
  multiplier: z.number().positive().max(1e15),
});
export type Unit = z.infer<typeof UnitSchema>;

export const UnitSettingsSchema = z.object({
  units: z.array(UnitSchema).max(20).default([]),
  /** The answer must name one of the units; otherwise a bare number is read in the unit whose multiplier is 1. */
  required: z.boolean().default(false),
});
export type UnitSettings = z.infer<typeof UnitSettingsSchema>;
export const DEFAULT_UNITS: UnitSettings = { units: [], required: false };

/** A variable of a calculated question: drawn uniformly in [min, max], rounded to `decimals` places. */
export const CalculatedVariableSchema = z.object({
  name: z
    .string()
    .regex(/^[A-Za-z][A-Za-z0-9_]{0,30}$/, 'A variable name is a letter followed by letters, digits or _'),
  min: z.number().min(-1e12).max(1e12),
  max: z.number().min(-1e12).max(1e12),
  decimals: z.number().int().min(0).max(6).default(0),
});
export type CalculatedVariable = z.infer<typeof CalculatedVariableSchema>;

/**
 * A calculated question: `{name}` in its title or content is replaced by the candidate's value; the key is
 * `formula` (formula.ts's grammar) evaluated on those values, rounded to `answerDecimals` places when set, and
 * scored with the question's `matching.numeric` tolerance and `units`. `values` is set only on a question
 * instantiated for one attempt (calculated.ts), which lives in the attempt's server-side snapshot; a question as
 * the creator authors it has `values: null`.
 */
export const CalculatedSettingsSchema = z.object({
  formula: text(2000),
  variables: z.array(CalculatedVariableSchema).max(20).default([]),
  answerDecimals: z.number().int().min(0).max(10).nullable().default(null),
  values: z.record(z.string(), z.number()).nullable().default(null),
});
export type CalculatedSettings = z.infer<typeof CalculatedSettingsSchema>;

// ---------------------------------------------------------------------------------------------------------------
// Answer codecs

function decodeJsonArray(answer: string | null | undefined): unknown[] | undefined {
  if (!answer) return undefined;
  try {
    const parsed: unknown = JSON.parse(answer);
    return Array.isArray(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** Ordering: the item texts in the candidate's order. */
export function encodeOrder(items: readonly string[]): string {
  return JSON.stringify([...items]);
}
export function decodeOrder(answer: string | null | undefined): string[] {
  return (decodeJsonArray(answer) ?? []).filter((v): v is string => typeof v === 'string');
}

/** Matching: for each prompt (by its index), the answer text chosen, '' when none. */
export function encodeMatches(chosen: readonly string[]): string {
  return JSON.stringify([...chosen]);
}
export function decodeMatches(answer: string | null | undefined, prompts: number): string[] {
  const values = decodeJsonArray(answer) ?? [];
  return Array.from({ length: prompts }, (_v, i) => (typeof values[i] === 'string' ? (values[i] as string) : ''));
}

/** Fill in the blanks: for each gap (by its index), what the candidate wrote or chose, '' when nothing. */
export function encodeBlanks(values: readonly string[]): string {
  return JSON.stringify([...values]);
}
export function decodeBlanks(answer: string | null | undefined, gaps: number): string[] {
  return decodeMatches(answer, gaps);
}

// ---------------------------------------------------------------------------------------------------------------
// What the creator must have written for each type

type KindFields = {
  type: string;
  correctAnswer?: string | undefined;
  acceptedAnswers: string[];
  essay: EssaySettings;
  items: string[];
  pairs: MatchPair[];
  distractors: string[];
  gapText: string;
  blanks: Blank[];
  units: UnitSettings;
  calculated: CalculatedSettings | null;
  optionFeedback: string[];
  options: string[];
};

type Issue = { path: Array<string | number>; message: string };

const isNumber = (value: string) => /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(value.trim());

function duplicates(values: readonly string[]): number[] {
  const seen = new Set<string>();
  const out: number[] = [];
  values.forEach((v, i) => {
    const key = v.trim();
    if (seen.has(key)) out.push(i);
    seen.add(key);
  });
  return out;
}

function unitIssues(units: UnitSettings): Issue[] {
  const issues: Issue[] = [];
  for (const i of duplicates(units.units.map((u) => u.symbol)))
    issues.push({ path: ['units', 'units', i, 'symbol'], message: 'Each unit appears once' });
  if (units.units.length > 0 && !units.units.some((u) => u.multiplier === 1))
    issues.push({ path: ['units', 'units'], message: 'One unit has multiplier 1: the unit the answer is keyed in' });
  if (units.required && units.units.length === 0)
    issues.push({ path: ['units', 'required'], message: 'Add the units an answer may be given in' });
  return issues;
}

/** The problems of a question of the further types, each with the field it is about. */
export function questionKindIssues(q: KindFields): Issue[] {
  const issues: Issue[] = [];
  switch (q.type) {
    case 'essay':
      if (q.essay.minWords !== null && q.essay.maxWords !== null && q.essay.minWords > q.essay.maxWords)
        issues.push({ path: ['essay', 'maxWords'], message: 'The word limit is below the minimum' });
      break;
    case 'true-false':
      if (!(TRUE_FALSE as readonly (string | undefined)[]).includes(q.correctAnswer))
        issues.push({ path: ['correctAnswer'], message: 'Choose whether the statement is true or false' });
      break;
    case 'ordering':
      if (q.items.length < 2)
        issues.push({ path: ['items'], message: 'An ordering question needs at least two items' });
      q.items.forEach((item, i) => {
        if (item.trim() === '') issues.push({ path: ['items', i], message: 'Write the item' });
      });
      for (const i of duplicates(q.items)) issues.push({ path: ['items', i], message: 'Each item appears once' });
      break;
    case 'matching':
      if (q.pairs.length < 2) issues.push({ path: ['pairs'], message: 'A matching question needs at least two pairs' });
      q.pairs.forEach((pair, i) => {
        if (pair.prompt.trim() === '') issues.push({ path: ['pairs', i, 'prompt'], message: 'Write the prompt' });
        if (pair.answer.trim() === '') issues.push({ path: ['pairs', i, 'answer'], message: 'Write the answer' });
      });
      for (const i of duplicates(q.pairs.map((p) => p.prompt)))
        issues.push({ path: ['pairs', i, 'prompt'], message: 'Each prompt appears once' });
      q.distractors.forEach((d, i) => {
        if (d.trim() === '') issues.push({ path: ['distractors', i], message: 'Write the distractor' });
        else if (q.pairs.some((p) => p.answer.trim() === d.trim()))
          issues.push({ path: ['distractors', i], message: 'A distractor is not also a right answer' });
      });
      break;
    case 'fill-blanks': {
      const gaps = splitGapText(q.gapText).flatMap((part) => ('gap' in part ? [part.gap] : []));
      if (gaps.length === 0) issues.push({ path: ['gapText'], message: 'Mark at least one gap as [[1]]' });
      const seen = new Set<number>();
      for (const gap of gaps) {
        if (gap < 0 || gap >= q.blanks.length)
          issues.push({ path: ['gapText'], message: `[[${gap + 1}]] has no gap: add gap ${gap + 1}` });
        else if (seen.has(gap)) issues.push({ path: ['gapText'], message: `[[${gap + 1}]] appears twice` });
        seen.add(gap);
      }
      q.blanks.forEach((blank, i) => {
        if (!seen.has(i))
          issues.push({ path: ['blanks', i], message: `Gap ${i + 1} is not in the text as [[${i + 1}]]` });
        blank.accepted.forEach((a, k) => {
          if (a.trim() === '') issues.push({ path: ['blanks', i, 'accepted', k], message: 'Write the answer' });
          else if (blank.kind === 'numeric' && !isNumber(a))
            issues.push({ path: ['blanks', i, 'accepted', k], message: 'A numeric gap is keyed by a number' });
          else if (blank.kind === 'choice' && !blank.options.includes(a))
            issues.push({ path: ['blanks', i, 'accepted', k], message: 'The right answer must be one of the options' });
        });
        if (blank.kind === 'choice' && blank.options.length < 2)
          issues.push({ path: ['blanks', i, 'options'], message: 'A drop-down gap needs at least two options' });
      });
      break;
    }
    case 'numeric':
      if (!q.acceptedAnswers.some((a) => a.trim() !== ''))
        issues.push({ path: ['acceptedAnswers'], message: 'Write the right value' });
      q.acceptedAnswers.forEach((a, i) => {
        if (a.trim() !== '' && !isNumber(a))
          issues.push({
            path: ['acceptedAnswers', i],
            message: 'The right value is a number (in the unit with multiplier 1)',
          });
      });
      issues.push(...unitIssues(q.units));
      break;
    case 'calculated': {
      if (!q.calculated) {
        issues.push({ path: ['calculated'], message: 'Define the variables and the formula' });
        break;
      }
      const names = q.calculated.variables.map((v) => v.name);
      for (const i of duplicates(names))
        issues.push({ path: ['calculated', 'variables', i, 'name'], message: 'Each variable has its own name' });
      q.calculated.variables.forEach((v, i) => {
        if (v.min > v.max)
          issues.push({ path: ['calculated', 'variables', i, 'max'], message: 'The maximum is below the minimum' });
      });
      const problem = formulaIssue(q.calculated.formula, names);
      if (problem) issues.push({ path: ['calculated', 'formula'], message: problem });
      issues.push(...unitIssues(q.units));
      break;
    }
  }
  if (q.optionFeedback.length > Math.max(q.options.length, q.type === 'true-false' ? 2 : 0))
    issues.push({ path: ['optionFeedback'], message: 'Feedback is given per option: one per option at most' });
  return issues;
}
