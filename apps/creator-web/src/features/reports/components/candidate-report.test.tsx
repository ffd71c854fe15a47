import {
  ReportMessages,
  type CandidateReport,
  type CreatedReportLink,
  type ReportLink,
} from '@exam/domain/candidate-report';
import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { signInAs } from '../../../testing/factories.ts';
import { fakeResultService } from '../../../testing/fake-result-service.ts';
import { errorBody } from '../../../testing/handlers.ts';
import { renderApp } from '../../../testing/render.tsx';
import { makeResultDetail } from '../../../testing/result-factories.ts';
import { server } from '../../../testing/server.ts';

const TOKEN = 'tok_'.padEnd(43, 'x');

function makeReport(overrides: Partial<CandidateReport> = {}): CandidateReport {
  return {
    candidate: { name: 'Grace Hopper', studentId: 'H-0001' },
    exam: { title: 'Systems interview' },
    attemptNo: 1,
    startedAt: '2031-01-01T09:00:00.000Z',
    submittedAt: '2031-01-01T09:12:30.000Z',
    score: { points: 3, maxPoints: 4, percentage: 75, status: 'graded' },
    topics: {
      groupedBy: 'topic',
      rows: [
        { label: 'Algebra', number: 1, points: 2, maxPoints: 2, questions: 2, pending: 0 },
        { label: '', number: 2, points: 1, maxPoints: 2, questions: 2, pending: 1 },
      ],
    },
    percentile: { value: 60, cohortSize: 5, minimumCohort: 5, withheld: null },
    time: { spentSeconds: 750, limitSeconds: 1800 },
    process: {
      characters: 1200,
      typedPercent: 80,
      pastedPercent: 10,
      assistantPercent: 8,
      autocompletePercent: 2,
      restoredPercent: 0,
      assistantMessages: 3,
    },
    collaboration: {
      state: 'shown',
      dimensions: [
        { dimension: 'framing', level: null, basis: 'judgement' },
        { dimension: 'integration', level: 3, basis: 'process' },
      ],
    },
    integrity: {
      fullScreenRequired: true,
      focusLost: { count: 0, seconds: 0 },
      fullscreenExits: { count: 2, seconds: 40 },
      pastesBlocked: 1,
    },
    expiresAt: '2031-01-08T09:00:00.000Z',
    ...overrides,
  };
}

describe('the candidate report page', () => {
  it('reads the figures in plain words, without signing in', async () => {
    server.use(http.get('*/api/reports/:token', () => HttpResponse.json(makeReport())));
    renderApp(`/report/${TOKEN}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Grace Hopper' })).toBeInTheDocument();
    expect(screen.getByTestId('report-score')).toHaveTextContent('75%');
    expect(screen.getByText('3 of 4 points')).toBeInTheDocument();
    const topics = screen.getByRole('table');
    expect(within(topics).getByRole('rowheader', { name: 'Algebra' })).toBeInTheDocument();
    expect(
      within(topics).getByRole('rowheader', { name: /^Other questions\s*\(1 question awaiting grading\)$/ }),
    ).toBeInTheDocument();
    expect(screen.getByTestId('report-percentile')).toHaveTextContent(
      '60th percentile among 5 candidates with a graded result.',
    );
    expect(screen.getByTestId('report-time')).toHaveTextContent('Took 12 min 30 s of the 30 min allowed.');
    expect(screen.getByTestId('report-process')).toHaveTextContent(
      'Of the 1,200 characters in the final answers, 80% were typed by the candidate, 10% were pasted from within the exam, 8% came from the AI assistant and 2% from autocomplete or restored drafts. The candidate wrote to the AI assistant 3 times.',
    );
    expect(screen.getByText('Not assessed yet')).toBeInTheDocument();
    expect(screen.getByText('3 of 4')).toBeInTheDocument();
    const integrity = screen.getByTestId('report-integrity');
    expect(integrity).toHaveTextContent('Did not leave the exam window.');
    expect(integrity).toHaveTextContent('Left full screen 2 times, 40 s in total.');
    expect(integrity).toHaveTextContent('One paste from outside the exam was blocked');
    expect(screen.getByRole('button', { name: 'Print or save as PDF' })).toBeInTheDocument();
  });

  it('says why the percentile is withheld in a small cohort', async () => {
    server.use(
      http.get('*/api/reports/:token', () =>
        HttpResponse.json(
          makeReport({ percentile: { value: null, cohortSize: 3, minimumCohort: 5, withheld: 'small-cohort' } }),
        ),
      ),
    );
    renderApp(`/report/${TOKEN}`);
    expect(await screen.findByTestId('report-percentile')).toHaveTextContent(
      'Not shown: only 3 candidates have a graded result, and with fewer than 5 a percentile could identify people.',
    );
  });

  it('shows the server’s one message for a dead link', async () => {
    server.use(
      http.get('*/api/reports/:token', () =>
        HttpResponse.json(errorBody('NOT_FOUND', ReportMessages.notFound), { status: 404 }),
      ),
    );
    renderApp(`/report/${TOKEN}`);
    expect(await screen.findByRole('heading', { name: 'Report not available' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(ReportMessages.notFound);
  });
});

describe('sharing a report from the result page', () => {
  it('creates a link for the chosen days, shows it once and revokes a listed one', async () => {
    signInAs();
    const detail = makeResultDetail();
    const link: ReportLink = {
      id: 'link-1',
      resultId: detail.id,
      state: 'active',
      createdAt: '2031-01-01T09:00:00.000Z',
      createdBy: 'me@example.test',
      expiresAt: '2031-01-31T09:00:00.000Z',
      revokedAt: null,
      lastOpenedAt: null,
      openCount: 0,
    };
    let links: ReportLink[] = [];
    const bodies: unknown[] = [];
    server.use(
      ...fakeResultService(detail).handlers,
      http.get('*/api/results/:id/report-links', () => HttpResponse.json({ links })),
      http.post('*/api/results/:id/report-links', async ({ request }) => {
        bodies.push(await request.json());
        links = [link];
        return HttpResponse.json({ ...link, token: TOKEN } satisfies CreatedReportLink, { status: 201 });
      }),
      http.delete('*/api/results/:id/report-links/:linkId', () => {
        links = [{ ...link, state: 'revoked', revokedAt: '2031-01-02T09:00:00.000Z' }];
        return HttpResponse.json(links[0]);
      }),
    );
    const { user } = renderApp(`/creator/result/${detail.id}`);
    expect(await screen.findByText('No report links yet.')).toBeInTheDocument();
    await user.click(screen.getByRole('combobox', { name: 'Link valid for' }));
    await user.click(await screen.findByRole('option', { name: '30 days' }));
    await user.click(screen.getByRole('button', { name: 'Create link' }));
    expect(await screen.findByLabelText('New report link')).toHaveValue(`http://localhost:3000/report/${TOKEN}`);
    expect(bodies).toEqual([{ expiresInDays: 30 }]);
    const row = await screen.findByTestId('report-link');
    expect(row).toHaveTextContent('Active');
    await user.click(within(row).getByRole('button', { name: /^Revoke the link created/ }));
    expect(await within(await screen.findByTestId('report-link')).findByText('Revoked')).toBeInTheDocument();
  });
});
