import { CandidateHistorySchema, type CandidateAttempt, type CandidateHistory } from '@exam/domain/candidate-history';
import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { signInAs } from '../../../testing/factories.ts';
import { errorBody } from '../../../testing/handlers.ts';
import { renderApp } from '../../../testing/render.tsx';
import { server } from '../../../testing/server.ts';
import { fakeResultList } from '../../../testing/fake-results-list.ts';
import { makeResultSummary } from '../../../testing/result-factories.ts';

/** results-service's answer for one candidate; every other candidate ID is 404, as for another creator's. */
function serveCandidate(history: CandidateHistory) {
  const asked: string[] = [];
  server.use(
    http.get('*/api/results/candidates/:candidateId', ({ params }) => {
      asked.push(String(params.candidateId));
      return params.candidateId === history.studentId
        ? HttpResponse.json(CandidateHistorySchema.parse(history))
        : HttpResponse.json(errorBody('NOT_FOUND', 'Candidate not found'), { status: 404 });
    }),
  );
  return asked;
}

const attempt = (overrides: Partial<CandidateAttempt>): CandidateAttempt => ({
  attemptId: 'a-1',
  examId: 'exam-1',
  examTitle: 'Algorithms Midterm',
  name: 'Ada Lovelace',
  studentId: 'S 1/2',
  attemptNo: 1,
  startedAt: new Date(2025, 0, 5, 14, 0).toISOString(),
  submittedAt: null,
  result: null,
  ...overrides,
});

const cellsOf = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((c) => c.textContent?.trim());

describe('candidate page', () => {
  it("lists the candidate's attempts at the creator's exams with dates, scores and the way to grade each", async () => {
    const graded = makeResultSummary({ id: 'r-2', examId: 'exam-2', status: 'graded', score: 4, maxScore: 5 });
    const asked = serveCandidate({
      name: 'Ada Lovelace',
      studentId: 'S 1/2',
      truncated: false,
      attempts: [
        attempt({
          attemptId: 'a-3',
          examId: 'exam-3',
          examTitle: '',
          startedAt: new Date(2025, 0, 6, 9, 5).toISOString(),
        }),
        attempt({
          attemptId: 'a-2',
          examId: 'exam-2',
          examTitle: 'Data Structures',
          attemptNo: 2,
          submittedAt: new Date(2025, 0, 5, 14, 30).toISOString(),
          result: { ...graded, kept: true },
        }),
        attempt({
          attemptId: 'a-1',
          examId: 'exam-2',
          examTitle: 'Data Structures',
          startedAt: new Date(2025, 0, 4, 8, 0).toISOString(),
          submittedAt: new Date(2025, 0, 4, 8, 45).toISOString(),
          result: makeResultSummary({ id: 'r-1', examId: 'exam-2', kept: false }),
        }),
      ],
    });
    signInAs();
    renderApp('/creator/candidates/S%201%2F2');
    expect(await screen.findByRole('heading', { level: 1, name: 'Ada Lovelace' })).toBeInTheDocument();
    expect(screen.getByText('Candidate ID S 1/2 · 3 attempts at 2 exams')).toBeInTheDocument();
    expect(asked).toEqual(['S 1/2']);

    const [open, kept, earlier] = within(screen.getByRole('table', { name: 'Attempts and results' })).getAllByTestId(
      'candidate-attempt-row',
    );
    expect(cellsOf(open!)).toEqual(['Untitled exam', '1', 'Jan 6, 2025, 9:05 AM', '—', 'In progress', 'Live view']);
    expect(within(open!).getByRole('link', { name: 'Live view of Untitled exam' })).toHaveAttribute(
      'href',
      '/creator/exam-live/exam-3',
    );
    expect(cellsOf(kept!)).toEqual([
      'Data Structures',
      '2Counts',
      'Jan 5, 2025, 2:00 PM',
      'Jan 5, 2025, 2:30 PM',
      '4 / 5 points · 80%Graded',
      'Open Grader',
    ]);
    expect(within(kept!).getByRole('link', { name: 'Open Grader for Data Structures' })).toHaveAttribute(
      'href',
      '/creator/grade/exam-2/candidate/r-2',
    );
    expect(cellsOf(earlier!)[1]).toBe('1');
    expect(screen.queryByText(/Showing the newest/)).not.toBeInTheDocument();
  });

  it('says when the list stops at the newest attempts', async () => {
    serveCandidate({
      name: 'Many Tries',
      studentId: 'S-9',
      truncated: true,
      attempts: [attempt({ studentId: 'S-9' })],
    });
    signInAs();
    renderApp('/creator/candidates/S-9');
    expect(await screen.findByText('Showing the newest 200 attempts.')).toBeInTheDocument();
  });

  it("says the candidate was not found when none of the creator's exams has their attempt", async () => {
    serveCandidate({ name: 'Someone', studentId: 'S-1', truncated: false, attempts: [attempt({ studentId: 'S-1' })] });
    signInAs();
    renderApp('/creator/candidates/S-404');
    expect(await screen.findByText('Candidate not found')).toBeInTheDocument();
    expect(screen.getByText('No attempt at your exams was made with candidate ID "S-404".')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute('href', '/creator/dashboard');
  });

  it("is reached from a submission's candidate name", async () => {
    server.use(fakeResultList([makeResultSummary({ examId: 'exam-1', userName: 'Grace', studentId: 'G-7' })]).handler);
    serveCandidate({
      name: 'Grace',
      studentId: 'G-7',
      truncated: false,
      attempts: [attempt({ name: 'Grace', studentId: 'G-7' })],
    });
    signInAs();
    const { user } = renderApp('/creator/exam-insights/exam-1/submissions');
    await user.click(await screen.findByRole('link', { name: 'Grace' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Grace' })).toBeInTheDocument();
  });
});
