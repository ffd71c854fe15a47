import type { Mark } from './classical.ts';
import type { ResponseGroups } from './rasch-posterior.ts';

/**
 * Candidates grouped for the two-dimensional Rasch model of aided-ability.ts. Each item loads on one
 * dimension only (between-item), so a candidate's likelihood is a product of an aided and an unaided Rasch
 * likelihood, and each factor depends on the responses only through that set's answered items and raw score
 * (rasch-posterior.ts explains the sufficiency). Two candidates with the same (aided answered items, aided
 * score, unaided answered items, unaided score) share their posterior, so the E-step runs once per group —
 * at most (J_A + 1)(J_U + 1) groups with no missing answers, however many candidates.
 *
 * Each set gets a ResponseGroups view whose groups are the joint groups, so the E-step counts of the
 * one-dimensional fit (rasch-posterior.ts expectedCounts) apply unchanged to each set. A candidate who
 * answered none of a set's items sits in a mask that misses every position: they add nothing to that set's
 * counts, and their other set still informs the cohort's distribution.
 */
export interface JointGroups {
  aided: ResponseGroups;
  unaided: ResponseGroups;
  /** Joint group of each candidate; −1 when they answered no item of either set. */
  candidateGroup: Int32Array;
  /** Candidates per joint group. */
  size: number[];
}

interface SetRow {
  missing: string;
  positions: number[];
  score: number;
  correct: number[];
}

function readSet(row: readonly Mark[], items: readonly number[]): SetRow {
  const positions: number[] = [];
  const correct: number[] = [];
  let score = 0;
  items.forEach((j, p) => {
    const mark = row[j] ?? null;
    if (mark === null) positions.push(p);
    else if (mark >= 0.5) {
      score += 1;
      correct.push(p);
    }
  });
  return { missing: positions.join(','), positions, score, correct };
}

function emptyGroups(items: readonly number[], candidates: number): ResponseGroups {
  return {
    items,
    missing: [],
    groupMask: [],
    groupScore: [],
    groupSize: [],
    groupCorrect: [],
    candidateGroup: new Int32Array(candidates),
    itemCorrect: new Float64Array(items.length),
    itemAnswered: new Float64Array(items.length),
  };
}

/** Groups candidates by (aided mask, aided score, unaided mask, unaided score); a mark ≥ 0.5 is correct, null missing. */
export function groupJointly(
  marks: readonly (readonly Mark[])[],
  aidedItems: readonly number[],
  unaidedItems: readonly number[],
): JointGroups {
  const views = { aided: emptyGroups(aidedItems, marks.length), unaided: emptyGroups(unaidedItems, marks.length) };
  const maskIds = { aided: new Map<string, number>(), unaided: new Map<string, number>() };
  const groupIds = new Map<string, number>();
  const candidateGroup = new Int32Array(marks.length);
  const size: number[] = [];
  marks.forEach((row, c) => {
    const rows = { aided: readSet(row, aidedItems), unaided: readSet(row, unaidedItems) };
    const answered =
      rows.aided.positions.length < aidedItems.length || rows.unaided.positions.length < unaidedItems.length;
    if (!answered) {
      candidateGroup[c] = -1;
      views.aided.candidateGroup[c] = -1;
      views.unaided.candidateGroup[c] = -1;
      return;
    }
    const masks = { aided: 0, unaided: 0 };
    for (const set of ['aided', 'unaided'] as const) {
      let id = maskIds[set].get(rows[set].missing);
      if (id === undefined) {
        id = views[set].missing.length;
        maskIds[set].set(rows[set].missing, id);
        views[set].missing.push(Int32Array.from(rows[set].positions));
      }
      masks[set] = id;
    }
    const key = `${masks.aided}:${rows.aided.score}:${masks.unaided}:${rows.unaided.score}`;
    let g = groupIds.get(key);
    if (g === undefined) {
      g = size.length;
      groupIds.set(key, g);
      size.push(0);
      for (const set of ['aided', 'unaided'] as const) {
        views[set].groupMask.push(masks[set]);
        views[set].groupScore.push(rows[set].score);
        views[set].groupSize.push(0);
        views[set].groupCorrect.push(new Float64Array(views[set].items.length));
      }
    }
    size[g]! += 1;
    candidateGroup[c] = g;
    for (const set of ['aided', 'unaided'] as const) {
      const view = views[set];
      view.groupSize[g]! += 1;
      view.candidateGroup[c] = g;
      for (const p of rows[set].correct) {
        view.groupCorrect[g]![p]! += 1;
        view.itemCorrect[p]! += 1;
      }
      const missing = new Set(rows[set].positions);
      for (let p = 0; p < view.items.length; p += 1) if (!missing.has(p)) view.itemAnswered[p]! += 1;
    }
  });
  return { ...views, candidateGroup, size };
}

/** Items of `groups`'s set that group g answered. */
export function answeredCount(groups: ResponseGroups, g: number): number {
  return groups.items.length - groups.missing[groups.groupMask[g]!]!.length;
}
