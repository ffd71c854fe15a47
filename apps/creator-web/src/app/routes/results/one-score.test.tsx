import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { signInAs } from '../../../testing/factories.ts';
import { fakeResultService } from '../../../testing/fake-result-service.ts';
import { renderApp } from '../../../testing/render.tsx';
import { server } from '../../../testing/server.ts';
import { makeResultDetail } from '../../../testing/result-factories.ts';

describe('one score everywhere', () => {
  it('shows the same result with the same score text on the results tab, the submissions page and the result page', async () => {
    const detail = makeResultDetail({ userName: 'Grace', score: 7, maxScore: 9, status: 'graded', pendingCount: 0 });
    server.use(
      http.get('*/api/results/summary', () => HttpResponse.json({ exams: [] })),
      ...fakeResultService(detail).handlers,
    );
    const expected = '7 / 9 points · 77.8%';
    signInAs();

    const dashboard = renderApp('/creator/dashboard');
    await dashboard.user.click(await screen.findByRole('tab', { name: 'Results' }));
    const row = await screen.findByRole('row', { name: /^Grace/ });
    expect(within(row).getByTestId('score')).toHaveTextContent(expected);
    dashboard.unmount();

    const submissions = renderApp(`/creator/exam-insights/${detail.examId}/submissions`);
    const table = await screen.findByRole('table', { name: 'Candidate Submissions' });
    expect(within(table).getByTestId('score')).toHaveTextContent(expected);
    submissions.unmount();

    renderApp(`/creator/result/${detail.id}`);
    expect(await screen.findByTestId('result-score')).toHaveTextContent(expected);
  });
});
