import { describe, expect, it } from 'vitest';
import {
  calculatedSeed,
  drawValue,
  drawValues,
  formatKey,
  instantiateQuestion,
  keyedForValues,
  substituteValues,
} from './calculated.ts';
import { autoPoints } from './grading.ts';
import { QuestionSchema, toPublicQuestion, type Question } from './question.ts';

/** Ohm's law with a resistance in [10, 100] Ω (whole) and a current in [0.5, 2.5] A (two decimals). */
function ohm(overrides: Record<string, unknown> = {}): Question {
  return QuestionSchema.parse({
    id: 'ohm',
    type: 'calculated',
    title: 'Voltage across {R} Ω',
    content: 'A current of {I} A flows through a resistor of {R} Ω. What is the voltage? {unknown} stays.',
    points: 2,
    calculated: {
      formula: 'R * I',
      variables: [
        { name: 'R', min: 10, max: 100, decimals: 0 },
        { name: 'I', min: 0.5, max: 2.5, decimals: 2 },
      ],
      answerDecimals: 2,
    },
    units: {
      units: [
        { symbol: 'V', multiplier: 1 },
        { symbol: 'mV', multiplier: 1000 },
      ],
    },
    matching: { caseSensitive: false, numeric: { tolerance: 0.01, mode: 'absolute' } },
    ...overrides,
  });
}

const ATTEMPTS = Array.from({ length: 1000 }, (_v, i) => `attempt-${i}`);

describe('a calculated question drawn for 1,000 attempts', () => {
  const q = ohm();
  const drawn = ATTEMPTS.map((seed) => instantiateQuestion(q, seed));

  it('draws every value within its range, at its variable’s decimals', () => {
    for (const d of drawn) {
      const { R, I } = d.calculated!.values!;
      expect(R).toBeGreaterThanOrEqual(10);
      expect(R).toBeLessThanOrEqual(100);
      expect(Number.isInteger(R)).toBe(true);
      expect(I).toBeGreaterThanOrEqual(0.5);
      expect(I).toBeLessThanOrEqual(2.5);
      expect(Math.round(I! * 100) / 100).toBe(I);
    }
  });

  it('gives the same attempt the same values, text and key every time', () => {
    ATTEMPTS.forEach((seed, i) => {
      expect(instantiateQuestion(q, seed)).toEqual(drawn[i]);
    });
  });

  it('gives different attempts different values (not one draw for everybody)', () => {
    const distinct = new Set(drawn.map((d) => JSON.stringify(d.calculated!.values)));
    // 91 × 201 possible pairs: 1,000 draws repeat a pair only by chance (birthday bound: a few dozen at most).
    expect(distinct.size).toBeGreaterThan(900);
  });

  it('draws each whole value about equally often, both ends included', () => {
    // R takes 91 values: about 11 each. Counts per tenth of the range (9 or 10 values each) should be near 100.
    const deciles = Array.from({ length: 9 }, () => 0);
    const seen = new Set<number>();
    for (const d of drawn) {
      const R = d.calculated!.values!.R!;
      seen.add(R);
      deciles[Math.min(8, Math.floor((R - 10) / 10))]!++;
    }
    // Chi-square against uniform (8 degrees of freedom): 26.1 is the 0.1% critical value.
    const expected = deciles.map((_c, k) => (1000 * (k === 8 ? 11 : 10)) / 91);
    const chi = deciles.reduce((sum, c, k) => sum + (c - expected[k]!) ** 2 / expected[k]!, 0);
    expect(chi).toBeLessThan(26.1);
    expect(seen.has(10)).toBe(true);
    expect(seen.has(100)).toBe(true);
  });

  it('keys each attempt by the formula on its own values, rounded as the question says', () => {
    for (const d of drawn) {
      const { R, I } = d.calculated!.values!;
      expect(Number(d.acceptedAnswers[0])).toBeCloseTo(Math.round(R! * I! * 100) / 100, 9);
      expect(d.acceptedAnswers).toHaveLength(1);
    }
  });

  it('writes the values into the title and content, leaving other braces alone', () => {
    const d = drawn[0]!;
    const { R, I } = d.calculated!.values!;
    expect(d.title).toBe(`Voltage across ${R} Ω`);
    expect(d.content).toBe(
      `A current of ${I!.toFixed(2)} A flows through a resistor of ${R} Ω. What is the voltage? {unknown} stays.`,
    );
  });

  it('scores the candidate’s own key, in any accepted unit, and not another candidate’s', () => {
    const [mine, other] = [drawn[0]!, drawn.find((d) => d.acceptedAnswers[0] !== drawn[0]!.acceptedAnswers[0])!];
    const key = Number(mine.acceptedAnswers[0]);
    expect(autoPoints(mine, `${key} V`)).toBe(2);
    expect(autoPoints(mine, `${key * 1000} mV`)).toBe(2);
    expect(autoPoints(mine, String(key))).toBe(2);
    expect(autoPoints(mine, other.acceptedAnswers[0])).toBe(0);
  });

  it('shows the candidate the text with values and nothing of the formula, ranges, values or key', () => {
    for (const d of drawn.slice(0, 50)) {
      const { title, content, ...rest } = toPublicQuestion(d);
      expect([title, content]).toEqual([d.title, d.content]);
      // The text may hold the key's digits by chance ("10 Ω" at 1.00 A); no other field holds anything of it.
      const others = JSON.stringify(rest);
      expect(others).not.toContain(d.acceptedAnswers[0]);
      for (const secret of ['R * I', 'formula', 'variables', 'values', 'acceptedAnswers', 'answerDecimals'])
        expect(`${title}${content}${others}`).not.toContain(secret);
    }
  });
});

describe('drawValue', () => {
  it('keeps a range of one value and rounds to the decimals', () => {
    const random = () => 0.999999;
    expect(drawValue({ name: 'x', min: 3, max: 3, decimals: 0 }, random)).toBe(3);
    expect(drawValue({ name: 'x', min: 0.1, max: 0.3, decimals: 1 }, random)).toBe(0.3);
    expect(drawValue({ name: 'x', min: 0.1, max: 0.3, decimals: 1 }, () => 0)).toBe(0.1);
    expect(drawValue({ name: 'x', min: -5, max: -1, decimals: 0 }, () => 0.5)).toBe(-3);
  });
});

describe('drawValues', () => {
  it('draws again until the formula has a finite value, and gives none when it never has', () => {
    const q = ohm({
      calculated: { formula: '1 / (x - 1)', variables: [{ name: 'x', min: 0, max: 2, decimals: 0 }] },
    });
    for (const seed of ATTEMPTS.slice(0, 100)) {
      const drawn = drawValues(q, calculatedSeed(seed, q.id));
      expect(drawn?.values.x).not.toBe(1);
      expect(Number.isFinite(drawn!.key)).toBe(true);
    }
    const never = ohm({
      calculated: { formula: 'sqrt(x)', variables: [{ name: 'x', min: -3, max: -1, decimals: 0 }] },
    });
    expect(drawValues(never, 'seed')).toBeNull();
    const instantiated = instantiateQuestion(never, 'seed');
    expect(instantiated.acceptedAnswers).toEqual([]);
    // No key: a grader decides rather than the server keying a wrong number.
    expect(autoPoints(instantiated, '1')).toBeNull();
  });
});

describe('formatKey and substituteValues', () => {
  it('writes the key as a plain decimal', () => {
    expect(formatKey(0.1 + 0.2)).toBe('0.3');
    expect(formatKey(1200)).toBe('1200');
    expect(formatKey(0.000125)).toBe('0.000125');
  });

  it('writes each value with exactly its variable’s decimals', () => {
    const variables = [{ name: 'a', min: 0, max: 9, decimals: 2 }];
    expect(substituteValues('{a} and {a}, not {b}', variables, { a: 3.5 })).toBe('3.50 and 3.50, not {b}');
  });
});

describe('keyedForValues', () => {
  it('keys the values already given with a corrected formula, keeping the text', () => {
    const given = instantiateQuestion(ohm(), 'attempt-7');
    const { R, I } = given.calculated!.values!;
    const corrected = { ...given, calculated: { ...ohm().calculated!, formula: 'R * I * 2' } };
    const rekeyed = keyedForValues(corrected, given.calculated!.values!);
    expect(rekeyed.title).toBe(given.title);
    expect(rekeyed.calculated!.values).toEqual({ R, I });
    expect(Number(rekeyed.acceptedAnswers[0])).toBeCloseTo(Math.round(R! * I! * 2 * 100) / 100, 9);
  });

  it('keys nothing when the formula needs a variable the candidate was not given', () => {
    const given = instantiateQuestion(ohm(), 'attempt-7');
    const widened = {
      ...given,
      calculated: {
        ...ohm().calculated!,
        formula: 'R * I + k',
        variables: [...ohm().calculated!.variables, { name: 'k', min: 1, max: 2, decimals: 0 }],
      },
    };
    expect(keyedForValues(widened, given.calculated!.values!).acceptedAnswers).toEqual([]);
  });

  it('leaves any other type as it is', () => {
    const mcq = QuestionSchema.parse({ id: 'm', type: 'mcq', title: 'T', options: ['a', 'b'], correctAnswer: 'a' });
    expect(keyedForValues(mcq, { x: 1 })).toBe(mcq);
  });
});
