import { type CalculatedVariable, type UnitSettings } from '@exam/domain/question-kinds';
import { fromMoodleFormula } from './moodle-formula.ts';
import {
  type Base,
  type Read,
  type Warn,
  answerFeedback,
  field,
  numberField,
  onlyGeneral,
  plain,
} from './moodle-fields.ts';
import { type XmlNode, child, childrenNamed, textOf } from './xml.ts';

/**
 * Numerical and calculated questions (docs.moodle.org/en/Numerical_question_type, /Calculated_question_type):
 * the answers worth 100% are the key with their tolerance, and the units an answer may be given in.
 */

// Moodle's numerical unit options (question/type/numerical): how units are shown and whether they are graded.
const SHOW_UNITS = { input: 0, radio: 1, select: 2, none: 3 } as const;

/** The units of a numerical or calculated question, or why they cannot be kept. */
function unitsOf(q: XmlNode, warn: Warn): UnitSettings | string {
  const list = childrenNamed(child(q, 'units') ?? q, 'unit').map((u) => ({
    symbol: plain(u, 'unit_name'),
    multiplier: numberField(u, 'multiplier', Number.NaN),
  }));
  if (list.length === 0) return { units: [], required: false };
  if (list.some((u) => u.symbol === '' || !(u.multiplier > 0))) return 'A unit has no name or no positive multiplier';
  const show = numberField(q, 'showunits', SHOW_UNITS.input);
  if (show === SHOW_UNITS.none) {
    warn(`Its units (${list.map((u) => u.symbol).join(', ')}) are not used in Moodle and are left out`);
    return { units: [], required: false };
  }
  const required = numberField(q, 'unitgradingtype', 0) !== 0;
  const penalty = numberField(q, 'unitpenalty', 0.1);
  if (required && penalty < 1)
    warn(`A missing or wrong unit took ${Math.round(penalty * 100)}% off in Moodle; here it earns no points`);
  if (show === SHOW_UNITS.radio || show === SHOW_UNITS.select)
    warn('Moodle offers its units to pick from; here the unit is typed after the number');
  if (numberField(q, 'unitsleft', 0) === 1)
    warn('Moodle writes its unit before the number; here it follows the number');
  return { units: list, required };
}

type NumberAnswer = { fraction: number; value: string; tolerance: number; feedback: string };

function numberAnswers(q: XmlNode): NumberAnswer[] {
  return childrenNamed(q, 'answer').map((a) => ({
    fraction: Number(a.attrs.fraction ?? 0),
    value: textOf(child(a, 'text')).trim(),
    tolerance: Math.abs(numberField(a, 'tolerance', 0)),
    feedback: field(a, 'feedback'),
  }));
}

const toleranceOf = (tolerance: number, mode: 'absolute' | 'relative') => (tolerance > 0 ? { tolerance, mode } : null);

export function numericalDraft(q: XmlNode, base: Base, warn: Warn): Read {
  const answers = numberAnswers(q);
  if (answers.some((a) => a.fraction > 0 && a.fraction < 100))
    return 'It gives part of the points for some numbers; a numeric question here is right or wrong';
  const right = answers.filter((a) => a.fraction === 100);
  if (right.length === 0) return 'No number is marked right';
  if (right.some((a) => a.value === '*' || !Number.isFinite(Number(a.value))))
    return 'An accepted answer is not a number';
  if (new Set(right.map((a) => a.tolerance)).size > 1)
    return 'The accepted numbers have different tolerances; here one tolerance applies to all';
  const units = unitsOf(q, warn);
  if (typeof units === 'string') return units;
  const catchAll = answers.find((a) => a.fraction <= 0 && a.value === '*');
  const feedback = answerFeedback(right, catchAll, answers, warn);
  return {
    ...base,
    type: 'numeric',
    acceptedAnswers: right.map((a) => a.value),
    matching: { caseSensitive: false, numeric: toleranceOf(right[0]!.tolerance, 'absolute') },
    units,
    feedback: { ...onlyGeneral(base.feedback, warn), ...feedback },
  };
}

const VARIABLE_NAME = /^[A-Za-z][A-Za-z0-9_]{0,30}$/;

function variablesOf(q: XmlNode, warn: Warn): CalculatedVariable[] | string {
  const defs = childrenNamed(child(q, 'dataset_definitions') ?? q, 'dataset_definition');
  const out: CalculatedVariable[] = [];
  for (const def of defs) {
    const text = (name: string) => textOf(child(child(def, name) ?? def, 'text')).trim();
    const name = text('name');
    if (!VARIABLE_NAME.test(name)) return `Its variable {${name}} is not a name this platform reads (a letter first)`;
    const min = Number(text('minimum'));
    const max = Number(text('maximum'));
    if (text('minimum') === '' || text('maximum') === '' || !Number.isFinite(min) || !Number.isFinite(max))
      return `Its variable {${name}} has no range (minimum and maximum)`;
    let decimals = Number(text('decimals') || 0);
    if (!Number.isInteger(decimals) || decimals < 0) decimals = 0;
    if (decimals > 6) {
      warn(`Its variable {${name}} has ${decimals} decimals; here a value has at most 6`);
      decimals = 6;
    }
    if (text('distribution') === 'loguniform')
      warn(`Its variable {${name}} is drawn log-uniformly in Moodle; here uniformly`);
    out.push({ name, min: Math.min(min, max), max: Math.max(min, max), decimals });
  }
  return out;
}

/** Moodle's tolerance types: relative (1) and nominal (2, absolute) map; geometric (3) is read as relative. */
const TOLERANCE_TYPES: Record<number, 'relative' | 'absolute'> = { 1: 'relative', 2: 'absolute', 3: 'relative' };

export function calculatedDraft(q: XmlNode, base: Base, warn: Warn): Read {
  if (/\{=/.test(base.content))
    return 'Its text shows computed values ({=…}), which question text here cannot: only {variable} values';
  const variables = variablesOf(q, warn);
  if (typeof variables === 'string') return variables;
  const answers = childrenNamed(q, 'answer');
  const right = answers.filter((a) => Number(a.attrs.fraction ?? 0) === 100);
  if (right.length !== 1) return `${right.length} formulas are marked right; here one formula is the key`;
  if (answers.some((a) => Number(a.attrs.fraction ?? 0) > 0 && Number(a.attrs.fraction ?? 0) < 100))
    warn('Its formulas that give part of the points are not carried over');
  const answer = right[0]!;
  let formula: string;
  try {
    formula = fromMoodleFormula(
      textOf(child(answer, 'text')),
      variables.map((v) => v.name),
    );
  } catch (error) {
    return (error as Error).message;
  }
  const toleranceType = numberField(answer, 'tolerancetype', 1);
  if (toleranceType === 3) warn('Its geometric tolerance is read as a relative tolerance here');
  const mode = TOLERANCE_TYPES[toleranceType] ?? 'relative';
  const tolerance = Math.abs(numberField(answer, 'tolerance', 0.01));
  const length = Math.round(numberField(answer, 'correctanswerlength', 2));
  let answerDecimals: number | null = Math.min(10, Math.max(0, length));
  if (numberField(answer, 'correctanswerformat', 1) === 2) {
    if (length < 9) warn(`Its key is rounded to ${length} significant figures in Moodle; here it is not rounded`);
    answerDecimals = null;
  }
  const units = unitsOf(q, warn);
  if (typeof units === 'string') return units;
  const correct = field(answer, 'feedback');
  return {
    ...base,
    type: 'calculated',
    calculated: { formula, variables, answerDecimals, values: null },
    matching: { caseSensitive: false, numeric: toleranceOf(tolerance, mode) },
    units,
    feedback: { ...onlyGeneral(base.feedback, warn), correct },
  };
}
