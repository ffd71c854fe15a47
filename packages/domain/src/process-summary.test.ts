import { describe, expect, it } from 'vitest';
import { ANSWER_SOURCES, emptyShares, type SourceShares } from './answer-operations.ts';
import { summarizeProcess, wholePercentages } from './process-summary.ts';

const shares = (partial: Partial<SourceShares>): SourceShares => ({ ...emptyShares(), ...partial });
const sum = (values: Record<string, number>) => Object.values(values).reduce((a, b) => a + b, 0);

describe('wholePercentages (largest remainder)', () => {
  it('gives three equal thirds 34 / 33 / 33, not 33 / 33 / 33, the first listed taking the odd point', () => {
    expect(wholePercentages({ a: 1, b: 1, c: 1 }, ['a', 'b', 'c'])).toEqual({ a: 34, b: 33, c: 33 });
  });

  it('hands the missing points to the largest fractional parts where rounding each would make 101', () => {
    // 2/7, 2/7, 3/7 = 28.57 / 28.57 / 42.86: rounded each 29 + 29 + 43 = 101.
    expect(wholePercentages({ a: 2, b: 2, c: 3 }, ['a', 'b', 'c'])).toEqual({ a: 29, b: 28, c: 43 });
  });

  it('gives all zeros when nothing was counted', () => {
    expect(wholePercentages({ a: 0, b: 0 }, ['a', 'b'])).toEqual({ a: 0, b: 0 });
  });

  it('always sums to 100 over many random counts, each figure within one point of its exact share', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let run = 0; run < 2000; run++) {
      const counts = Object.fromEntries(
        ANSWER_SOURCES.map((s) => [s, Math.floor(random() * 50) * (random() < 0.3 ? 0 : 1)]),
      );
      const total = sum(counts);
      const percent = wholePercentages(counts as SourceShares, ANSWER_SOURCES);
      if (total === 0) {
        expect(sum(percent)).toBe(0);
        continue;
      }
      expect(sum(percent)).toBe(100);
      for (const source of ANSWER_SOURCES) {
        expect(Math.abs(percent[source] - (counts[source]! * 100) / total)).toBeLessThan(1);
      }
    }
  });
});

describe('summarizeProcess', () => {
  it('adds the characters of every answer by source and gives whole percentages that sum to 100', () => {
    const summary = summarizeProcess({
      attemptId: 'a1',
      submittedAt: '2030-01-01T10:00:00.000Z',
      answers: [shares({ typed: 90, pasted: 5 }), shares({ typed: 2, assistant: 1, restored: 2 })],
      assistantMessages: 4,
      outsidePastesBlocked: 3,
    });
    expect(summary).toEqual({
      attemptId: 'a1',
      characters: 100,
      typedPercent: 92,
      pastedPercent: 5,
      assistantPercent: 1,
      autocompletePercent: 0,
      restoredPercent: 2,
      assistantMessages: 4,
      outsidePastesBlocked: 3,
      submittedAt: '2030-01-01T10:00:00.000Z',
    });
  });

  it('says 0 % of everything for an attempt without text', () => {
    const summary = summarizeProcess({
      attemptId: 'a2',
      submittedAt: 'x',
      answers: [],
      assistantMessages: 0,
      outsidePastesBlocked: 0,
    });
    expect(summary).toMatchObject({ characters: 0, typedPercent: 0, pastedPercent: 0, restoredPercent: 0 });
  });
});
