import type { ResultSummary } from '@exam/domain/result';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signInAs } from '../../../testing/factories.ts';
import { renderApp } from '../../../testing/render.tsx';
import { server } from '../../../testing/server.ts';
import { fakeResultList } from '../../../testing/fake-results-list.ts';
import { makeResultSummary } from '../../../testing/result-factories.ts';

afterEach(() => vi.restoreAllMocks());

function serveResults(results: ResultSummary[]) {
  const list = fakeResultList(results);
  server.use(list.handler);
  return list;
}

describe('submissions list', () => {
  it("lists the exam's submissions with defaults, formats, the server's score and status and Open Grader links", async () => {
    serveResults([
      makeResultSummary({
        id: 'r1',
        examId: 'exam-1',
        userName: '',
        studentId: '',
        completedAt: new Date(2025, 0, 5, 14, 30).toISOString(),
        timeSpent: 3 * 3600 + 25 * 60,
        status: 'graded',
        score: 4,
        maxScore: 5,
      }),
      makeResultSummary({
        id: 'r2',
        examId: 'exam-1',
        userName: 'Linus',
        completedAt: new Date(2025, 0, 4, 9, 5).toISOString(),
        timeSpent: 0,
      }),
      makeResultSummary({ id: 'r3', examId: 'other-exam', userName: 'Elsewhere' }),
    ]);
    signInAs();
    renderApp('/creator/exam-insights/exam-1/submissions');
    const table = await screen.findByRole('table', { name: 'Candidate Submissions' });
    expect(screen.getByLabelText('2 submissions')).toHaveTextContent('2');
    expect(screen.getByRole('link', { name: 'Grade by question' })).toHaveAttribute(
      'href',
      '/creator/grade/exam-1/question/1',
    );
    const [first, second] = within(table).getAllByTestId('submission-row');
    expect(
      within(first!)
        .getAllByRole('cell')
        .map((c) => c.textContent?.trim()),
    ).toEqual(['', 'Anonymous', 'N/A', 'Jan 5, 2025, 2:30 PM', '3h 25m', '4 / 5 points · 80%Graded', 'Open Grader']);
    expect(
      within(second!)
        .getAllByRole('cell')
        .map((c) => c.textContent?.trim()),
    ).toEqual([
      '',
      'Linus',
      expect.any(String),
      'Jan 4, 2025, 9:05 AM',
      '0s',
      '0 / 3 points · awaiting gradingPending',
      'Open Grader',
    ]);
    expect(within(first!).getByRole('link', { name: 'Open Grader for Anonymous' })).toHaveAttribute(
      'href',
      '/creator/grade/exam-1/candidate/r1',
    );
    expect(screen.getByRole('link', { name: 'Back to Insights' })).toHaveAttribute(
      'href',
      '/creator/exam-insights/exam-1',
    );
  });

  it("asks the server for this exam's submissions only, pages them with Load more and counts every submission", async () => {
    const mine = Array.from({ length: 55 }, (_v, i) =>
      makeResultSummary({
        examId: 'exam-1',
        userName: `Candidate ${i}`,
        completedAt: new Date(Date.UTC(2025, 0, 1, 0, i)).toISOString(),
      }),
    );
    const list = serveResults([
      ...mine,
      makeResultSummary({ examId: 'other-exam', userName: 'Elsewhere', completedAt: '2026-01-01T00:00:00.000Z' }),
    ]);
    server.use(
      http.get('*/api/results/summary', () =>
        HttpResponse.json({
          exams: [
            {
              examId: 'exam-1',
              examTitle: 'Algorithms Midterm',
              started: 60,
              submitted: 55,
              graded: 0,
              avgScore: null,
              pending: 55,
            },
          ],
        }),
      ),
    );
    signInAs();
    const { user } = renderApp('/creator/exam-insights/exam-1/submissions');
    const table = await screen.findByRole('table', { name: 'Candidate Submissions' });
    expect(within(table).getAllByTestId('submission-row')).toHaveLength(50);
    expect(await screen.findByLabelText('55 submissions')).toBeInTheDocument();
    expect(screen.queryByText('Elsewhere')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(within(table).getAllByTestId('submission-row')).toHaveLength(55));
    expect(screen.getByTestId('list-count')).toHaveTextContent('Showing all 55 submissions');
    expect(list.requests.every((q) => q.get('examId') === 'exam-1')).toBe(true);
  });

  it("says 'No submissions found for this exam' when there are none", async () => {
    serveResults([makeResultSummary({ examId: 'other-exam' })]);
    signInAs();
    renderApp('/creator/exam-insights/exam-1/submissions');
    expect(await screen.findByText('No submissions found for this exam')).toBeInTheDocument();
  });

  it("downloads the exam's CSV with the creator's token under the server's file name", async () => {
    serveResults([]);
    let authorization: string | null = null;
    server.use(
      http.get('*/api/exams/:examId/results.csv', ({ request }) => {
        authorization = request.headers.get('authorization');
        return new HttpResponse('name,studentId\r\nAda,S1\r\n', {
          headers: {
            'content-type': 'text/csv',
            'content-disposition': `attachment; filename="results-exam-1.csv"; filename*=UTF-8''results-exam-1.csv`,
          },
        });
      }),
    );
    const created: Blob[] = [];
    URL.createObjectURL = vi.fn((blob: Blob) => {
      created.push(blob);
      return 'blob:csv';
    });
    URL.revokeObjectURL = vi.fn();
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      expect(this.download).toBe('results-exam-1.csv');
    });
    const token = signInAs();
    const { user } = renderApp('/creator/exam-insights/exam-1/submissions');
    await user.click(await screen.findByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    expect(authorization).toBe(`Bearer ${token}`);
    expect(created[0]!.size).toBe('name,studentId\r\nAda,S1\r\n'.length);
  });

  it('downloads the gradebook, for an LMS import or with the byte-order mark Excel needs', async () => {
    serveResults([]);
    const asked: string[] = [];
    server.use(
      http.get('*/api/exams/:examId/results.csv', ({ request }) => {
        asked.push(new URL(request.url).search);
        return new HttpResponse('Name\r\n', {
          headers: {
            'content-type': 'text/csv',
            'content-disposition': `attachment; filename="gradebook-exam-1.csv"; filename*=UTF-8''gradebook-exam-1.csv`,
          },
        });
      }),
    );
    URL.createObjectURL = vi.fn(() => 'blob:csv');
    URL.revokeObjectURL = vi.fn();
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    signInAs();
    const { user } = renderApp('/creator/exam-insights/exam-1/submissions');
    await user.click(await screen.findByRole('button', { name: 'Gradebook' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Gradebook CSV (for an LMS import)' }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    await user.click(screen.getByRole('button', { name: 'Gradebook' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Gradebook for Excel' }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(2));
    expect(asked).toEqual(['?format=gradebook', '?format=gradebook&bom=true']);
    expect(await screen.findAllByText('Downloaded gradebook-exam-1.csv')).not.toHaveLength(0);
  });

  it('releases the graded results of the exam and says how many', async () => {
    serveResults([makeResultSummary({ examId: 'exam-1', status: 'graded', score: 2 })]);
    const bodies: unknown[] = [];
    server.use(
      http.post('*/api/exams/:examId/release', async ({ request, params }) => {
        bodies.push({ examId: params.examId, body: await request.json() });
        return HttpResponse.json({ released: true, changed: 4, pending: 1 });
      }),
    );
    signInAs();
    const { user } = renderApp('/creator/exam-insights/exam-1/submissions');
    await user.click(await screen.findByRole('button', { name: 'Release graded results' }));
    expect(await screen.findByText('Released 4 results')).toBeInTheDocument();
    expect(bodies).toEqual([{ examId: 'exam-1', body: { released: true } }]);
  });
});
