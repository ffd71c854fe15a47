import { type FormulaNode } from '@exam/domain/formula';
import { type NumericTolerance, normalizeText } from '@exam/domain/grading';
import { type Unit } from '@exam/domain/question-kinds';
import { el, escapeXml } from './xml.ts';

/**
 * QTI 3.0 expressions and rules the export writes (1EdTech QTI 3.0 ASI, "Response Processing" and "Template
 * Processing"). Each question type's condition for "right" is built here so that a QTI player computes exactly
 * what grading.ts's autoPoints does: qti-test/qti-processing.testing.ts evaluates these rules and compares.
 */

export const variable = (identifier: string) => el('qti-variable', { identifier });
export const baseValue = (baseType: string, value: string | number) =>
  el('qti-base-value', { 'base-type': baseType }, escapeXml(String(value)));
export const setOutcome = (identifier: string, expression: string) =>
  el('qti-set-outcome-value', { identifier }, expression);
const op = (name: string, ...args: string[]) => el(name, {}, ...args);
export const or = (...args: string[]) => (args.length === 1 ? args[0]! : op('qti-or', ...args));
export const and = (...args: string[]) => (args.length === 1 ? args[0]! : op('qti-and', ...args));
export const matchValue = (expr: string, baseType: string, value: string) =>
  op('qti-match', expr, baseValue(baseType, value));

/** if (condition) then … else …: a qti-response-condition. */
export function responseIf(condition: string, then: string[], otherwise: string[] = []): string {
  return el(
    'qti-response-condition',
    {},
    el('qti-response-if', {}, condition, ...then),
    ...(otherwise.length > 0 ? [el('qti-response-else', {}, ...otherwise)] : []),
  );
}

export const scoreIs = (amount: number | string) =>
  setOutcome('SCORE', typeof amount === 'number' ? baseValue('float', amount) : amount);
export const addToScore = (amount: number) =>
  setOutcome('SCORE', op('qti-sum', variable('SCORE'), baseValue('float', amount)));

/** SCORE is MAXSCORE when the condition holds, else 0 (an all-or-nothing question). */
export const allOrNothing = (condition: string) => responseIf(condition, [scoreIs(variable('MAXSCORE'))], [scoreIs(0)]);

// ---------------------------------------------------------------------------------------------------------------
// Text: grading.ts's normalizeText (trimmed, inner whitespace collapsed, case-insensitive unless asked) as a
// pattern, since QTI's qti-string-match compares the raw string.

const REGEX_META = /[\\|.\-^?*+{}()[\]$]/g;

/**
 * An XML Schema regular expression (qti-pattern-match matches the whole string) accepting exactly the strings
 * that normalizeText makes equal to `accepted`'s: any whitespace around and between words, and each letter in
 * either case unless case-sensitive.
 */
export function answerPattern(accepted: string, caseSensitive: boolean): string {
  const words = normalizeText(accepted, caseSensitive).split(' ');
  const letter = (c: string) => {
    const upper = c.toUpperCase();
    if (caseSensitive || upper === c || upper.length !== 1) return c.replace(REGEX_META, (m) => `\\${m}`);
    return `[${c}${upper}]`;
  };
  return `\\s*${words.map((w) => [...w].map(letter).join('')).join('\\s+')}\\s*`;
}

/** A text response matching one of the accepted answers as the platform compares them. */
export function textRight(response: string, accepted: readonly string[], caseSensitive: boolean): string {
  const keyed = accepted.filter((a) => a.trim() !== '');
  return or(
    ...keyed.map((a) => el('qti-pattern-match', { pattern: answerPattern(a, caseSensitive) }, variable(response))),
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Numbers

/** A float expression equal to `expected` within the platform's tolerance (computed for a fixed key). */
export function numberEquals(expr: string, expected: number, tolerance: NumericTolerance | null): string {
  const t = tolerance
    ? tolerance.mode === 'relative'
      ? tolerance.tolerance * Math.abs(expected)
      : tolerance.tolerance
    : 0;
  const attrs = t === 0 ? { 'tolerance-mode': 'exact' } : { 'tolerance-mode': 'absolute', tolerance: `${t} ${t}` };
  return el('qti-equal', attrs, expr, baseValue('float', expected));
}

/**
 * A numeric answer with units: the number is RESPONSE (a float text entry) and the unit UNIT (a drop-down of the
 * symbols), so the value in the keyed unit is RESPONSE ÷ the unit's multiplier (grading.ts's parseQuantity). No
 * unit chosen reads as the unit with multiplier 1 unless a unit is required.
 */
export function quantityRight(
  units: readonly Unit[],
  required: boolean,
  right: (valueInKeyedUnit: string) => string,
): string {
  if (units.length === 0) return right(variable('RESPONSE'));
  return or(
    ...units.map((u, k) => {
      const value =
        u.multiplier === 1
          ? variable('RESPONSE')
          : op('qti-divide', variable('RESPONSE'), baseValue('float', u.multiplier));
      const chosen = matchValue(variable('UNIT'), 'identifier', unitId(k));
      const unit = u.multiplier === 1 && !required ? or(op('qti-is-null', variable('UNIT')), chosen) : chosen;
      return and(unit, right(value));
    }),
  );
}
export const unitId = (k: number) => `U${k + 1}`;

// ---------------------------------------------------------------------------------------------------------------
// Calculated: the formula as template processing

/** Our formula functions that are a QTI qti-math-operator, by the operator's name there (log10 is QTI's log). */
export const MATH_OPERATORS: Partial<Record<string, string>> = {
  abs: 'abs',
  exp: 'exp',
  ln: 'ln',
  log10: 'log',
  sin: 'sin',
  cos: 'cos',
  tan: 'tan',
  asin: 'asin',
  acos: 'acos',
  atan: 'atan',
  floor: 'floor',
  ceil: 'ceil',
};

/**
 * A formula (formula.ts's tree) as a QTI expression: + − × ÷ ^ are qti-sum, qti-subtract, qti-product, qti-divide
 * and qti-power; −x is −1 × x; sqrt is the power ½; pi and e are qti-math-constant; the named functions are
 * qti-math-operator (log10 is its "log"), min/max qti-min/qti-max and round(x, d) qti-round-to in decimal places.
 */
export function formulaExpression(node: FormulaNode): string {
  switch (node.kind) {
    case 'number':
      return baseValue('float', node.value);
    case 'variable':
      return variable(node.name);
    case 'constant':
      return el('qti-math-constant', { name: node.name });
    case 'negate':
      return op('qti-product', baseValue('float', -1), formulaExpression(node.operand));
    case 'binary': {
      const name = { '+': 'qti-sum', '-': 'qti-subtract', '*': 'qti-product', '/': 'qti-divide', '^': 'qti-power' }[
        node.op
      ];
      return op(name, formulaExpression(node.left), formulaExpression(node.right));
    }
    case 'call': {
      const args = node.args.map(formulaExpression);
      if (node.name === 'sqrt') return op('qti-power', args[0]!, baseValue('float', 0.5));
      if (node.name === 'min' || node.name === 'max') return op(`qti-${node.name}`, ...args);
      // round(x, d) is the RoundTo operator in decimal places (QTI 3.0 ASI Information Model, RoundTo): its
      // (d + 1)th decimal digit decides, and 5 or more raises the dth digit of the number's magnitude, i.e. halves
      // go away from zero, as formula.ts's roundTo does (−2.45 → −2.5). Round (qti-round) is never written for
      // round(x): it takes halves up (−2.5 → −2), which differs for negative halves.
      if (node.name === 'round') {
        const places = node.args[1];
        const figures = places?.kind === 'number' ? places.value : 0;
        return el('qti-round-to', { 'rounding-mode': 'decimalPlaces', figures }, args[0]!);
      }
      return el('qti-math-operator', { name: MATH_OPERATORS[node.name] ?? node.name }, ...args);
    }
  }
}

/** Why a formula cannot be written as QTI template processing, or null when it can. */
export function formulaLoss(node: FormulaNode): string | null {
  if (node.kind === 'negate') return formulaLoss(node.operand);
  if (node.kind === 'binary') return formulaLoss(node.left) ?? formulaLoss(node.right);
  if (node.kind !== 'call') return null;
  if (node.name === 'round' && node.args[1] && node.args[1].kind !== 'number')
    return 'round(x, d) with a computed d: QTI rounds to a fixed number of places';
  for (const arg of node.args) {
    const loss = formulaLoss(arg);
    if (loss) return loss;
  }
  return null;
}
