import { parseFormula } from '@exam/domain/formula';
import { type Question } from '@exam/domain/question';
import { markdownToXhtml, placeholder } from './markdown-xhtml.ts';
import { type Parts } from './qti-export-parts.ts';
import { quantityParts } from './qti-export-text.ts';
import { allOrNothing, baseValue, formulaExpression, quantityRight, variable } from './qti-processing.ts';
import { el } from './xml.ts';

/**
 * Calculated: each variable drawn by template processing as the platform draws it (a whole number in range, or a
 * whole number of 10^-decimals steps divided back), the key ANSWER computed from the formula's tree and rounded
 * as set, redrawn while the formula has no value there (qti-template-constraint), and the tolerance TOL computed
 * from ANSWER with grading.ts's hair of slack.
 */
export function calculatedParts(q: Question): Parts {
  const calc = q.calculated!;
  const tree = parseFormula(
    calc.formula,
    calc.variables.map((v) => v.name),
  );
  const templates = calc.variables.map((v) =>
    el('qti-template-declaration', {
      identifier: v.name,
      cardinality: 'single',
      'base-type': v.decimals === 0 ? 'integer' : 'float',
      'math-variable': 'true',
      'param-variable': 'true',
    }),
  );
  for (const name of ['ANSWER', 'TOL'])
    templates.push(el('qti-template-declaration', { identifier: name, cardinality: 'single', 'base-type': 'float' }));
  const draws = calc.variables.map((v) => {
    const scale = 10 ** v.decimals;
    const random = el('qti-random-integer', {
      min: Math.ceil(v.min * scale - 1e-9),
      max: Math.floor(v.max * scale + 1e-9),
    });
    return el(
      'qti-set-template-value',
      { identifier: v.name },
      v.decimals === 0 ? random : el('qti-divide', {}, random, baseValue('float', scale)),
    );
  });
  const formula = formulaExpression(tree);
  // The key's rounding is RoundTo in decimal places: halves away from zero, as calculated.ts rounds the key (see
  // formulaExpression in qti-processing.ts for the specification's wording).
  const answer =
    calc.answerDecimals === null
      ? formula
      : el('qti-round-to', { 'rounding-mode': 'decimalPlaces', figures: calc.answerDecimals }, formula);
  const tolerance = q.matching.numeric ?? { tolerance: 0, mode: 'absolute' };
  const abs = (x: string) => el('qti-math-operator', { name: 'abs' }, x);
  const allowed =
    tolerance.mode === 'relative'
      ? el('qti-product', {}, baseValue('float', tolerance.tolerance), abs(variable('ANSWER')))
      : baseValue('float', tolerance.tolerance);
  const slack = el(
    'qti-product',
    {},
    baseValue('float', 1e-9),
    el('qti-max', {}, baseValue('float', 1), abs(variable('ANSWER'))),
  );
  const templateProcessing = el(
    'qti-template-processing',
    {},
    ...draws,
    el('qti-set-template-value', { identifier: 'ANSWER' }, answer),
    el('qti-template-constraint', {}, el('qti-not', {}, el('qti-is-null', {}, variable('ANSWER')))),
    el('qti-set-template-value', { identifier: 'TOL' }, el('qti-sum', {}, allowed, slack)),
    el('qti-set-correct-response', { identifier: 'RESPONSE' }, variable('ANSWER')),
  );
  const base = quantityParts(q, []);
  const within = (v: string) => el('qti-lte', {}, abs(el('qti-subtract', {}, v, variable('ANSWER'))), variable('TOL'));
  const decimals = new Map(calc.variables.map((v) => [v.name, v.decimals]));
  const content = q.content.replace(/\{([A-Za-z][A-Za-z0-9_]{0,30})\}/g, (whole, name: string) =>
    decimals.has(name) ? placeholder(`var:${name}`) : whole,
  );
  return {
    ...base,
    templates,
    templateProcessing,
    ownContent: markdownToXhtml(content, (key) =>
      el('qti-printed-variable', { identifier: key.slice(4), format: `%.${decimals.get(key.slice(4)) ?? 0}f` }),
    ),
    scoring: [allOrNothing(quantityRight(q.units.units, q.units.required, within))],
  };
}
