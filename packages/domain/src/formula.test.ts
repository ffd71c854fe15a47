import { describe, expect, it } from 'vitest';
import { evaluateFormula, FormulaError, formulaIssue, parseFormula, roundTo } from './formula.ts';

const value = (source: string, values: Record<string, number> = {}) =>
  evaluateFormula(parseFormula(source, Object.keys(values)), values);

function errorOf(source: string, variables: string[] = []): FormulaError {
  try {
    parseFormula(source, variables);
  } catch (error) {
    if (error instanceof FormulaError) return error;
    throw error;
  }
  throw new Error(`"${source}" parsed`);
}

describe('parseFormula and evaluateFormula', () => {
  it('multiplies and divides before adding and subtracting, left to right', () => {
    expect(value('2 + 3 * 4')).toBe(14);
    expect(value('(2 + 3) * 4')).toBe(20);
    expect(value('10 - 4 - 3')).toBe(3);
    expect(value('24 / 4 / 2')).toBe(3);
    expect(value('7 - 2 * 3 + 8 / 4')).toBe(3);
  });

  it('raises to a power right-associatively and before multiplying', () => {
    expect(value('2 ^ 3 ^ 2')).toBe(512);
    expect(value('(2 ^ 3) ^ 2')).toBe(64);
    expect(value('3 * 2 ^ 2')).toBe(12);
    expect(value('2 ^ -1')).toBe(0.5);
  });

  it('reads a unary minus as mathematics does: -2^2 is -(2^2)', () => {
    expect(value('-2 ^ 2')).toBe(-4);
    expect(value('(-2) ^ 2')).toBe(4);
    expect(value('--3')).toBe(3);
    expect(value('+3 - -2')).toBe(5);
    expect(value('-x * 2', { x: 4 })).toBe(-8);
  });

  it('substitutes variables and knows pi and e', () => {
    expect(value('a * b + c', { a: 2, b: 3.5, c: -1 })).toBe(6);
    expect(value('pi')).toBeCloseTo(Math.PI, 12);
    expect(value('e ^ 1')).toBeCloseTo(Math.E, 12);
    // A variable may be called e; then it is the variable.
    expect(value('e * 2', { e: 5 })).toBe(10);
  });

  it('reads numbers with decimals and exponents', () => {
    expect(value('1.5e3 + .5')).toBe(1500.5);
    expect(value('2E-2')).toBe(0.02);
  });

  it('calls every function with its arguments', () => {
    expect(value('sqrt(16)')).toBe(4);
    expect(value('abs(-3)')).toBe(3);
    expect(value('exp(0)')).toBe(1);
    expect(value('ln(e)')).toBeCloseTo(1, 12);
    expect(value('log10(1000)')).toBeCloseTo(3, 12);
    expect(value('sin(0) + cos(0) + tan(0)')).toBe(1);
    expect(value('asin(1)')).toBeCloseTo(Math.PI / 2, 12);
    expect(value('acos(1) + atan(0)')).toBe(0);
    expect(value('floor(2.7) + ceil(2.1)')).toBe(5);
    expect(value('round(2.345, 2)')).toBe(2.35);
    expect(value('round(-2.5)')).toBe(-3);
    expect(value('min(4, 2, 9) + max(4, 2, 9)')).toBe(11);
    expect(value('sqrt(a^2 + b^2)', { a: 3, b: 4 })).toBe(5);
  });

  it('gives NaN or Infinity where the formula has no value, never throwing', () => {
    expect(value('1 / x', { x: 0 })).toBe(Infinity);
    expect(value('sqrt(-1)')).toBeNaN();
    expect(value('ln(0)')).toBe(-Infinity);
  });

  it('names an unknown variable or function with where it is', () => {
    const unknownVariable = errorOf('a + bb', ['a']);
    expect(unknownVariable.message).toBe('Unknown variable "bb"');
    expect(unknownVariable.at).toBe(4);
    const unknownFunction = errorOf('system(1)');
    expect(unknownFunction.message).toBe('Unknown function "system"');
    expect(unknownFunction.at).toBe(0);
  });

  it('refuses what is not in the grammar: stray characters, unbalanced parentheses, wrong arity', () => {
    expect(errorOf('a = 1', ['a']).message).toBe('Unexpected "="');
    expect(errorOf('x.y', ['x']).message).toMatch(/Unexpected/);
    expect(errorOf('(1 + 2').message).toBe('Expected ")"');
    expect(errorOf('1 + 2)').message).toBe('Unexpected ")"');
    expect(errorOf('1 +').message).toBe('The formula ends too soon');
    expect(errorOf('sqrt(1, 2)').message).toBe('sqrt takes 1 argument');
    expect(errorOf('min(1)').message).toBe('min takes 2 to 10 arguments');
    expect(errorOf('round()').message).toBe('round takes 1 to 2 arguments');
  });
});

describe('formulaIssue', () => {
  it('says what is wrong and where, counting characters from 1', () => {
    expect(formulaIssue('', [])).toBe('Write the formula that computes the answer');
    expect(formulaIssue('a * q', ['a'])).toBe('Unknown variable "q" (at character 5)');
    expect(formulaIssue('a * 2', ['a'])).toBeNull();
  });
});

describe('roundTo', () => {
  it('rounds half away from zero, as written in decimal', () => {
    expect(roundTo(1.005, 2)).toBe(1.01);
    expect(roundTo(-1.005, 2)).toBe(-1.01);
    expect(roundTo(2.5, 0)).toBe(3);
    expect(roundTo(-2.5, 0)).toBe(-3);
    expect(roundTo(1234.5678, 1)).toBe(1234.6);
  });
});
