import type { InsightsCandidate } from '@exam/domain/insights';

export const PAGE_SIZE = 10;
export const SORT_KEYS = [
  { key: 'rank', label: 'ranking.rank' },
  { key: 'name', label: 'ranking.name' },
  { key: 'id', label: 'ranking.id' },
  { key: 'score', label: 'ranking.score' },
  { key: 'timespent', label: 'ranking.timeSpent' },
] as const;
export type SortKey = (typeof SORT_KEYS)[number]['key'];
export type SortState = { key: SortKey; direction: 'asc' | 'desc' };
export const DEFAULT_SORT: SortState = { key: 'rank', direction: 'asc' };

/** Choosing the sort key already in use flips the direction; a new key starts ascending. */
export function nextSort(current: SortState, key: SortKey): SortState {
  return current.key === key
    ? { key, direction: current.direction === 'asc' ? 'desc' : 'asc' }
    : { key, direction: 'asc' };
}

/** The candidate's score as every results screen shows it (a percentage of the points); null without a result. */
const scoreOf = (c: InsightsCandidate) => c.result?.percentage ?? null;

// Missing figures sort after every number in either direction.
const byNumber = (a: number | null, b: number | null) => (a === null ? (b === null ? 0 : 1) : b === null ? -1 : a - b);

const compare: Record<SortKey, (a: InsightsCandidate, b: InsightsCandidate) => number> = {
  rank: (a, b) => a.rank - b.rank,
  name: (a, b) => a.name.localeCompare(b.name),
  id: (a, b) => a.studentId.localeCompare(b.studentId, undefined, { numeric: true }),
  // The score creators see (points as weighted), never the unweighted items correct.
  score: (a, b) => byNumber(scoreOf(a), scoreOf(b)),
  timespent: (a, b) => byNumber(a.timeSpent, b.timeSpent),
};

const compareIds = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function selectCandidates(
  candidates: readonly InsightsCandidate[],
  search: string,
  sort: SortState,
): InsightsCandidate[] {
  const needle = search.trim().toLowerCase();
  const sign = sort.direction === 'asc' ? 1 : -1;
  return candidates
    .filter((c) => !needle || c.name.toLowerCase().includes(needle) || c.studentId.toLowerCase().includes(needle))
    .sort((a, b) => {
      const missing =
        (sort.key === 'score' && (scoreOf(a) === null) !== (scoreOf(b) === null)) ||
        (sort.key === 'timespent' && (a.timeSpent === null) !== (b.timeSpent === null));
      // Keep nulls last whatever the direction.
      const primary = missing ? compare[sort.key](a, b) : sign * compare[sort.key](a, b);
      // Ties fall back to the rank, then the name, then the result id: the same rows always list the same way.
      return primary || a.rank - b.rank || a.name.localeCompare(b.name) || compareIds(a.resultId, b.resultId);
    });
}

/** One page of rows and the footer's 'Showing a to b of M entries' figures (pages count from 1). */
export function pageOf<T>(rows: readonly T[], page: number) {
  const pages = Math.max(1, Math.ceil(rows.length / PAGE_SIZE));
  const current = Math.min(Math.max(1, page), pages);
  const start = (current - 1) * PAGE_SIZE;
  const items = rows.slice(start, start + PAGE_SIZE);
  return {
    items,
    page: current,
    pages,
    from: items.length === 0 ? 0 : start + 1,
    to: start + items.length,
    total: rows.length,
  };
}
