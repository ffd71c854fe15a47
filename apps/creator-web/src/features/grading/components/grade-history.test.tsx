import type { GradeHistoryEntry } from '@exam/domain/result';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { GradeHistory } from './grade-history.tsx';

const entry = (overrides: Partial<GradeHistoryEntry>): GradeHistoryEntry => ({
  at: '2025-01-07T12:30:00.000Z',
  by: 'grader@example.com',
  kind: 'grade',
  questionIndex: 1,
  before: { points: null, feedback: '' },
  after: { points: 3, feedback: '' },
  ...overrides,
});

describe('the grade history', () => {
  it('says who decided each mark, and when it took an AI suggestion as it was or edited it', () => {
    render(
      <GradeHistory
        history={[
          entry({ suggestion: 'accepted' }),
          entry({ suggestion: 'edited', questionIndex: 2, after: { points: 2.5, feedback: 'Close' } }),
          entry({ questionIndex: 0 }),
        ]}
      />,
    );
    const lines = within(screen.getByRole('list', { name: 'Grade history' }))
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(lines[0]).toMatch(/ · suggested by AI, accepted by grader@example\.com · Q2: — → 3 points$/);
    expect(lines[1]).toMatch(/ · suggested by AI, edited by grader@example\.com · Q3: — → 2\.5 points$/);
    expect(lines[2]).toMatch(/ · grader@example\.com · Q1: — → 3 points$/);
    expect(lines[2]).not.toMatch(/suggested/);
  });
});
