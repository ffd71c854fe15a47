import type { InsightsCandidate } from '@exam/domain/insights';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SORT, nextSort, pageOf, selectCandidates } from './ranking.ts';

const candidate = (
  name: string,
  rank: number,
  rawScore: number | null,
  timeSpent: number | null,
  studentId = name,
): InsightsCandidate => ({
  resultId: `r-${name}`,
  name,
  studentId,
  startedAt: '2025-01-05T10:00:00Z',
  completedAt: '2025-01-05T11:00:00Z',
  rank,
  correct: 0,
  rawScore,
  abilityScore: null,
  abilityTheta: null,
  abilitySe: null,
  reasoning: null,
  timeSpent,
  copyWriting: null,
  focusPercent: 100,
  blockedPastes: 0,
  badges: { rawScore: null, ability: null, reasoning: null },
  ability: null,
  reliance: null,
  collaboration: null,
});

describe('candidate ranking', () => {
  const rows = [
    candidate('Cy', 3, 10, null, 'S10'),
    candidate('Ada', 1, 90, 300, 'S2'),
    candidate('Bob', 2, 50, 120, 'S1'),
  ];

  it('sorts by rank ascending by default and flips the direction when the same key is chosen again', () => {
    expect(selectCandidates(rows, '', DEFAULT_SORT).map((c) => c.name)).toEqual(['Ada', 'Bob', 'Cy']);
    const byTime = nextSort(DEFAULT_SORT, 'timespent');
    expect(byTime).toEqual({ key: 'timespent', direction: 'asc' });
    expect(selectCandidates(rows, '', byTime).map((c) => c.name)).toEqual(['Bob', 'Ada', 'Cy']);
    expect(selectCandidates(rows, '', nextSort(byTime, 'timespent')).map((c) => c.name)).toEqual(['Ada', 'Bob', 'Cy']);
    expect(selectCandidates(rows, '', { key: 'id', direction: 'asc' }).map((c) => c.studentId)).toEqual([
      'S1',
      'S2',
      'S10',
    ]);
  });

  it('sorts Score by the weighted score creators see, not by the unweighted items correct', () => {
    // Ada has more items right (83 %) but 5 of 11 points; Bob fewer items (17 %) but 6 of 11 points.
    const withScore = (c: InsightsCandidate, score: number): InsightsCandidate => ({
      ...c,
      result: { score, maxScore: 11, percentage: (100 * score) / 11, status: 'graded' },
    });
    const scored = [withScore(candidate('Ada', 2, 83, 60), 5), withScore(candidate('Bob', 1, 17, 60), 6)];
    const bestFirst = { key: 'score', direction: 'desc' } as const;
    expect(selectCandidates(scored, '', bestFirst).map((c) => c.name)).toEqual(['Bob', 'Ada']);
    expect(selectCandidates(scored, '', nextSort(bestFirst, 'score')).map((c) => c.name)).toEqual(['Ada', 'Bob']);
  });

  it('lists candidates who share a rank by name, then result id, whatever order they came in', () => {
    const tied = [candidate('Bo', 1, 50, 60), { ...candidate('Al', 1, 50, 60), resultId: 'r-2' }];
    const twin = { ...candidate('Al', 1, 50, 60), resultId: 'r-1' };
    expect(selectCandidates([...tied, twin], '', DEFAULT_SORT).map((c) => c.resultId)).toEqual(['r-1', 'r-2', 'r-Bo']);
    expect(selectCandidates([twin, ...tied].reverse(), '', DEFAULT_SORT).map((c) => c.resultId)).toEqual([
      'r-1',
      'r-2',
      'r-Bo',
    ]);
  });

  it('searches names and IDs case-insensitively', () => {
    expect(selectCandidates(rows, 'ad', DEFAULT_SORT).map((c) => c.name)).toEqual(['Ada']);
    expect(selectCandidates(rows, 's1', DEFAULT_SORT).map((c) => c.name)).toEqual(['Bob', 'Cy']);
  });

  it('pages rows ten at a time with the footer figures', () => {
    const many = Array.from({ length: 23 }, (_, i) => i);
    expect(pageOf(many, 1)).toMatchObject({ page: 1, pages: 3, from: 1, to: 10, total: 23 });
    expect(pageOf(many, 3)).toMatchObject({ items: [20, 21, 22], from: 21, to: 23 });
    expect(pageOf(many, 9).page).toBe(3);
    expect(pageOf([], 1)).toMatchObject({ from: 0, to: 0, total: 0, pages: 1 });
  });
});
