import type { InsightsReport } from '@exam/domain/insights';
import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { makeExam, signInAs } from '../../../testing/factories.ts';
import { seedExams } from '../../../testing/handlers.ts';
import { renderApp } from '../../../testing/render.tsx';
import { server } from '../../../testing/server.ts';
import { makeCandidate, makeChartedInsightsReport, makeInsightsReport } from '../../../testing/result-factories.ts';

/** Serves `reports[model]` for GET …/insights?model=…, recording which models were asked for. */
function serveInsights(reports: Partial<Record<'auto' | 'rasch' | '2pl', InsightsReport>>) {
  const exam = makeExam({
    id: 'exam-charts',
    title: 'Charts Final',
    isDraft: false,
    publishedAt: '2025-01-06T09:00:00.000Z',
  });
  seedExams(exam);
  const asked: string[] = [];
  server.use(
    http.get('*/api/exams/:examId/insights', ({ request }) => {
      const model = (new URL(request.url).searchParams.get('model') ?? 'auto') as 'auto' | 'rasch' | '2pl';
      asked.push(model);
      return HttpResponse.json(reports[model] ?? reports.auto);
    }),
  );
  return { exam, asked };
}

async function openCharts(reports: Partial<Record<'auto' | 'rasch' | '2pl', InsightsReport>>) {
  const { exam, asked } = serveInsights(reports);
  signInAs();
  const view = renderApp(`/creator/exam-insights/${exam.id}`);
  // The first test waits for Recharts to compile on a loaded machine; the others find it cached.
  await screen.findByTestId('chart-scores', {}, { timeout: 60_000 });
  return { ...view, asked };
}

const chart = (name: string) => screen.getByTestId(`chart-${name}`);
const rowsOf = (table: HTMLElement) => within(table).getAllByRole('row').slice(1);

describe('exam insights charts', () => {
  it('draws every chart as a named image with its data table, from the same report as the tables', async () => {
    await openCharts({ auto: makeChartedInsightsReport() });

    const scores = chart('scores');
    expect(within(scores).getByRole('img', { name: "Histogram of 23 candidates' scores" })).toBeInTheDocument();
    expect(within(scores).getByText(/23 candidates: mean 56%, median 56%/)).toBeInTheDocument();
    const scoreRows = rowsOf(within(scores).getByRole('table', { name: 'Score distribution data' }));
    expect(scoreRows).toHaveLength(10);
    expect(scoreRows.reduce((sum, row) => sum + Number(row.lastElementChild?.textContent), 0)).toBe(23);
    expect(scores.querySelectorAll('.recharts-bar-rectangle path').length).toBe(
      scoreRows.filter((row) => row.lastElementChild?.textContent !== '0').length,
    );

    const topics = chart('topics');
    expect(within(topics).getByRole('img', { name: /items correct and IRT ability for 2 topics/ })).toBeInTheDocument();
    expect(rowsOf(within(topics).getByRole('table', { name: 'Scores by topic data' }))).toHaveLength(2);
    expect(topics.querySelectorAll('.recharts-bar-rectangle path')).toHaveLength(4);

    const itemMap = chart('item-map');
    expect(
      within(itemMap).getByRole('group', { name: /facility against discrimination for 3 questions/ }),
    ).toBeInTheDocument();
    expect(within(itemMap).getAllByTestId('item-map-point')).toHaveLength(3);
    expect(
      within(itemMap).getByRole('button', { name: /Question 2, Multiple choice: facility 45%, discrimination -12%/ }),
    ).toBeInTheDocument();
    const legend = [...itemMap.querySelectorAll('.recharts-legend-item-text')].map((e) => e.textContent);
    expect(legend.sort()).toEqual(['File upload', 'Multiple choice']);

    const wright = chart('wright');
    expect(
      within(wright).getByRole('img', { name: 'Person–item map of 23 candidates and 3 questions' }),
    ).toBeInTheDocument();
    expect(within(wright).getByText(/from the 2PL model/)).toBeInTheDocument();
    const wrightRows = rowsOf(within(wright).getByRole('table', { name: 'Wright map data' }));
    expect(wrightRows.reduce((sum, row) => sum + Number(row.children[1]?.textContent), 0)).toBe(23);

    const curve = chart('curve');
    expect(within(curve).getByRole('img', { name: /question 1 with 3 observed groups/ })).toBeInTheDocument();
    expect(within(curve).getByText('Question 1: discrimination 1.40, difficulty -0.60 logits.')).toBeInTheDocument();
    expect(rowsOf(within(curve).getByRole('table', { name: /curve data for question 1/ }))).toHaveLength(3);
    expect(curve.querySelectorAll('.recharts-scatter-symbol')).toHaveLength(3);
    expect(within(curve).getAllByText('n=8')).toHaveLength(2);

    const uplift = chart('uplift');
    expect(within(uplift).getByRole('img', { name: 'Forest plot of AI uplift for 5 rows' })).toBeInTheDocument();
    expect(
      within(uplift).getByText(/a difference shows an association, not what the assistant caused/),
    ).toBeInTheDocument();
    const upliftRows = rowsOf(within(uplift).getByRole('table', { name: 'AI uplift data' }));
    expect(upliftRows.map((row) => row.firstElementChild?.textContent)).toEqual([
      'Whole exam',
      'Sorting',
      'Graphs',
      'Q1',
      'Q2',
      'Q3',
    ]);
    expect(upliftRows[0]).toHaveTextContent('+12');
    expect(upliftRows[5]).toHaveTextContent('Nobody asked the assistant about this question.');

    const perQuestion = chart('time-per-question');
    expect(
      within(perQuestion).getByRole('img', { name: 'Bar chart of the median time on 2 questions' }),
    ).toBeInTheDocument();
    expect(rowsOf(within(perQuestion).getByRole('table', { name: 'Time per question data' }))).toHaveLength(2);

    const complete = chart('time-to-complete');
    expect(
      within(complete).getByRole('img', { name: 'Histogram of time to complete for 23 candidates' }),
    ).toBeInTheDocument();

    const aiUse = chart('ai-use');
    expect(
      within(aiUse).getByRole('img', { name: /8 assistant questions over the exam's duration/ }),
    ).toBeInTheDocument();
    expect(rowsOf(within(aiUse).getByRole('table', { name: 'AI use over the exam data' }))).toHaveLength(3);
    expect(aiUse.querySelectorAll('.recharts-bar-rectangle path')).toHaveLength(3);
  }, 90_000);

  it('keeps each data table visually hidden until asked for, and always readable by screen readers', async () => {
    const { user } = await openCharts({ auto: makeChartedInsightsReport() });
    const scores = chart('scores');
    const toggle = within(scores).getByRole('button', { name: 'Show the data as a table' });
    const table = within(scores).getByRole('table', { name: 'Score distribution data' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(table.closest('.sr-only')).not.toBeNull();
    await user.click(toggle);
    expect(within(scores).getByRole('button', { name: 'Hide the data table' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    expect(table.closest('.sr-only')).toBeNull();
  });

  it('says what each chart needs instead of drawing empty axes when there is not enough data', async () => {
    const report = makeInsightsReport({
      test: { ...makeInsightsReport().test, candidates: 1 },
      candidates: [makeCandidate(1, { abilityTheta: null, timeSpent: 700 })],
      items: makeInsightsReport().items.map((item) => ({
        ...item,
        facility: null,
        discriminationIndex: null,
        raschDifficulty: null,
      })),
      topics: [{ topic: 'Sorting', questions: 3, rawScorePercent: null, abilityPercent: null, reasoningPercent: null }],
      reasons: {
        rasch: 'Rasch needs at least 2 candidates with some right and some wrong answers.',
        'items.0.raschDifficulty': 'Everybody got this question right.',
      },
    });
    await openCharts({ auto: report });
    const needs = (name: string) => within(chart(name)).getByTestId('chart-needs');
    expect(needs('scores')).toHaveTextContent('Needs at least 2 submitted candidates.');
    expect(needs('topics')).toHaveTextContent('Needs graded answers in at least one topic.');
    expect(needs('item-map')).toHaveTextContent('Needs marks on at least one question');
    expect(needs('wright')).toHaveTextContent(
      'Rasch needs at least 2 candidates with some right and some wrong answers.',
    );
    expect(needs('curve')).toHaveTextContent('Everybody got this question right.');
    expect(needs('uplift')).toHaveTextContent('This report has no AI uplift figures yet.');
    expect(needs('time-per-question')).toHaveTextContent('Needs question view times');
    expect(needs('time-to-complete')).toHaveTextContent('Needs at least 2 submitted candidates.');
    expect(needs('ai-use')).toHaveTextContent('This report has no assistant use over time yet.');
    expect(within(screen.getByRole('region', { name: 'Charts' })).queryAllByRole('img')).toHaveLength(0);
    expect(within(screen.getByRole('region', { name: 'Charts' })).queryAllByRole('table')).toHaveLength(0);
  });

  it("goes to a question's row of the assessment breakdown from its point, by click or by Enter", async () => {
    const { user } = await openCharts({ auto: makeChartedInsightsReport() });
    const rows = within(screen.getByRole('table', { name: 'Assessment Breakdown' })).getAllByTestId('item-row');
    await user.click(screen.getByRole('button', { name: /^Question 3, File upload/ }));
    expect(rows[2]).toHaveFocus();
    screen.getByRole('button', { name: /^Question 2, Multiple choice/ }).focus();
    await user.keyboard('{Enter}');
    expect(rows[1]).toHaveFocus();
  });

  it('draws the chosen question’s curve from its own score groups', async () => {
    const { user } = await openCharts({ auto: makeChartedInsightsReport() });
    const curve = chart('curve');
    await user.click(within(curve).getByRole('combobox', { name: 'Question for the curve' }));
    await user.click(await screen.findByRole('option', { name: 'Question 3' }));
    expect(within(curve).getByRole('img', { name: /question 3 with 0 observed groups/ })).toBeInTheDocument();
    expect(within(curve).getByText(/Observed proportions by ability group are not available/)).toBeInTheDocument();
    expect(curve.querySelectorAll('.recharts-scatter-symbol')).toHaveLength(0);
  });
});

describe('exam insights item models', () => {
  it('shows Rasch beside 2PL with standard errors, item fit, and flags with what to do', async () => {
    await openCharts({ auto: makeChartedInsightsReport() });
    const table = screen.getByRole('table', { name: 'Item models' });
    const [first, second] = within(table).getAllByTestId('model-row');
    expect(first).toHaveTextContent('-0.85± 0.30');
    expect(first).toHaveTextContent('1.40± 0.35');
    expect(first).toHaveTextContent('-0.60± 0.28');
    expect(first).toHaveTextContent('None');
    expect(second).toHaveTextContent('1.45');
    expect(second).toHaveTextContent('1.62');
    expect(within(second!).getByText('Negative discrimination')).toBeInTheDocument();
    expect(
      within(second!).getByText('Weaker candidates did better than stronger ones: check the key.'),
    ).toBeInTheDocument();
    const choice = screen.getByTestId('model-choice');
    expect(choice).toHaveTextContent('Abilities from the 2PL model.');
    expect(choice).toHaveTextContent('The likelihood-ratio test prefers one discrimination per question');
    expect(choice).toHaveTextContent('G² = 9.81, df = 2, p = 0.007 (α = 0.05)');
  });

  it('fetches the report again with ?model= when the creator picks a model, and redraws from it', async () => {
    const rasch = makeChartedInsightsReport({
      model: {
        ...makeChartedInsightsReport().model!,
        requested: 'rasch',
        chosen: 'rasch',
        reason: 'Chosen by the creator.',
      },
    });
    const { user, asked } = await openCharts({ auto: makeChartedInsightsReport(), rasch });
    expect(asked).toEqual(['auto']);
    await user.click(screen.getByRole('radio', { name: 'Rasch' }));
    expect(await screen.findByText('Chosen by the creator.')).toBeInTheDocument();
    expect(asked).toEqual(['auto', 'rasch']);
    expect(screen.getByTestId('model-choice')).toHaveTextContent('Abilities from the Rasch model.');
    expect(within(chart('wright')).getByText(/from the Rasch model/)).toBeInTheDocument();
    expect(
      within(chart('curve')).getByText('Question 1: discrimination 1.00, difficulty -0.85 logits.'),
    ).toBeInTheDocument();
  });
});
