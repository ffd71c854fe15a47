import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { makeExam, signInAs } from '../../../testing/factories.ts';
import { seedExams } from '../../../testing/handlers.ts';
import { makeAgreement } from '../../../testing/question-grading-factories.ts';
import { renderApp } from '../../../testing/render.tsx';
import { makeInsightsReport } from '../../../testing/result-factories.ts';
import { server } from '../../../testing/server.ts';

// The charts have their own tests; here they would only slow the page.
vi.mock('../../../features/insights/components/charts/insights-charts.tsx', () => ({ InsightsCharts: () => null }));

function serveInsights(agreement: ReturnType<typeof makeAgreement>[]) {
  const exam = makeExam({ id: 'exam-agr', isDraft: false });
  const asked = { agreement: 0 };
  seedExams(exam);
  server.use(
    http.get('*/api/exams/:examId/insights', () => HttpResponse.json(makeInsightsReport())),
    http.get('*/api/exams/:examId/grading/agreement', ({ params }) => {
      asked.agreement += 1;
      return HttpResponse.json({ examId: params.examId, questions: agreement });
    }),
  );
  signInAs();
  renderApp(`/creator/exam-insights/${exam.id}`);
  return asked;
}

describe('the AI–human agreement on the insights page', () => {
  it('lists the agreement per question, linking each to its grading screen, with the notes of missing figures', async () => {
    serveInsights([
      makeAgreement(),
      makeAgreement({
        questionIndex: 3,
        title: 'Explain your proof',
        n: 6,
        weightedKappaLow: null,
        weightedKappaHigh: null,
        notes: { interval: 'fewer than 10 answers with both marks: too few for an interval' },
      }),
    ]);
    const table = await screen.findByRole('table', { name: 'AI–human agreement' });
    const cells = (row: HTMLElement) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent);
    expect(cells(within(table).getByTestId('agreement-row-1'))).toEqual([
      'Q2: Which measure resists outliers?',
      '24',
      '75%',
      '0.61',
      '0.78 (95% CI 0.65–0.90)',
      '0.42',
    ]);
    const second = within(table).getByTestId('agreement-row-3');
    expect(cells(second)[4]).toBe('0.78');
    expect(second).toHaveTextContent('Interval: fewer than 10 answers with both marks: too few for an interval');
    expect(within(table).getByRole('link', { name: 'Q4: Explain your proof' })).toHaveAttribute(
      'href',
      '/creator/grade/exam-agr/question/4',
    );
  });

  it('is absent while no question has a suggestion', async () => {
    const asked = serveInsights([]);
    await screen.findByRole('table', { name: 'Candidate Ranking' });
    await waitFor(() => expect(asked.agreement).toBe(1));
    // Let the answer reach the page before looking for the section it would add.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(screen.queryByRole('region', { name: 'AI–human agreement' })).not.toBeInTheDocument();
  });
});
