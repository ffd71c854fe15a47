import { describe, expect, it } from 'vitest';
import { computeUplift, newcombeDifference, UPLIFT_CAUTIONS, upliftTally, wilsonInterval } from './uplift.ts';

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
  const tally = (asked: number, askedSum: number, notAsked: number, notAskedSum: number) => ({
    asked,
    askedSum,
    notAsked,
    notAskedSum,
  });

  it('compares the mean marks of those who asked and those who did not, with counts and the interval', () => {
    // 70 askers of whom 56 right, 80 others of whom 48 right: Newcombe's first example.
    const uplift = computeUplift(tally(70, 56, 80, 48));
    expect(uplift).toMatchObject({ asked: 70, notAsked: 80, askedFacility: 0.8, notAskedFacility: 0.6, caution: null });
    expect(uplift.difference).toBeCloseTo(0.2, 12);
    expect(uplift.ciLow).toBeCloseTo(0.0524, 4);
    expect(uplift.ciHigh).toBeCloseTo(0.3339, 4);
  });

  it('treats fractional marks as a proportion over the group size', () => {
    const uplift = computeUplift(tally(12, 6, 12, 3));
    const ci = newcombeDifference(0.5, 12, 0.25, 12);
    expect(uplift.difference).toBeCloseTo(0.25, 12);
    expect(uplift.ciLow).toBe(ci.low);
    expect(uplift.ciHigh).toBe(ci.high);
  });

  it('cautions when a group is small, and has no difference when nobody (or everybody) asked', () => {
    expect(computeUplift(tally(3, 3, 20, 0)).caution).toBe(UPLIFT_CAUTIONS.small(3, 20));
    const nobody = computeUplift(tally(0, 0, 5, 5));
    expect(nobody).toMatchObject({ asked: 0, notAsked: 5, askedFacility: null, notAskedFacility: 1, difference: null });
    expect(nobody.caution).toBe(UPLIFT_CAUTIONS.nobodyAsked);
    expect(computeUplift(tally(5, 5, 0, 0)).caution).toBe(UPLIFT_CAUTIONS.everybodyAsked);
    expect(computeUplift(tally(0, 0, 0, 0)).caution).toBe(UPLIFT_CAUTIONS.noMarks);
  });
});

describe('upliftTally', () => {
  it('leaves out missing marks (pending or not drawn) and averages the rest; asking about any position counts', () => {
    const marks = [
      [1, null, 0],
      [null, null, null],
      [0.5, 1, null],
    ];
    const asked = (c: number, j: number) => (c === 0 && j === 1) || (c === 2 && j === 2);
    expect(upliftTally(marks, [0, 1, 2], asked)).toEqual({
      asked: 2,
      askedSum: 0.5 + 0.75,
      notAsked: 0,
      notAskedSum: 0,
    });
    expect(upliftTally(marks, [0], asked)).toEqual({ asked: 0, askedSum: 0, notAsked: 2, notAskedSum: 1.5 });
  });
});
