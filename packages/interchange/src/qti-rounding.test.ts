import { describe, expect, it } from 'vitest';
import { evaluateFormula, parseFormula, roundTo } from '@exam/domain/formula';
import { QuestionSchema } from '@exam/domain/question';
import { itemXml } from './qti-item-export.ts';
import { readItemXml } from './qti-item-import.ts';
import { correctOf, roundToPlaces } from './qti-scoring.testing.ts';
import { descendants, parseXml } from './xml.ts';

/**
 * QTI 3.0's two roundings (ASI Information Model, the Round and RoundTo operators) against formula.ts's roundTo,
 * which takes halves away from zero: RoundTo agrees (its deciding digit raises the magnitude), Round does not
 * (−6.5 rounds up to −6), so negative halves are where an export or an import could go wrong.
 */

const INTEGERS = Array.from({ length: 19 }, (_v, i) => i - 9);
const halfUp = (x: number, d: number) => Math.floor(x * 10 ** d + 0.5) / 10 ** d;

describe('rounding in QTI as the platform rounds', () => {
  it('reads RoundTo in decimal places as halves away from zero, like the platform', () => {
    expect(roundToPlaces(-2.45, 1)).toBe(-2.5);
    expect(roundToPlaces(2.45, 1)).toBe(2.5);
    expect(roundToPlaces(-0.25, 1)).toBe(-0.3);
    expect(roundToPlaces(-2.44, 1)).toBe(-2.4);
    expect(roundToPlaces(-2.5, 0)).toBe(-3);
    for (const x of [-3.5, -1.25, -0.05, 0.05, 1.005, 7.125, -7.125])
      for (const d of [0, 1, 2]) expect(roundToPlaces(x, d), `${x} to ${d}`).toBe(roundTo(x, d));
  });

  it('exports a calculated key whose negative halves a QTI player rounds as the platform does', () => {
    const q = QuestionSchema.parse({
      id: 'halves',
      type: 'calculated',
      title: 'Halves',
      content: 'Half of {a}, rounded, plus a quarter of {a}?',
      calculated: {
        formula: 'round(a / 2) + a / 4',
        variables: [{ name: 'a', min: -9, max: 9, decimals: 0 }],
        answerDecimals: 1,
      },
    });
    const root = parseXml(itemXml(q, 'item-1', { shuffle: false }));
    expect(descendants(root, 'qti-round')).toHaveLength(0);
    const tree = parseFormula(q.calculated!.formula, ['a']);
    const keys = INTEGERS.map((a) => ({ a, key: roundTo(evaluateFormula(tree, { a }), 1) }));
    for (const { a, key } of keys) expect(correctOf(root, 'RESPONSE', { a }), `a = ${a}`).toBe(key);
    // The values tried hold negative halves, where taking halves up would give another key.
    const raw = (a: number) => Math.sign(a / 2) * Math.round(Math.abs(a / 2)) + a / 4;
    expect(keys.filter(({ a, key }) => a < 0 && halfUp(raw(a), 1) !== key).length).toBeGreaterThan(3);
    expect(correctOf(root, 'RESPONSE', { a: -5 })).toBe(-4.3);
  });

  it('imports Round as floor(x + 0.5), so a negative half keys what the QTI player keys', () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<qti-assessment-item xmlns="http://www.imsglobal.org/xsd/imsqtiasi_v3p0" identifier="round1" title="Rounded half"
  adaptive="false" time-dependent="false">
  <qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="float"/>
  <qti-outcome-declaration identifier="SCORE" cardinality="single" base-type="float"/>
  <qti-template-declaration identifier="A" cardinality="single" base-type="integer" math-variable="true"/>
  <qti-template-processing>
    <qti-set-template-value identifier="A"><qti-random-integer min="-9" max="9"/></qti-set-template-value>
    <qti-set-correct-response identifier="RESPONSE">
      <qti-round>
        <qti-divide><qti-variable identifier="A"/><qti-base-value base-type="float">2</qti-base-value></qti-divide>
      </qti-round>
    </qti-set-correct-response>
  </qti-template-processing>
  <qti-item-body>
    <p>Half of <qti-printed-variable identifier="A"/>, rounded to a whole number?</p>
    <qti-text-entry-interaction response-identifier="RESPONSE"/>
  </qti-item-body>
  <qti-response-processing template="https://purl.imsglobal.org/spec/qti/v3p0/rptemplates/match_correct"/>
</qti-assessment-item>`;
    const root = parseXml(xml);
    const read = readItemXml(root, 'Rounded half');
    if (typeof read === 'string') throw new Error(read);
    const formula = read.draft.calculated!.formula;
    expect(formula).toBe('floor(A / 2 + 0.5)');
    const tree = parseFormula(formula, ['A']);
    for (const a of INTEGERS)
      expect(evaluateFormula(tree, { A: a }), `A = ${a}`).toBe(correctOf(root, 'RESPONSE', { A: a }));
    expect(evaluateFormula(tree, { A: -5 })).toBe(-2);
    expect(evaluateFormula(tree, { A: 5 })).toBe(3);
  });
});
