import { describe, expect, it } from 'vitest';
import { combineSamples, SUGGESTION_RATIONALE_MAX, type SuggestionSample } from './question-grading.ts';

/** A sample without a rubric: its points, and a rationale naming them so the chosen sample can be told apart. */
const plain = (points: number, quote = `quote ${points}`): SuggestionSample => ({
  points,
  rubric: [],
  rationale: `gave ${points}`,
  quote,
});

/** A sample with points per criterion (its own `points` field deliberately off, since the rubric decides). */
const ticked = (rubric: Record<string, number>, rationale = JSON.stringify(rubric)): SuggestionSample => ({
  points: 999,
  rubric: Object.entries(rubric).map(([criterionId, points]) => ({ criterionId, points })),
  rationale,
  quote: rationale,
});

const criteria = [
  { id: 'thesis', points: 2 },
  { id: 'evidence', points: 3 },
];

describe('combineSamples without a rubric', () => {
  it('takes the median of an odd number of samples, and the rationale of the sample that gave it', () => {
    const combined = combineSamples([plain(1), plain(3), plain(2)], 5, []);
    expect(combined.points).toBe(2);
    expect(combined.samplePoints).toEqual([1, 3, 2]);
    expect(combined.rationale).toBe('gave 2');
    expect(combined.quote).toBe('quote 2');
    expect(combined.rubric).toEqual([]);
  });

  it('takes the lower of the two middle samples for an even count, so no mark nobody gave is invented', () => {
    expect(combineSamples([plain(1), plain(3)], 5, []).points).toBe(1);
    expect(combineSamples([plain(4), plain(2), plain(1), plain(3)], 5, []).points).toBe(2);
    // Never the mean (2.5), which no sample gave.
    expect(combineSamples([plain(3), plain(2)], 5, []).rationale).toBe('gave 2');
  });

  it('is certain when every sample gives the same points, uncertain when any two differ', () => {
    expect(combineSamples([plain(2), plain(2), plain(2)], 5, []).uncertain).toBe(false);
    expect(combineSamples([plain(2)], 5, []).uncertain).toBe(false);
    expect(combineSamples([plain(2), plain(2), plain(2.5)], 5, []).uncertain).toBe(true);
  });

  it('clamps points to 0…maxPoints and rounds them to hundredths before comparing', () => {
    const over = combineSamples([plain(12), plain(11)], 10, []);
    expect(over.points).toBe(10);
    expect(over.samplePoints).toEqual([10, 10]);
    // Both clamp to the maximum: the samples agree on the mark they give.
    expect(over.uncertain).toBe(false);
    expect(combineSamples([plain(-1)], 10, []).points).toBe(0);
    const rounded = combineSamples([plain(1.234), plain(1.2349)], 10, []);
    expect(rounded.samplePoints).toEqual([1.23, 1.23]);
    expect(rounded.uncertain).toBe(false);
  });

  it('cuts a long rationale and keeps the quote as the sample gave it', () => {
    const long = { ...plain(1), rationale: 'x'.repeat(SUGGESTION_RATIONALE_MAX + 50) };
    const combined = combineSamples([long], 2, []);
    expect(combined.rationale).toHaveLength(SUGGESTION_RATIONALE_MAX);
    expect(combined.quote).toBe('quote 1');
  });

  it('refuses to combine no samples', () => {
    expect(() => combineSamples([], 5, [])).toThrow(/at least one sample/);
  });
});

describe('combineSamples with a rubric', () => {
  it("takes each criterion's median on its own, and the points as their sum, not the median of the totals", () => {
    const combined = combineSamples(
      [ticked({ thesis: 2, evidence: 3 }), ticked({ thesis: 1, evidence: 3 }), ticked({ thesis: 2, evidence: 0 })],
      5,
      criteria,
    );
    expect(combined.rubric).toEqual([
      { criterionId: 'thesis', points: 2 },
      { criterionId: 'evidence', points: 3 },
    ]);
    // Totals were 5, 4 and 2 (median 4); the criteria's medians sum to 5.
    expect(combined.points).toBe(5);
    expect(combined.samplePoints).toEqual([5, 4, 2]);
    expect(combined.uncertain).toBe(true);
    // The first sample whose total equals the combined points gives the rationale.
    expect(combined.rationale).toBe(JSON.stringify({ thesis: 2, evidence: 3 }));
  });

  it('takes the lower middle value per criterion for an even count', () => {
    const combined = combineSamples(
      [ticked({ thesis: 2, evidence: 1 }), ticked({ thesis: 1, evidence: 3 })],
      5,
      criteria,
    );
    expect(combined.rubric).toEqual([
      { criterionId: 'thesis', points: 1 },
      { criterionId: 'evidence', points: 1 },
    ]);
    expect(combined.points).toBe(2);
    // No sample totals 2: the first sample's rationale is kept.
    expect(combined.rationale).toBe(JSON.stringify({ thesis: 2, evidence: 1 }));
  });

  it("reads the criteria, not the sample's own points field, so samples that tick alike are certain", () => {
    const combined = combineSamples(
      [ticked({ thesis: 2, evidence: 1 }), { ...ticked({ thesis: 2, evidence: 1 }), points: 0 }],
      5,
      criteria,
    );
    expect(combined.points).toBe(3);
    expect(combined.samplePoints).toEqual([3, 3]);
    expect(combined.uncertain).toBe(false);
  });

  it('is uncertain when samples give the same total through different criteria', () => {
    const combined = combineSamples(
      [ticked({ thesis: 2, evidence: 0 }), ticked({ thesis: 0, evidence: 2 })],
      5,
      criteria,
    );
    expect(combined.samplePoints).toEqual([2, 2]);
    expect(combined.uncertain).toBe(true);
  });

  it('counts a criterion a sample left out as 0, ignores criteria the rubric does not have, and lists every criterion', () => {
    const combined = combineSamples(
      [ticked({ evidence: 2, invented: 7 }), ticked({ evidence: 2, invented: 1 })],
      5,
      criteria,
    );
    expect(combined.rubric).toEqual([
      { criterionId: 'thesis', points: 0 },
      { criterionId: 'evidence', points: 2 },
    ]);
    expect(combined.points).toBe(2);
    expect(combined.uncertain).toBe(false);
  });

  it("clamps each criterion to its own points and the total to the question's", () => {
    const combined = combineSamples([ticked({ thesis: 9, evidence: 3.456 })], 4, criteria);
    expect(combined.rubric).toEqual([
      { criterionId: 'thesis', points: 2 },
      { criterionId: 'evidence', points: 3 },
    ]);
    // 2 + 3 = 5 is worth more than the question's 4 points.
    expect(combined.points).toBe(4);
    expect(combined.samplePoints).toEqual([4]);
  });
});
