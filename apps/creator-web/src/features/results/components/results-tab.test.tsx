import { QuestionSchema } from '@exam/domain/question';
import { RESULTS_PAGE_DEFAULT, type ExamResultsSummary, type ResultSummary } from '@exam/domain/result';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { makeExam, signInAs } from '../../../testing/factories.ts';
import { fakeResultList } from '../../../testing/fake-results-list.ts';
import { seedExams } from '../../../testing/handlers.ts';
import { renderApp } from '../../../testing/render.tsx';
import { server } from '../../../testing/server.ts';
import { makeResultSummary } from '../../../testing/result-factories.ts';

function serveResults(results: ResultSummary[], exams: ExamResultsSummary['exams'] = []) {
  const list = fakeResultList(results);
  server.use(
    list.handler,
    http.get('*/api/results/summary', () => HttpResponse.json({ exams })),
  );
  return list;
}

async function openResultsTab() {
  signInAs();
  const view = renderApp('/creator/dashboard');
  await view.user.click(await screen.findByRole('tab', { name: 'Results' }));
  return view;
}

const studentsInTable = () =>
  within(screen.getByRole('table', { name: 'Exam Grading' }))
    .getAllByTestId('grading-row')
    .map((row) => row.querySelector('td')?.textContent);

describe('dashboard Results tab', () => {
  const results = [
    makeResultSummary({
      userName: 'Carol',
      studentId: 'S-3',
      examTitle: 'Biology',
      status: 'graded',
      score: 9,
      maxScore: 20,
      totalQuestions: 20,
      answeredCount: 18,
      completedAt: '2025-01-03T10:00:00.000Z',
    }),
    makeResultSummary({
      userName: 'alice',
      studentId: 'S-1',
      examTitle: 'Physics',
      status: 'pending',
      score: 2,
      maxScore: 3,
      completedAt: '2025-01-05T10:00:00.000Z',
    }),
    makeResultSummary({
      userName: 'Bob',
      studentId: 'X-42',
      examTitle: 'Algebra',
      status: 'released',
      score: 9,
      maxScore: 10,
      totalQuestions: 10,
      completedAt: '2025-01-04T10:00:00.000Z',
    }),
    makeResultSummary({
      userName: '',
      studentId: 'S-9',
      examTitle: 'Physics',
      status: 'pending',
      score: 0,
      completedAt: '2025-01-01T10:00:00.000Z',
    }),
  ];

  it('shows per-exam summary cards with invitations sent, started, attempts, graded, average score and View Insights', async () => {
    const exam = makeExam({
      id: 'exam-phys',
      title: 'Physics',
      isDraft: false,
      questions: [QuestionSchema.parse({ id: 'q1', type: 'mcq', title: 'Q', options: ['a', 'b'], correctAnswer: 'a' })],
    });
    seedExams(exam);
    serveResults(results, [
      { examId: 'exam-phys', examTitle: 'Physics', started: 9, submitted: 7, graded: 5, avgScore: 72.46, pending: 2 },
    ]);
    server.use(
      http.get('*/api/exams/invitation-counts', () =>
        HttpResponse.json({ exams: [{ examId: 'exam-phys', invited: 3 }] }),
      ),
    );
    await openResultsTab();
    const card = await screen.findByRole('group', { name: 'Physics' });
    expect(within(card).getByText('1 question')).toBeInTheDocument();
    const figure = (label: string) => within(card).getByText(label).nextElementSibling?.textContent;
    await waitFor(() => expect(figure('Invites Sent')).toBe('3'));
    expect(figure('Started')).toBe('9');
    expect(figure('Attempts')).toBe('7');
    expect(figure('Graded')).toBe('5');
    expect(figure('Avg Score')).toBe('72.5%');
    expect(within(card).getByText('2 awaiting grading')).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'View Insights for Physics' })).toHaveAttribute(
      'href',
      '/creator/exam-insights/exam-phys',
    );
  });

  it("lists every result newest first with the server's score and status, completion and a link to the result", async () => {
    serveResults(results);
    await openResultsTab();
    await screen.findByRole('table', { name: 'Exam Grading' });
    expect(studentsInTable()).toEqual(['alice', 'Bob', 'Carol', 'Anonymous']);
    const row = (name: string) => screen.getByRole('row', { name: new RegExp(`^${name}`) });
    expect(within(row('alice')).getByTestId('score')).toHaveTextContent('2 / 3 points · awaiting gradingPending');
    expect(within(row('Bob')).getByTestId('score')).toHaveTextContent('9 / 10 points · 90%Released');
    expect(within(row('Carol')).getByTestId('score')).toHaveTextContent('9 / 20 points · 45%Graded');
    expect(within(row('Anonymous')).getByTestId('score')).toHaveTextContent('0 / 3 points · awaiting gradingPending');
    expect(within(row('alice')).queryByText(/%/)).not.toBeInTheDocument();
    expect(within(row('Carol')).getByText('18/20')).toBeInTheDocument();
    expect(within(row('Bob')).getByRole('link', { name: 'View result of Bob' })).toHaveAttribute(
      'href',
      `/creator/result/${results[2]!.id}`,
    );
  });

  it('searches names, student IDs and exam titles on the server once typing pauses, and says when nothing matches', async () => {
    const list = serveResults(results);
    const { user } = await openResultsTab();
    const search = await screen.findByPlaceholderText('Search students, IDs, or exams...');
    await screen.findByRole('table', { name: 'Exam Grading' });
    await user.type(search, 'physics');
    await waitFor(() => expect(studentsInTable()).toEqual(['alice', 'Anonymous']));
    // One request for the pause after the last key, not one per key.
    expect(list.requests.map((q) => q.get('search')).filter(Boolean)).toEqual(['physics']);
    await user.clear(search);
    await user.type(search, 'x-4');
    await waitFor(() => expect(studentsInTable()).toEqual(['Bob']));
    await user.type(search, 'zzz');
    expect(await screen.findByText('No results match your filters')).toBeInTheDocument();
  });

  it('filters graded and not graded results on the server and sorts by name, exam and score', async () => {
    const list = serveResults(results);
    const { user } = await openResultsTab();
    await screen.findByRole('table', { name: 'Exam Grading' });
    const choose = async (control: string, option: string) => {
      await user.click(screen.getByRole('combobox', { name: control }));
      await user.click(await screen.findByRole('option', { name: option }));
    };
    await choose('Filter results', 'Graded');
    await waitFor(() => expect(studentsInTable()).toEqual(['Bob', 'Carol']));
    await choose('Filter results', 'Not Graded');
    await waitFor(() => expect(studentsInTable()).toEqual(['alice', 'Anonymous']));
    expect(list.requests.map((q) => q.get('graded'))).toEqual([null, 'true', 'false']);
    await choose('Filter results', 'All Results');
    await waitFor(() => expect(studentsInTable()).toHaveLength(4));
    await choose('Sort results', 'Name');
    expect(studentsInTable()).toEqual(['alice', 'Anonymous', 'Bob', 'Carol']);
    await choose('Sort results', 'Exam');
    expect(studentsInTable()).toEqual(['Bob', 'Carol', 'alice', 'Anonymous']);
    await choose('Sort results', 'Score');
    // Highest percentage first; results awaiting grading after the graded ones.
    expect(studentsInTable()).toEqual(['Bob', 'Carol', 'alice', 'Anonymous']);
  });

  it('shows the newest page first and the next one on Load more, until all are shown', async () => {
    const many = Array.from({ length: RESULTS_PAGE_DEFAULT + 7 }, (_v, i) =>
      makeResultSummary({
        userName: `Candidate ${String(i).padStart(2, '0')}`,
        completedAt: new Date(Date.UTC(2025, 0, 1, 0, i)).toISOString(),
      }),
    );
    const list = serveResults(many);
    const { user } = await openResultsTab();
    await screen.findByRole('table', { name: 'Exam Grading' });
    expect(studentsInTable()).toHaveLength(RESULTS_PAGE_DEFAULT);
    expect(studentsInTable()[0]).toBe(`Candidate ${RESULTS_PAGE_DEFAULT + 6}`);
    expect(screen.getByTestId('list-count')).toHaveTextContent(
      `Showing the ${RESULTS_PAGE_DEFAULT} most recent results`,
    );

    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(studentsInTable()).toHaveLength(RESULTS_PAGE_DEFAULT + 7));
    expect(studentsInTable().at(-1)).toBe('Candidate 00');
    expect(screen.getByTestId('list-count')).toHaveTextContent(`Showing all ${RESULTS_PAGE_DEFAULT + 7} results`);
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(list.requests.map((q) => q.has('cursor'))).toEqual([false, true]);
  });

  it("says 'No results yet' when the creator has no submissions", async () => {
    serveResults([]);
    await openResultsTab();
    expect(await screen.findByText('No results yet')).toBeInTheDocument();
  });
});
