import { hashSeed, mulberry32 } from './arrangement.ts';
import { evaluateFormula, parseFormula, roundTo } from './formula.ts';
import type { CalculatedVariable } from './question-kinds.ts';
import type { Question } from './question.ts';

/**
 * A calculated question for one attempt (docs/product.md#question-types): each candidate gets their own values,
 * drawn reproducibly from the attempt's seed and the question's id, and the key is computed here, on the server,
 * when the attempt starts. The instantiated question (values substituted into its title and content, the key in
 * `acceptedAnswers`) is what the attempt's snapshot keeps and scoring reads; the candidate's view of it
 * (toPublicQuestion) carries the text with the values and never the formula, the values' ranges or the key.
 */

/** A value drawn uniformly among the multiples of 10^-decimals in [min, max] (both ends as likely as the rest). */
export function drawValue(variable: CalculatedVariable, random: () => number): number {
  const scale = 10 ** variable.decimals;
  const low = Math.ceil(variable.min * scale - 1e-9);
  const high = Math.floor(variable.max * scale + 1e-9);
  if (high <= low) return roundTo(low / scale, variable.decimals);
  const k = low + Math.floor(random() * (high - low + 1));
  return roundTo(k / scale, variable.decimals);
}

/** How many draws are tried before giving up on values for which the formula has a finite value. */
export const MAX_DRAWS = 100;

/** The seed of one question's values in one attempt. */
export const calculatedSeed = (attemptSeed: string, questionId: string) => `${attemptSeed}:calculated:${questionId}`;

/**
 * The values of a calculated question for a seed: the first draw (of at most MAX_DRAWS) for which the formula
 * is finite; null when none is (the question then waits for a grader rather than keying a wrong number).
 */
export function drawValues(
  q: Pick<Question, 'calculated'>,
  seed: string,
): { values: Record<string, number>; key: number } | null {
  const calc = q.calculated;
  if (!calc) return null;
  const tree = parseFormula(
    calc.formula,
    calc.variables.map((v) => v.name),
  );
  const random = mulberry32(hashSeed(seed));
  for (let attempt = 0; attempt < MAX_DRAWS; attempt++) {
    const values = Object.fromEntries(calc.variables.map((v) => [v.name, drawValue(v, random)]));
    const raw = evaluateFormula(tree, values);
    if (Number.isFinite(raw)) {
      return { values, key: calc.answerDecimals === null ? raw : roundTo(raw, calc.answerDecimals) };
    }
  }
  return null;
}

/** A drawn value as the candidate reads it: exactly its variable's decimals ("3.50" for two). */
export function formatValue(value: number, decimals: number): string {
  return value.toFixed(decimals);
}

/** `{name}` of each declared variable replaced by its value; any other brace text left as written. */
export function substituteValues(
  text: string,
  variables: readonly CalculatedVariable[],
  values: Readonly<Record<string, number>>,
): string {
  const byName = new Map(variables.map((v) => [v.name, v]));
  return text.replace(/\{([A-Za-z][A-Za-z0-9_]{0,30})\}/g, (whole, name: string) => {
    const variable = byName.get(name);
    const value = values[name];
    return variable && value !== undefined ? formatValue(value, variable.decimals) : whole;
  });
}

/** The key as a plain decimal string scoring reads ("0.125", "1200"), never in exponent form for usual sizes. */
export function formatKey(key: number): string {
  if (Math.abs(key) >= 1e-6 && Math.abs(key) < 1e15) return String(Number(key.toPrecision(15)));
  return String(key);
}

/**
 * The question as one attempt gets it. Any other type is returned unchanged. Pure and deterministic: the same
 * question and seed always give the same values, text and key (the attempt's seed never leaves the server).
 */
export function instantiateQuestion<Q extends Question>(q: Q, attemptSeed: string): Q {
  if (q.type !== 'calculated' || !q.calculated) return q;
  const drawn = drawValues(q, calculatedSeed(attemptSeed, q.id));
  if (!drawn) return { ...q, calculated: { ...q.calculated, values: {} }, acceptedAnswers: [] };
  const vars = q.calculated.variables;
  return {
    ...q,
    title: substituteValues(q.title, vars, drawn.values),
    content: substituteValues(q.content, vars, drawn.values),
    calculated: { ...q.calculated, values: drawn.values },
    acceptedAnswers: [formatKey(drawn.key)],
  };
}

/**
 * The question keyed for values a candidate was already given: the formula (maybe corrected since) evaluated on
 * them, the text left as it is. A regrade re-keys an attempt's calculated question this way, so the candidate's
 * values never change, whatever the creator does to the ranges; no key (a grader decides) when the formula has no
 * finite value there or needs a variable the candidate was never given.
 */
export function keyedForValues<Q extends Question>(q: Q, values: Readonly<Record<string, number>>): Q {
  const calc = q.calculated;
  if (q.type !== 'calculated' || !calc) return q;
  const names = calc.variables.map((v) => v.name);
  const covered = names.every((name) => values[name] !== undefined);
  let key = Number.NaN;
  if (covered) {
    try {
      key = evaluateFormula(parseFormula(calc.formula, names), values);
    } catch {
      // A formula that no longer parses keys nothing: the question waits for a grader.
    }
  }
  const finite = Number.isFinite(key);
  return {
    ...q,
    calculated: { ...calc, values: { ...values } },
    acceptedAnswers: finite ? [formatKey(calc.answerDecimals === null ? key : roundTo(key, calc.answerDecimals))] : [],
  };
}
