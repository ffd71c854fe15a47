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
