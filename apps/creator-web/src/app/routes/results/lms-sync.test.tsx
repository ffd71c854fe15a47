import type { ResultDetail } from '@exam/domain/result';
import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { signInAs } from '../../../testing/factories.ts';
import { fakeResultService } from '../../../testing/fake-result-service.ts';
import { renderApp } from '../../../testing/render.tsx';
import { server } from '../../../testing/server.ts';
import { fakeResultList } from '../../../testing/fake-results-list.ts';
import { makeResultDetail, makeResultSummary } from '../../../testing/result-factories.ts';

async function openResult(detail: ResultDetail) {
  server.use(...fakeResultService(detail).handlers);
  signInAs();
  const view = renderApp(`/creator/result/${detail.id}`);
  await screen.findByRole('heading', { name: 'Exam Result Details' });
  return view;
}

describe('the LMS score passback on a result', () => {
  it('shows a score the LMS took, with nothing to retry', async () => {
    await openResult(
      makeResultDetail({ lmsSync: { state: 'sent', tries: 1, lastError: null, syncedAt: '2030-01-01T10:00:00.000Z' } }),
    );
    expect(screen.getByTestId('lms-sync')).toHaveTextContent('Sent to LMS');
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
  });

  it("describes the LMS's refusal and sends the score again on Retry", async () => {
    const failed = makeResultDetail({
      lmsSync: { state: 'failed', tries: 3, lastError: 'The LMS refused the score (400)', syncedAt: null },
    });
    const retried: string[] = [];
    const { user } = await openResult(failed);
    const chip = screen.getByTestId('lms-sync');
    expect(chip).toHaveTextContent('LMS sync failed');
    expect(chip).toHaveAccessibleDescription('Last try (3): The LMS refused the score (400)');
    server.use(
      http.post('*/api/results/:id/lms-sync/retry', ({ params }) => {
        retried.push(String(params.id));
        return HttpResponse.json({
          ...failed,
          lmsSync: { state: 'pending', tries: 0, lastError: null, syncedAt: null },
        });
      }),
      http.get('*/api/results/:id', () =>
        HttpResponse.json({ ...failed, lmsSync: { state: 'pending', tries: 0, lastError: null, syncedAt: null } }),
      ),
    );
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Sending to LMS')).toBeInTheDocument();
    expect(retried).toEqual([failed.id]);
  });

  it('shows no LMS status for a result that did not come from an LMS', async () => {
    await openResult(makeResultDetail());
    expect(screen.queryByTestId('lms-sync')).not.toBeInTheDocument();
  });

  it('lists the LMS status beside the score of each result that came from an LMS', async () => {
    const fromLms = makeResultSummary({
      userName: 'Ada',
      status: 'released',
      score: 2,
      lmsSync: { state: 'pending', tries: 1, lastError: 'The LMS answered 503', syncedAt: null },
    });
    const refused = makeResultSummary({
      userName: 'Cy',
      status: 'released',
      score: 1,
      lmsSync: { state: 'failed', tries: 8, lastError: 'The LMS refused the score (400)', syncedAt: null },
    });
    const walkIn = makeResultSummary({ userName: 'Bob', status: 'released', score: 3 });
    server.use(
      fakeResultList([fromLms, walkIn, refused]).handler,
      http.get('*/api/results/summary', () => HttpResponse.json({ exams: [] })),
    );
    signInAs();
    const { user } = renderApp('/creator/dashboard');
    await user.click(await screen.findByRole('tab', { name: 'Results' }));
    const rows = await screen.findAllByTestId('grading-row');
    const rowOf = (name: string) => rows.find((row) => row.textContent?.includes(name))!;
    const chip = within(rowOf('Ada')).getByTestId('lms-sync');
    expect(chip).toHaveTextContent('Sending to LMS');
    expect(chip).toHaveAccessibleDescription('Last try (1): The LMS answered 503');
    expect(within(rowOf('Bob')).queryByTestId('lms-sync')).not.toBeInTheDocument();
    expect(
      within(rowOf('Cy')).getByRole('button', { name: "Retry sending Cy's score to the LMS" }),
    ).toBeInTheDocument();
    expect(within(rowOf('Ada')).queryByRole('button', { name: /Retry/ })).not.toBeInTheDocument();
  });
});
