import type { InsightsReport } from '@exam/domain/insights';
import type { Question } from '@exam/domain/question';
import { act, screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { makeExam, signInAs } from '../../../testing/factories.ts';
import { errorBody, seedExams } from '../../../testing/handlers.ts';
import { renderApp } from '../../../testing/render.tsx';
import { server } from '../../../testing/server.ts';
import { makeKindsQuestions } from '../../../testing/kinds-factories.ts';
import { makeInsightsReport, makeItem } from '../../../testing/result-factories.ts';

// The charts have their own tests (exam-insights-charts.test.tsx); here they would only slow the page's queries.
vi.mock('../../../features/insights/components/charts/insights-charts.tsx', () => ({ InsightsCharts: () => null }));

function serveInsights(report: InsightsReport, questions: Question[] = []) {
  const exam = makeExam({
    id: 'exam-ins',
    title: 'Data Structures Final',
    isDraft: false,
    publishedAt: '2025-01-06T09:00:00.000Z',
    questions,
  });
  seedExams(exam);
  server.use(
    http.get('*/api/exams/:examId/insights', ({ params }) =>
      params.examId === exam.id
        ? HttpResponse.json(report)
        : HttpResponse.json(errorBody('NOT_FOUND', 'Exam not found'), { status: 404 }),
    ),
  );
  return exam;
}

async function openInsights(report: InsightsReport, questions: Question[] = []) {
  const exam = serveInsights(report, questions);
  signInAs();
  const view = renderApp(`/creator/exam-insights/${exam.id}`);
  await screen.findByRole('table', { name: 'Candidate Ranking' });
  return view;
}

const rankingNames = () =>
  within(screen.getByRole('table', { name: 'Candidate Ranking' }))
    .getAllByTestId('ranking-row')
    .map((row) => row.querySelectorAll('td')[1]?.textContent);
const footer = () => screen.getByText(/^Showing \d+ to \d+ of \d+ entries$/).textContent;

describe('exam insights', () => {
  it('shows the header, the cohort cards and Grade now when submissions are pending', async () => {
    await openInsights(makeInsightsReport());
    expect(screen.getByRole('heading', { name: 'Data Structures Final' })).toBeInTheDocument();
    expect(screen.getByText('Published Jan 6, 2025')).toBeInTheDocument();
    const summary = screen.getByRole('region', { name: 'Summary' });
    expect(within(summary).getByText('Cohort Size').nextElementSibling).toHaveTextContent('25');
    expect(within(summary).getByText('Exam Submitted').nextElementSibling).toHaveTextContent('23');
    expect(within(summary).getByTestId('pending-count')).toHaveTextContent('3 pending');
    expect(within(summary).getByRole('link', { name: 'Grade now' })).toHaveAttribute(
      'href',
      '/creator/exam-insights/exam-ins/submissions',
    );
    expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute('href', '/creator/dashboard');
  });

  it("shows the assistant's spend against the exam-wide budget, with refusals by budget", async () => {
    server.use(
      http.get('*/api/llm/exams/:examId/usage', ({ params }) =>
        HttpResponse.json({
          examId: params.examId,
          budget: { tokensPerHour: 200_000, requestsPerHour: 600 },
          lastHour: {
            requests: 42,
            tokens: 51_200,
            refusals: { examRequests: 3, examTokens: 1, attemptMessages: 2, attemptTokens: 0 },
          },
          total: {
            requests: 310,
            tokens: 402_000,
            refusals: { examRequests: 9, examTokens: 1, attemptMessages: 7, attemptTokens: 1 },
          },
        }),
      ),
    );
    await openInsights(makeInsightsReport());
    const spend = await screen.findByRole('region', { name: 'AI Assistant Spend' });
    expect(within(spend).getByText('Messages, last hour').nextElementSibling).toHaveTextContent('42 / 600');
    expect(within(spend).getByText('310 in total')).toBeInTheDocument();
    expect(within(spend).getByText('Tokens, last hour').nextElementSibling).toHaveTextContent('51,200 / 200,000');
    expect(within(spend).getByText('402,000 in total')).toBeInTheDocument();
    expect(within(spend).getByText('Refused by a budget, last hour').nextElementSibling).toHaveTextContent('6');
    expect(within(spend).getByText('Exam budget 4 · candidate budgets 2; in total 10 and 8')).toBeInTheDocument();
  });

  it('counts the assistant replies the guardrail stopped in the integrity breakdown', async () => {
    await openInsights(makeInsightsReport());
    const integrity = screen.getByRole('region', { name: 'Integrity Breakdown' });
    expect(within(integrity).getByText('Answers Withheld').nextElementSibling).toHaveTextContent('3 stopped');
  });

  it('pages the ranking ten at a time with working Previous and Next', async () => {
    const { user } = await openInsights(makeInsightsReport());
    const previous = screen.getByRole('button', { name: 'Previous' });
    const next = screen.getByRole('button', { name: 'Next' });
    expect(footer()).toBe('Showing 1 to 10 of 23 entries');
    expect(rankingNames()).toHaveLength(10);
    expect(rankingNames()[0]).toBe('Candidate 01');
    expect(previous).toBeDisabled();
    await user.click(next);
    expect(footer()).toBe('Showing 11 to 20 of 23 entries');
    expect(rankingNames()[0]).toBe('Candidate 11');
    await user.click(next);
    expect(footer()).toBe('Showing 21 to 23 of 23 entries');
    expect(rankingNames()).toEqual(['Candidate 21', 'Candidate 22', 'Candidate 23']);
    expect(next).toBeDisabled();
    await user.click(previous);
    expect(footer()).toBe('Showing 11 to 20 of 23 entries');
    expect(screen.getByTestId('ranking-scroll')).toHaveClass('h-[500px]', 'overflow-y-auto');
  });

  it('names every figure of the ranking for what it is and explains it on focus', async () => {
    await openInsights(makeInsightsReport());
    const table = screen.getByRole('table', { name: 'Candidate Ranking' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual([
      'Rank',
      'Name',
      'ID',
      'Score',
      'Items correct (unweighted)',
      'IRT ability (θ)',
      'Reasoning (AI-discounted)',
      'Actions',
    ]);
    expect(screen.getByText(/^Ranked by score \(points, each question weighted by its points/)).toBeInTheDocument();
    act(() => within(table).getByText('Items correct (unweighted)').focus());
    expect(await screen.findByRole('tooltip')).toHaveTextContent(/each question counting the same whatever its points/);
    const cohort = screen.getByRole('region', { name: 'Cohort Breakdown' });
    expect(within(cohort).getAllByText('IRT ability (θ)').length).toBeGreaterThan(0);
    expect(within(cohort).queryByText(/Raw Score/)).not.toBeInTheDocument();
  });

  it('searches candidates and toggles the sort direction when the same key is chosen again', async () => {
    const { user } = await openInsights(makeInsightsReport());
    await user.type(screen.getByPlaceholderText('Search candidates...'), 'S02');
    expect(rankingNames()).toEqual(['Candidate 20', 'Candidate 21', 'Candidate 22', 'Candidate 23']);
    expect(footer()).toBe('Showing 1 to 4 of 4 entries');
    await user.click(screen.getByRole('button', { name: /^Sort by Rank/ }));
    await user.click(await screen.findByRole('menuitem', { name: /Time Spent/ }));
    expect(rankingNames()[0]).toBe('Candidate 20');
    await user.click(screen.getByRole('button', { name: 'Sort by Time Spent, ascending' }));
    await user.click(await screen.findByRole('menuitem', { name: /Time Spent/ }));
    expect(screen.getByRole('button', { name: 'Sort by Time Spent, descending' })).toBeInTheDocument();
    expect(rankingNames()).toEqual(['Candidate 23', 'Candidate 22', 'Candidate 21', 'Candidate 20']);
  });

  it("shows '—' with the reason for a figure that could not be computed, and the explanation of the others", async () => {
    const report = makeInsightsReport({
      items: [makeItem(0, { facility: null, discriminationIndex: null }), makeItem(1)],
      integrity: {
        avgTimeToCompleteSeconds: 845,
        focusPercent: 93.4,
        externalPasteBlocked: 4,
        copyWritingPercent: null,
      },
      reasons: {
        'items.0.facility': 'No candidate has a mark for this question yet.',
        'items.0.discriminationIndex': 'Zero variance: every candidate got the same mark.',
        'integrity.copyWritingPercent': 'No candidate wrote an answer long enough to compare.',
      },
    });
    const { user } = await openInsights(report);
    const first = within(screen.getByRole('table', { name: 'Assessment Breakdown' })).getAllByTestId('item-row')[0]!;
    expect(
      within(first).getByText('(No candidate has a mark for this question yet.)', { exact: false }),
    ).toBeInTheDocument();
    expect(within(first).getByText(/Zero variance/)).toBeInTheDocument();
    expect(within(first).getAllByText('—')).toHaveLength(2);
    const integrity = screen.getByRole('region', { name: 'Integrity Breakdown' });
    expect(
      within(integrity).getAllByText(/No candidate wrote an answer long enough to compare\./).length,
    ).toBeGreaterThan(0);
    expect(within(integrity).getByText('4 blocked')).toBeInTheDocument();

    const second = within(screen.getByRole('table', { name: 'Assessment Breakdown' })).getAllByTestId('item-row')[1]!;
    await user.hover(within(second).getByText('70%'));
    expect(await screen.findByRole('tooltip')).toHaveTextContent(
      'Facility index: the share of candidates who answered correctly.',
    );
  });

  it('shows N per question when candidates drew questions from a pool, and no N column otherwise', async () => {
    await openInsights(
      makeInsightsReport({
        items: [makeItem(0, { drawn: 23 }), makeItem(1, { drawn: 9 }), makeItem(2, { drawn: 14 })],
      }),
    );
    const table = screen.getByRole('table', { name: 'Assessment Breakdown' });
    expect(within(table).getByRole('columnheader', { name: 'N (drew it)' })).toBeInTheDocument();
    const drawn = within(table)
      .getAllByTestId('item-row')
      .map((row) => row.querySelectorAll('td')[4]?.textContent);
    expect(drawn).toEqual(['23', '9', '14']);
  });

  it('names each question’s type and, where the key gives partial credit, its mean mark in points', async () => {
    const questions = makeKindsQuestions();
    await openInsights(
      makeInsightsReport({
        items: questions.map((q, i) => makeItem(i, { type: q.type, facility: i === 1 ? 2 / 3 : 0.5 })),
      }),
      questions,
    );
    const rows = within(screen.getByRole('table', { name: 'Assessment Breakdown' })).getAllByTestId('item-row');
    expect(rows.map((row) => row.querySelectorAll('td')[3]?.textContent)).toEqual([
      'Orderingpartial credit · mean 1.5 / 3 points',
      'Matchingpartial credit · mean 1.33 / 2 points',
      'Fill in the blankspartial credit · mean 1 / 2 points',
      'Numeric',
      'Calculated',
      'True/false',
      'Essay',
    ]);
  });

  it('shows no N column when every candidate had every question', async () => {
    await openInsights(makeInsightsReport({ items: [makeItem(0, { drawn: 23 })] }));
    const table = screen.getByRole('table', { name: 'Assessment Breakdown' });
    expect(within(table).queryByRole('columnheader', { name: 'N (drew it)' })).not.toBeInTheDocument();
  });

  it("shows 'Exam not found' with Back to Dashboard when the exam cannot be loaded", async () => {
    seedExams();
    server.use(
      http.get('*/api/exams/:examId/insights', () =>
        HttpResponse.json(errorBody('NOT_FOUND', 'Exam not found'), { status: 404 }),
      ),
    );
    signInAs();
    renderApp('/creator/exam-insights/missing');
    expect(await screen.findByText('Exam not found')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute('href', '/creator/dashboard');
  });
});
