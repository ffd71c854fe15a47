import type { Mark } from './classical.ts';

/** At most this many ability groups per item characteristic curve. */
export const MAX_SCORE_GROUPS = 10;
/** Groups are made so that each holds about this many candidates at least. */
export const MIN_GROUP_SIZE = 5;

export interface ScoreGroup {
  /** Mean ability (logits) of the group. */
  theta: number;
  n: number;
  /** Share of the group right (mark ≥ ½, as the Rasch and 2PL fits count a mark). */
  observed: number;
}

/**
 * The observed points of one item's characteristic curve: the candidates with a mark for the item (those who
 * drew it, graded) and an ability, sorted by ability and cut into quantile groups — up to MAX_SCORE_GROUPS,
 * fewer so that a group holds at least MIN_GROUP_SIZE, one when there are fewer candidates than that.
 * Candidates with the same ability (the Rasch model gives every equal raw score the same θ) stay in one group,
 * so a cut moves up to the next different ability and a group may be larger than its share.
 */
export function scoreGroups(
  marks: readonly Mark[],
  thetas: readonly (number | null)[],
  order: readonly number[] = abilityOrder(thetas),
): ScoreGroup[] {
  // The candidates with a mark, by ability (indices, so 10,000 candidates × 50 items allocate no objects).
  const people = new Int32Array(order.length);
  let n = 0;
  for (const c of order) {
    const mark = marks[c];
    if (mark !== null && mark !== undefined) people[n++] = c;
  }
  if (n === 0) return [];
  const thetaAt = (i: number) => thetas[people[i]!]!;
  const groupCount = Math.max(1, Math.min(MAX_SCORE_GROUPS, Math.floor(n / MIN_GROUP_SIZE)));
  const groups: ScoreGroup[] = [];
  let start = 0;
  for (let g = 1; g <= groupCount && start < n; g++) {
    let end = g === groupCount ? n : Math.round((g * n) / groupCount);
    if (end <= start) continue;
    while (end < n && thetaAt(end) === thetaAt(end - 1)) end += 1;
    let thetaSum = 0;
    let right = 0;
    for (let i = start; i < end; i++) {
      thetaSum += thetaAt(i);
      if (marks[people[i]!]! >= 0.5) right += 1;
    }
    const size = end - start;
    groups.push({ theta: thetaSum / size, n: size, observed: right / size });
    start = end;
  }
  return groups;
}

/**
 * The candidates with an ability, by ascending ability (ties by position): sorted once and shared by every
 * item's groups.
 */
export function abilityOrder(thetas: readonly (number | null)[]): number[] {
  const order: number[] = [];
  thetas.forEach((theta, c) => {
    if (theta !== null && theta !== undefined) order.push(c);
  });
  return order.sort((a, b) => thetas[a]! - thetas[b]! || a - b);
}
