import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { signInAs } from '../../../testing/factories.ts';
import { fakeResultList } from '../../../testing/fake-results-list.ts';
import { renderApp } from '../../../testing/render.tsx';
import { makeResultSummary } from '../../../testing/result-factories.ts';
import { server } from '../../../testing/server.ts';

describe('practice attempts in the results list', () => {
  it('marks a practice attempt Practice, and no other', async () => {
    const practice = makeResultSummary({ userName: 'Ada', status: 'graded', score: 2, practice: true });
    const real = makeResultSummary({ userName: 'Bob', status: 'graded', score: 3 });
    server.use(
      fakeResultList([practice, real]).handler,
      http.get('*/api/results/summary', () => HttpResponse.json({ exams: [] })),
    );
    signInAs();
    const { user } = renderApp('/creator/dashboard');
    await user.click(await screen.findByRole('tab', { name: 'Results' }));
    const rows = await screen.findAllByTestId('grading-row');
    const rowOf = (name: string) => rows.find((row) => row.textContent?.includes(name))!;
    expect(within(rowOf('Ada')).getByTestId('practice-badge')).toHaveTextContent('Practice');
    expect(within(rowOf('Bob')).queryByTestId('practice-badge')).not.toBeInTheDocument();
  });
});
