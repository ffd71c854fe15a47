import type { BulkResultsReport } from '@exam/domain/result';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { signInAs } from '../../../testing/factories.ts';
import { fakeResultList } from '../../../testing/fake-results-list.ts';
import { renderApp } from '../../../testing/render.tsx';
import { makeResultSummary } from '../../../testing/result-factories.ts';
import { server } from '../../../testing/server.ts';

/** Three candidates of exam-1, and the bulk route answering `report`, keeping each body it was sent. */
function serve(report: BulkResultsReport) {
  server.use(
    fakeResultList([
      makeResultSummary({ id: 'r-ada', examId: 'exam-1', userName: 'Ada', completedAt: '2025-01-03T10:00:00Z' }),
      makeResultSummary({ id: 'r-ben', examId: 'exam-1', userName: 'Ben', completedAt: '2025-01-02T10:00:00Z' }),
      makeResultSummary({ id: 'r-cy', examId: 'exam-1', userName: 'Cy', completedAt: '2025-01-01T10:00:00Z' }),
    ]).handler,
  );
  const bodies: unknown[] = [];
  server.use(
    http.post('*/api/results/bulk', async ({ request }) => {
      bodies.push(await request.json());
      return HttpResponse.json(report);
    }),
  );
  return bodies;
}

describe('bulk actions on the submissions list', () => {
  it('shows no bar until a candidate is chosen, then scores the chosen ones’ unanswered questions 0 after confirming', async () => {
    const bodies = serve({ action: 'score-unanswered', results: 2, changed: 2, pending: 1, questionsScored: 3 });
    signInAs();
    const { user } = renderApp('/creator/exam-insights/exam-1/submissions');
    await screen.findByRole('table', { name: 'Candidate Submissions' });
    expect(screen.queryByRole('region', { name: 'Actions on the chosen candidates' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('checkbox', { name: 'Select Ada' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select Cy' }));
    const bar = screen.getByRole('region', { name: 'Actions on the chosen candidates' });
    expect(bar).toHaveTextContent('2 candidates selected');
    expect(screen.getByRole('checkbox', { name: 'Select every candidate shown' })).toHaveProperty(
      'indeterminate',
      true,
    );

    await user.click(within(bar).getByRole('button', { name: 'Score unanswered questions 0' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent('Score the unanswered questions of 2 candidates 0?');
    // Cancel sends nothing.
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(bodies).toEqual([]);

    await user.click(within(bar).getByRole('button', { name: 'Score unanswered questions 0' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Score unanswered questions 0' }),
    );
    expect(await screen.findByText('Scored 3 unanswered questions 0 in 2 results')).toBeInTheDocument();
    expect(screen.getByText('1 result still awaiting grading')).toBeInTheDocument();
    expect(bodies).toEqual([{ action: 'score-unanswered', resultIds: ['r-ada', 'r-cy'] }]);
    // Done: the selection is cleared and the bar goes.
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'Actions on the chosen candidates' })).not.toBeInTheDocument(),
    );
    expect(screen.getByRole('checkbox', { name: 'Select Ada' })).not.toBeChecked();
  });

  it('selects every candidate shown and releases their results, saying how many in the confirmation', async () => {
    const bodies = serve({ action: 'release', results: 3, changed: 3, pending: 0, questionsScored: 0 });
    signInAs();
    const { user } = renderApp('/creator/exam-insights/exam-1/submissions');
    await screen.findByRole('table', { name: 'Candidate Submissions' });
    await user.click(screen.getByRole('checkbox', { name: 'Select every candidate shown' }));
    const bar = screen.getByRole('region', { name: 'Actions on the chosen candidates' });
    expect(bar).toHaveTextContent('3 candidates selected');
    await user.click(within(bar).getByRole('button', { name: 'Release results' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent('Release the results of 3 candidates?');
    await user.click(within(dialog).getByRole('button', { name: 'Release results' }));
    expect(await screen.findByText('Released 3 results')).toBeInTheDocument();
    expect(bodies).toEqual([{ action: 'release', resultIds: ['r-ada', 'r-ben', 'r-cy'] }]);
  });

  it('keeps the selection and says why when the server refuses', async () => {
    serve({ action: 'release', results: 0, changed: 0, pending: 0, questionsScored: 0 });
    server.use(
      http.post('*/api/results/bulk', () =>
        HttpResponse.json(
          {
            error: {
              code: 'NOT_FOUND',
              message: 'Some of the chosen results were not found: reload the list and choose again.',
            },
          },
          { status: 404 },
        ),
      ),
    );
    signInAs();
    const { user } = renderApp('/creator/exam-insights/exam-1/submissions');
    await screen.findByRole('table', { name: 'Candidate Submissions' });
    await user.click(screen.getByRole('checkbox', { name: 'Select Ben' }));
    await user.click(screen.getByRole('button', { name: 'Hide results' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent('Hide the result of 1 candidate?');
    await user.click(within(dialog).getByRole('button', { name: 'Hide results' }));
    expect(await screen.findByText(/were not found/)).toBeInTheDocument();
    // The dialog stays for another try; cancelled, the choice is still there.
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('checkbox', { name: 'Select Ben' })).toBeChecked();
  });
});
