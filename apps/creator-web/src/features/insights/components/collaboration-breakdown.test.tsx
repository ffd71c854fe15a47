import { COLLABORATION_SCALES } from '@exam/domain/collaboration';
import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { makeExam, signInAs } from '../../../testing/factories.ts';
import { seedExams } from '../../../testing/handlers.ts';
import { renderApp } from '../../../testing/render.tsx';
import { makeInsightsReport } from '../../../testing/result-factories.ts';
import { server } from '../../../testing/server.ts';
import type { InsightsReport } from '@exam/domain/insights';

vi.mock('../../../features/insights/components/charts/insights-charts.tsx', () => ({ InsightsCharts: () => null }));

async function open(report: InsightsReport) {
  const exam = makeExam({ id: 'exam-collab', isDraft: false, publishedAt: '2025-01-06T09:00:00.000Z' });
  seedExams(exam);
  server.use(http.get('*/api/exams/:examId/insights', () => HttpResponse.json(report)));
  signInAs();
  const view = renderApp(`/creator/exam-insights/${exam.id}`);
  await screen.findByRole('table', { name: 'Candidate Ranking' });
  return view;
}

const COHORT: InsightsReport['collaboration'] = {
  dimensions: [
    { dimension: 'framing', levels: [1, 2, 3, 0, 0], unmeasured: 4 },
    { dimension: 'verification', levels: [0, 0, 0, 0, 0], unmeasured: 10 },
    { dimension: 'integration', levels: [5, 3, 1, 1, 0], unmeasured: 0 },
    { dimension: 'independence', levels: [0, 1, 2, 4, 3], unmeasured: 0 },
  ],
  agreement: [
    { dimension: 'framing', decided: 6, accepted: 4, exactAgreement: 4 / 6, weightedKappa: 0.8123 },
    { dimension: 'verification', decided: 1, accepted: 1, exactAgreement: 1, weightedKappa: null },
  ],
};

describe('collaboration profiles on insights', () => {
  it('charts each dimension’s levels with a table, says what is missing, and shows the agreement', async () => {
    const { user } = await open(makeInsightsReport({ collaboration: COHORT }));
    const section = await screen.findByRole('region', { name: 'Collaboration profiles' });
    const framing = within(section).getByTestId('chart-collaboration-framing');
    expect(within(framing).getByRole('list', { name: 'Candidates at each level of Framing' })).toHaveTextContent(
      'Level 0: 1Level 1: 2Level 2: 3Level 3: 0Level 4: 0',
    );
    expect(framing).toHaveTextContent('Candidates at each level of Framing; 4 without one.');
    expect(framing).toHaveTextContent('6 candidates with a level; the most common is 2.');
    await user.click(within(framing).getByRole('button', { name: /show/i }));
    const table = within(framing).getByRole('table', { name: 'Candidates at each level of Framing' });
    expect(within(table).getAllByRole('row')[3]).toHaveTextContent(`2 — ${COLLABORATION_SCALES.framing[2]}3`);
    expect(within(section).getByTestId('chart-collaboration-verification')).toHaveTextContent(
      'No candidate has a level of Verification yet.',
    );
    const agreement = within(section).getByRole('table', {
      name: "Agreement of the AI's suggested levels with the graders'",
    });
    const rows = within(agreement).getAllByRole('row');
    expect(rows[1]).toHaveTextContent('Framing6467%0.81');
    expect(rows[2]).toHaveTextContent('Verification11100%—');
  });

  it('says so when no candidate used the assistant', async () => {
    await open(makeInsightsReport({ collaboration: null }));
    const section = await screen.findByRole('region', { name: 'Collaboration profiles' });
    expect(section).toHaveTextContent('No candidate used the assistant');
    expect(within(section).queryByRole('table')).not.toBeInTheDocument();
  });
});
