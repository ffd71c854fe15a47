import { describe, expect, it } from 'vitest';
import { computeUplift, newcombeDifference, UPLIFT_CAUTIONS, upliftEntries, wilsonInterval } from './uplift.ts';

describe('newcombeDifference', () => {
  // Newcombe 1998 (Statistics in Medicine 17:873–890), Table II, method 10 (hybrid score, no continuity correction).
  it.each([
    [56, 70, 48, 80, 0.0524, 0.3339],
    [9, 10, 3, 10, 0.1705, 0.809],
    [6, 7, 2, 7, 0.0582, 0.8062],
    [5, 56, 0, 29, -0.0381, 0.1926],
    [0, 10, 0, 20, -0.1611, 0.2775],
    [0, 10, 0, 10, -0.2775, 0.2775],
    [10, 10, 0, 20, 0.6791, 1],
    [10, 10, 0, 10, 0.6075, 1],
  ])('reproduces Newcombe’s worked example %i/%i − %i/%i', (x1, n1, x2, n2, low, high) => {
    const ci = newcombeDifference(x1 / n1, n1, x2 / n2, n2);
    expect(ci.low).toBeCloseTo(low, 4);
    expect(ci.high).toBeCloseTo(high, 4);
  });

  it('builds on the Wilson score interval (Newcombe 1998b, Table I: 81/263 → 0.2553 to 0.3662)', () => {
    const ci = wilsonInterval(81 / 263, 263);
    expect(ci.low).toBeCloseTo(0.2553, 4);
    expect(ci.high).toBeCloseTo(0.3662, 4);
  });
});

describe('computeUplift', () => {
  const group = (facility: number, asked: boolean, n: number) => Array.from({ length: n }, () => ({ facility, asked }));

  it('compares the mean marks of those who asked and those who did not, with counts and the interval', () => {
    // 70 askers of whom 56 right, 80 others of whom 48 right: Newcombe's first example.
    const entries = [...group(1, true, 56), ...group(0, true, 14), ...group(1, false, 48), ...group(0, false, 32)];
    const uplift = computeUplift(entries);
    expect(uplift).toMatchObject({ asked: 70, notAsked: 80, askedFacility: 0.8, notAskedFacility: 0.6, caution: null });
    expect(uplift.difference).toBeCloseTo(0.2, 12);
    expect(uplift.ciLow).toBeCloseTo(0.0524, 4);
    expect(uplift.ciHigh).toBeCloseTo(0.3339, 4);
  });

  it('treats fractional marks as a proportion over the group size', () => {
    const uplift = computeUplift([...group(0.5, true, 12), ...group(0.25, false, 12)]);
    const ci = newcombeDifference(0.5, 12, 0.25, 12);
    expect(uplift.difference).toBeCloseTo(0.25, 12);
    expect(uplift.ciLow).toBe(ci.low);
    expect(uplift.ciHigh).toBe(ci.high);
  });

  it('cautions when a group is small, and has no difference when nobody (or everybody) asked', () => {
    expect(computeUplift([...group(1, true, 3), ...group(0, false, 20)]).caution).toBe(UPLIFT_CAUTIONS.small(3, 20));
    const nobody = computeUplift(group(1, false, 5));
    expect(nobody).toMatchObject({ asked: 0, notAsked: 5, askedFacility: null, notAskedFacility: 1, difference: null });
    expect(nobody.caution).toBe(UPLIFT_CAUTIONS.nobodyAsked);
    expect(computeUplift(group(1, true, 5)).caution).toBe(UPLIFT_CAUTIONS.everybodyAsked);
    expect(computeUplift([]).caution).toBe(UPLIFT_CAUTIONS.noMarks);
  });
});

describe('upliftEntries', () => {
  it('leaves out missing marks (pending or not drawn) and averages the rest; asking about any position counts', () => {
    const marks = [
      [1, null, 0],
      [null, null, null],
      [0.5, 1, null],
    ];
    const asked = (c: number, j: number) => (c === 0 && j === 1) || (c === 2 && j === 2);
    expect(upliftEntries(marks, [0, 1, 2], asked)).toEqual([
      { facility: 0.5, asked: true },
      { facility: 0.75, asked: true },
    ]);
    expect(upliftEntries(marks, [0], asked)).toEqual([
      { facility: 1, asked: false },
      { facility: 0.5, asked: false },
    ]);
  });
});
