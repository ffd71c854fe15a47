import { describe, expect, it } from 'vitest';
import { awayTime, cohortPercentile, CreateReportLinkSchema, topicResults } from './candidate-report.ts';

const q = (
  title: string,
  topic: string,
  maxPoints: number,
  points: number | null,
  sectionId: string | null = null,
) => ({
  title,
  topic,
  maxPoints,
  points,
  sectionId,
});

describe('cohortPercentile', () => {
  it('is the mid-rank percentile: below plus half of the ties, over the cohort (hand-computed)', () => {
    // 40, 55, 70, 70, 90: for 70, 2 below and 2 equal → (2 + 2/2) / 5 = 60.
    expect(cohortPercentile([40, 55, 70, 70, 90], 70)).toEqual({ value: 60, cohortSize: 5, withheld: null });
    // The lowest of five: (0 + 1/2) / 5 = 10; the highest: (4 + 1/2) / 5 = 90.
    expect(cohortPercentile([40, 55, 70, 70, 90], 40).value).toBe(10);
    expect(cohortPercentile([40, 55, 70, 70, 90], 90).value).toBe(90);
    // Six, all equal: everyone is the middle.
    expect(cohortPercentile([50, 50, 50, 50, 50, 50], 50).value).toBe(50);
  });

  it('withholds the percentile below the minimum cohort, still saying how many there are', () => {
    expect(cohortPercentile([40, 55, 70, 90], 70)).toEqual({ value: null, cohortSize: 4, withheld: 'small-cohort' });
    // A smaller minimum: 55 in 40, 55, 70 → (1 + 1/2) / 3 = 50.
    expect(cohortPercentile([40, 55, 70], 55, 3).value).toBe(50);
  });
});

describe('topicResults', () => {
  it('groups by topic when two or more are named, in order of first appearance, untopical last', () => {
    const { groupedBy, rows } = topicResults(
      [q('a', 'Algebra', 2, 2), q('b', '', 1, 0), q('c', 'Geometry', 3, 1.5), q('d', 'Algebra', 1, null)],
      [],
    );
    expect(groupedBy).toBe('topic');
    expect(rows).toEqual([
      { label: 'Algebra', number: 1, points: 2, maxPoints: 3, questions: 2, pending: 1 },
      { label: 'Geometry', number: 2, points: 1.5, maxPoints: 3, questions: 1, pending: 0 },
      { label: '', number: 3, points: 0, maxPoints: 1, questions: 1, pending: 0 },
    ]);
  });

  it('groups by section with one topic or none; a question without a section sits in the first', () => {
    const sections = [
      { id: 's1', title: 'Without the assistant' },
      { id: 's2', title: '' },
    ];
    const { groupedBy, rows } = topicResults(
      [q('a', 'General', 1, 1, null), q('b', 'General', 2, 1, 's2'), q('c', 'General', 1, 0.5, 's1')],
      sections,
    );
    expect(groupedBy).toBe('section');
    expect(rows).toEqual([
      { label: 'Without the assistant', number: 1, points: 1.5, maxPoints: 2, questions: 2, pending: 0 },
      { label: '', number: 2, points: 1, maxPoints: 2, questions: 1, pending: 0 },
    ]);
  });

  it('lists each question without topics or sections, numbered in the exam order', () => {
    const { groupedBy, rows } = topicResults([q('First', '', 1, 1), q('Second', '', 2, 0.1 + 0.2)], []);
    expect(groupedBy).toBe('question');
    expect(rows.map((r) => [r.number, r.label, r.points])).toEqual([
      [1, 'First', 1],
      [2, 'Second', 0.3],
    ]);
  });
});

describe('awayTime', () => {
  const at = (s: number) => new Date(Date.UTC(2031, 0, 1, 9, 0, s));
  it('adds each absence until the return, an unfinished one until the end', () => {
    const events = [
      { type: 'focus-lost', at: at(10) },
      { type: 'focus-gained', at: at(25) },
      { type: 'paste-blocked', at: at(26) },
      { type: 'focus-lost', at: at(40) },
      // A second leave before the return is the same absence, still counted as an event.
      { type: 'focus-lost', at: at(41) },
      { type: 'focus-gained', at: at(50) },
      { type: 'focus-lost', at: at(55) },
    ];
    expect(awayTime(events, 'focus-lost', 'focus-gained', at(59))).toEqual({ count: 4, seconds: 15 + 10 + 4 });
    expect(awayTime([], 'focus-lost', 'focus-gained', at(59))).toEqual({ count: 0, seconds: 0 });
  });
});

describe('CreateReportLinkSchema', () => {
  it('takes 1 to 90 whole days and names the field otherwise', () => {
    expect(CreateReportLinkSchema.parse({ expiresInDays: 7 })).toEqual({ expiresInDays: 7 });
    for (const bad of [0, 91, 1.5, '7']) {
      const parsed = CreateReportLinkSchema.safeParse({ expiresInDays: bad });
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0]?.path).toEqual(['expiresInDays']);
    }
  });
});
