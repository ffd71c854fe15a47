import { parseQuantity } from '@exam/domain/grading';
import { describe, expect, it } from 'vitest';
import { composeQuantity, splitQuantity } from './quantity-answer.ts';

describe('a numeric answer with its unit', () => {
  it('is "<number> <unit>", the number alone without a unit, and nothing without a number', () => {
    expect(composeQuantity(' 12.5 ', 'cm')).toBe('12.5 cm');
    expect(composeQuantity('12.5', '')).toBe('12.5');
    expect(composeQuantity('  ', 'cm')).toBe('');
  });

  it('reads back into number and unit by the longest symbol it ends with', () => {
    expect(splitQuantity('12.5 cm', ['m', 'cm'])).toEqual({ number: '12.5', unit: 'cm' });
    expect(splitQuantity('3 m', ['m', 'cm'])).toEqual({ number: '3', unit: 'm' });
    expect(splitQuantity('3.', ['m'])).toEqual({ number: '3.', unit: '' });
    expect(splitQuantity('m', ['m'])).toEqual({ number: 'm', unit: '' });
  });

  it('is read by the scoring module as the candidate meant it', () => {
    const units = {
      units: [
        { symbol: 'm', multiplier: 1 },
        { symbol: 'cm', multiplier: 100 },
      ],
      required: true,
    };
    expect(parseQuantity(composeQuantity('12.5', 'cm'), units)).toBeCloseTo(0.125);
    expect(parseQuantity(composeQuantity('2', 'm'), units)).toBe(2);
  });
});
