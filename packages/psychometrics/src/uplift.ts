import type { Mark } from './classical.ts';

/** Two-sided 95 % normal quantile, z(0.975). */
export const Z_95 = 1.959963984540054;

/** A group under this many candidates makes the comparison too uncertain to read without care. */
export const UPLIFT_MIN_GROUP = 10;

export const UPLIFT_CAUTIONS = {
  noMarks: 'No candidate has a mark here yet (not drawn, or waiting for a grader).',
  nobodyAsked: 'Nobody in this group asked the assistant, so there is nothing to compare.',
  everybodyAsked: 'Everybody in this group asked the assistant, so there is nobody to compare them with.',
  small: (asked: number, notAsked: number) =>
    `Only ${Math.min(asked, notAsked)} candidates in the smaller group (${asked} asked, ${notAsked} did not): the interval is wide and the difference may be chance.`,
} as const;

export interface Interval {
  low: number;
  high: number;
}

/**
 * Wilson score interval for a proportion p observed over n (Wilson 1927, JASA 22:209–212), without
 * continuity correction: (2np + z² ± z·√(z² + 4np(1 − p))) / (2(n + z²)). n must be positive.
 */
export function wilsonInterval(p: number, n: number, z = Z_95): Interval {
  const z2 = z * z;
  const centre = 2 * n * p + z2;
  const half = z * Math.sqrt(z2 + 4 * n * p * (1 - p));
  const denominator = 2 * (n + z2);
  return { low: Math.max(0, (centre - half) / denominator), high: Math.min(1, (centre + half) / denominator) };
}

/**
 * Interval for p1 − p2 of two independent proportions by Newcombe's hybrid score method (method 10 of
 * Newcombe 1998, "Interval estimation for the difference between independent proportions: comparison of
 * eleven methods", Statistics in Medicine 17:873–890): with (l1, u1) and (l2, u2) the Wilson intervals of
 * p1 and p2,
 *   L = (p1 − p2) − √((p1 − l1)² + (u2 − p2)²),  U = (p1 − p2) + √((u1 − p1)² + (p2 − l2)²).
 */
export function newcombeDifference(p1: number, n1: number, p2: number, n2: number, z = Z_95): Interval {
  const a = wilsonInterval(p1, n1, z);
  const b = wilsonInterval(p2, n2, z);
  const d = p1 - p2;
  return {
    low: d - Math.sqrt((p1 - a.low) ** 2 + (b.high - p2) ** 2),
    high: d + Math.sqrt((a.high - p1) ** 2 + (p2 - b.low) ** 2),
  };
}

/** An uplift comparison's groups: how many asked and did not, and the sum of each group's facilities. */
export interface UpliftTally {
  asked: number;
  askedSum: number;
  notAsked: number;
  notAskedSum: number;
}

export interface Uplift {
  asked: number;
  notAsked: number;
  askedFacility: number | null;
  notAskedFacility: number | null;
  difference: number | null;
  ciLow: number | null;
  ciHigh: number | null;
  caution: string | null;
}

/**
 * Facility of those who asked the assistant against those who did not: each group's mean facility, the
 * difference asked − not asked and its 95 % interval (newcombeDifference).
 *
 * Marks may be fractional (partial credit), so a group's facility is a mean of marks in 0–1 rather than a
 * count of successes over n: it is treated as a proportion observed over n = the group's size. With 0/1
 * marks this is exactly Newcombe's interval; with partial credit it is an approximation (a mean of marks in
 * 0–1 varies no more than a proportion of the same value, so the interval errs on the wide side).
 */
export function computeUplift({ asked, askedSum, notAsked, notAskedSum }: UpliftTally): Uplift {
  const askedFacility = asked === 0 ? null : askedSum / asked;
  const notAskedFacility = notAsked === 0 ? null : notAskedSum / notAsked;
  const caution =
    asked + notAsked === 0
      ? UPLIFT_CAUTIONS.noMarks
      : asked === 0
        ? UPLIFT_CAUTIONS.nobodyAsked
        : notAsked === 0
          ? UPLIFT_CAUTIONS.everybodyAsked
          : Math.min(asked, notAsked) < UPLIFT_MIN_GROUP
            ? UPLIFT_CAUTIONS.small(asked, notAsked)
            : null;
  if (askedFacility === null || notAskedFacility === null)
    return { asked, notAsked, askedFacility, notAskedFacility, difference: null, ciLow: null, ciHigh: null, caution };
  const ci = newcombeDifference(askedFacility, asked, notAskedFacility, notAsked);
  return {
    asked,
    notAsked,
    askedFacility,
    notAskedFacility,
    difference: askedFacility - notAskedFacility,
    ciLow: ci.low,
    ciHigh: ci.high,
    caution,
  };
}

/**
 * The groups of a comparison over some questions (positions into the marks): each candidate with at least
 * one mark among them (an ungraded or undrawn question is missing, not wrong) counts with their mean mark
 * over the marked ones, as asking when they asked about any of them (a pending one included: they still
 * asked). `asked(c, j)` says whether candidate c asked about the question at position j.
 */
export function upliftTally(
  marks: readonly (readonly Mark[])[],
  positions: readonly number[],
  asked: (candidate: number, position: number) => boolean,
): UpliftTally {
  const tally: UpliftTally = { asked: 0, askedSum: 0, notAsked: 0, notAskedSum: 0 };
  for (let c = 0; c < marks.length; c++) {
    const row = marks[c]!;
    let sum = 0;
    let n = 0;
    let didAsk = false;
    for (const j of positions) {
      if (!didAsk && asked(c, j)) didAsk = true;
      const m = row[j];
      if (m === null || m === undefined) continue;
      sum += m;
      n += 1;
    }
    if (n === 0) continue;
    if (didAsk) {
      tally.asked += 1;
      tally.askedSum += sum / n;
    } else {
      tally.notAsked += 1;
      tally.notAskedSum += sum / n;
    }
  }
  return tally;
}
