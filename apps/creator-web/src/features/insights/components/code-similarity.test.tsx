import { QuestionSchema } from '@exam/domain/question';
import { SimilarityReportSchema, type SimilarityReport } from '@exam/domain/similarity';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { makeInsightsReport } from '../../../testing/result-factories.ts';
import { makeExam, signInAs } from '../../../testing/factories.ts';
import { examStore, seedExams } from '../../../testing/handlers.ts';
import { renderApp } from '../../../testing/render.tsx';
import { server } from '../../../testing/server.ts';

// The charts have their own tests (exam-insights-charts.test.tsx); here they would only slow the page's queries.
vi.mock('../../../features/insights/components/charts/insights-charts.tsx', () => ({ InsightsCharts: () => null }));

const adaCode = 'total = 0\nfor v in values:\n    total += v\nprint(total)\n';
const bobCode = 'total = 0\nfor x in values:\n    total += x\nprint(total)\n# done\n';
const cyCode = 'print(sum(values))\n';

const candidate = (name: string, code: string) => ({ resultId: `r-${name}`, name, studentId: `S-${name}`, code });

/** The report results-service would give at `threshold`: Ada and Bob at 92 %, Cy's answer from the assistant. */
function reportAt(threshold: number, overrides: Partial<SimilarityReport> = {}): SimilarityReport {
  const pairs =
    threshold <= 0.9
      ? [
          {
            a: candidate('Ada', adaCode),
            b: candidate('Bob', bobCode),
            similarity: 0.92,
            aMatched: 0.92,
            bMatched: 0.9,
            sharedFingerprints: 11,
          },
        ]
      : [];
  return SimilarityReportSchema.parse({
    threshold,
    examThreshold: 0.8,
    method: { k: 5, window: 4, minTokens: 10 },
    questions: [
      {
        questionIndex: 1,
        title: 'Sum the values',
        language: 'python',
        answered: 3,
        compared: 3,
        tooShort: 0,
        isCapped: false,
        cap: 500,
        pairs,
        flaggedPairs: pairs.length,
        assistantMatches:
          threshold <= 0.9
            ? [
                {
                  candidate: candidate('Cy', cyCode),
                  similarity: 1,
                  isIdentical: true,
                  messageId: 'm1',
                  excerpt: cyCode,
                },
              ]
            : [],
      },
    ],
    assistantMatchesUnavailable: null,
    ...overrides,
  });
}

function serve(overrides: Partial<SimilarityReport> = {}) {
  const exam = makeExam({
    id: 'exam-sim',
    title: 'Python Quiz',
    isDraft: false,
    publishedAt: '2025-01-06T09:00:00.000Z',
    similarityThreshold: 0.8,
    questions: [
      QuestionSchema.parse({ id: 'q1', type: 'mcq', title: 'Pick', options: ['a', 'b'], correctAnswer: 'a' }),
      QuestionSchema.parse({ id: 'q2', type: 'coding', title: 'Sum the values', language: 'python' }),
    ],
  });
  seedExams(exam);
  const asked: number[] = [];
  server.use(
    http.get('*/api/exams/:examId/insights', () => HttpResponse.json(makeInsightsReport())),
    http.get('*/api/exams/:examId/insights/similarity', ({ request }) => {
      const threshold = Number(new URL(request.url).searchParams.get('threshold'));
      asked.push(threshold);
      return HttpResponse.json(reportAt(threshold, overrides));
    }),
  );
  signInAs();
  return { exam, asked, view: renderApp(`/creator/exam-insights/${exam.id}`) };
}

const section = () => screen.findByRole('region', { name: 'Code similarity' });

describe('code similarity on the insights page', () => {
  it("lists the flagged pairs at the exam's threshold and opens a side-by-side diff of the selected one", async () => {
    const { view, asked } = serve();
    const region = await section();
    const pair = await within(region).findByRole('button', { name: 'Ada and Bob: 92 %' });
    expect(asked).toEqual([0.8]);
    expect(within(region).getByRole('heading', { name: 'Q2: Sum the values' })).toBeInTheDocument();
    expect(within(region).queryByRole('table')).not.toBeInTheDocument();

    await view.user.click(pair);
    expect(pair).toHaveAttribute('aria-pressed', 'true');
    const diff = within(region).getByRole('table', { name: /Ada \(left\) and Bob \(right\)/ });
    expect(within(diff).getByRole('columnheader', { name: 'Ada' })).toBeInTheDocument();
    expect(within(diff).getByRole('columnheader', { name: 'Bob' })).toBeInTheDocument();
    const rows = within(diff).getAllByRole('row').slice(1);
    // Changed lines say so in words, not only in colour; shared lines carry no marker.
    const changedRow = rows.find((r) => r.textContent?.includes('for v in values:'));
    expect(changedRow).toHaveTextContent('changed');
    expect(changedRow).toHaveTextContent('for x in values:');
    const sameRow = rows.find((r) => r.textContent?.includes('print(total)'));
    expect(sameRow).not.toHaveTextContent(/changed|only/);
    expect(rows.find((r) => r.textContent?.includes('# done'))).toHaveTextContent('only right');
  });

  it('re-queries when the threshold moves and shows the empty state when nothing is that similar', async () => {
    const { asked } = serve();
    const region = await section();
    await within(region).findByRole('button', { name: 'Ada and Bob: 92 %' });
    fireEvent.change(within(region).getByRole('slider', { name: 'Similarity threshold' }), {
      target: { value: '0.95' },
    });
    expect(await within(region).findByText('No similar answers at this threshold')).toBeInTheDocument();
    expect(asked).toEqual([0.8, 0.95]);
    expect(within(region).getByText('95 %')).toBeInTheDocument();
  });

  it('saves the chosen threshold as the exam default', async () => {
    const { view, exam } = serve();
    const region = await section();
    const save = within(region).getByRole('button', { name: 'Save as exam default' });
    expect(save).toBeDisabled();
    fireEvent.change(within(region).getByRole('slider', { name: 'Similarity threshold' }), {
      target: { value: '0.6' },
    });
    expect(save).toBeEnabled();
    await view.user.click(save);
    await waitFor(() =>
      expect(examStore.writes).toContainEqual({
        method: 'PUT',
        path: `/api/exams/${exam.id}`,
        body: { similarityThreshold: 0.6 },
      }),
    );
    await waitFor(() => expect(save).toBeDisabled());
  });

  it('lists answers matching the assistant with the reply and compares them side by side', async () => {
    const { view } = serve();
    const region = await section();
    const matches = await within(region).findByRole('list', { name: 'Answers matching the AI assistant' });
    expect(within(matches).getByText(/Cy’s answer matches an assistant reply: 100 %/)).toBeInTheDocument();
    expect(within(matches).getByText('Identical')).toBeInTheDocument();
    expect(within(matches).getByLabelText('Assistant reply to Cy')).toHaveTextContent('print(sum(values))');
    await view.user.click(within(matches).getByRole('button', { name: 'Compare with Cy’s answer' }));
    expect(
      within(region).getByRole('table', { name: /Cy \(left\) and Assistant reply \(right\): no line differs/ }),
    ).toBeInTheDocument();
  });

  it('shows the reason when the transcripts are unavailable', async () => {
    serve({ assistantMatchesUnavailable: 'The AI assistant’s chat transcripts could not be loaded.' });
    const region = await section();
    expect(await within(region).findByText(/chat transcripts could not be loaded/)).toBeInTheDocument();
  });

  it('leaves the section out of an exam without coding questions', async () => {
    const exam = makeExam({ id: 'exam-mcq', isDraft: false, publishedAt: '2025-01-06T09:00:00.000Z' });
    seedExams(exam);
    server.use(http.get('*/api/exams/:examId/insights', () => HttpResponse.json(makeInsightsReport())));
    signInAs();
    renderApp(`/creator/exam-insights/${exam.id}`);
    await screen.findByRole('table', { name: 'Candidate Ranking' });
    expect(screen.queryByRole('region', { name: 'Code similarity' })).not.toBeInTheDocument();
  });
});
