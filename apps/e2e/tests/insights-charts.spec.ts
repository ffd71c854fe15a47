import { AiSettingsInputSchema } from '@exam/domain/exam-ai';
import type { InsightsReport } from '@exam/domain/insights';
import type { APIRequestContext, Locator } from '@playwright/test';
import { expectAccessible } from './support/a11y.ts';
import { publishExam, question, registerCreator, saveAnswer, startAttempt, submitAttempt } from './support/api.ts';
import { E2E, FAKE_OPENAI_PORT } from './support/env.ts';
import { startFakeOpenAi, type FakeOpenAi } from './support/fake-openai.ts';
import { expect, test } from './support/fixtures.ts';
import { signInCreator } from './support/ui.ts';

const CANDIDATES = 30;
const OPTIONS = ['Alpha', 'Bravo', 'Charlie'];
/** Easy to hard, so the item map and the Wright map have spread. */
const THRESHOLDS = [0.2, 0.35, 0.5, 0.65, 0.8];

/**
 * Whether candidate i gets question q right: a latent ability i / 29 with a fixed pseudo-random wobble, so
 * stronger candidates are right more often without every pattern being a perfect staircase.
 */
function isRight(i: number, q: number): boolean {
  const wobble = ((i * 37 + q * 17) % 11) / 11 - 0.5;
  return i / (CANDIDATES - 1) + 0.6 * wobble > THRESHOLDS[q]!;
}

/** A wrong answer to a question whose key is `key`. */
const wrongFor = (key: string) => (key === 'Delta' ? 'Echo' : OPTIONS.find((o) => o !== key)!);

let fake: FakeOpenAi;

test.beforeAll(async () => {
  fake = await startFakeOpenAi({
    port: FAKE_OPENAI_PORT,
    reply: [{ text: 'Think about the definitions.' }],
    delayMs: 5,
  });
});

test.afterAll(async () => {
  await (fake as FakeOpenAi | undefined)?.close();
});

/** One question to the assistant with the candidate's attempt token, read to the end of its stream. */
async function askAssistant(
  request: APIRequestContext,
  attempt: { token: string },
  questionIndex: number,
): Promise<void> {
  const response = await request.post(`${E2E.takerOrigin}/api/llm/chat`, {
    headers: { authorization: `Bearer ${attempt.token}` },
    data: { message: 'Can you give me a hint?', questionIndex },
  });
  expect(response.status(), await response.text()).toBe(200);
}

/** The exam page's question-view event, as taker-web sends it when a question comes on screen. */
async function showQuestion(
  request: APIRequestContext,
  attempt: { attemptId: string; token: string },
  questionIndex: number,
): Promise<void> {
  const response = await request.post(`${E2E.takerOrigin}/api/attempts/${attempt.attemptId}/events`, {
    headers: { authorization: `Bearer ${attempt.token}` },
    data: { events: [{ type: 'question-view', questionIndex, clientAt: new Date().toISOString() }] },
  });
  expect(response.status()).toBe(202);
}

async function getInsights(request: APIRequestContext, token: string, examId: string): Promise<InsightsReport> {
  const response = await request.get(`${E2E.creatorOrigin}/api/exams/${examId}/insights`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status()).toBe(200);
  return (await response.json()) as InsightsReport;
}

const bars = (chart: Locator) => chart.locator('svg .recharts-bar-rectangle path');
const dataRows = (table: Locator) => table.locator('tbody tr');
const sumOfColumn = async (table: Locator, column: number) =>
  (await table.locator(`tbody tr td:nth-child(${column})`).allTextContents()).reduce((sum, v) => sum + Number(v), 0);

test('the insights of an exam with 30 candidates draw each chart with its alternative text', async ({
  page,
  request,
}) => {
  test.setTimeout(300_000);
  const creator = await registerCreator(request, 'charts-creator');
  const exam = await publishExam(request, creator.token, {
    title: 'Charts Journey',
    aiSettings: AiSettingsInputSchema.parse({ enabled: true, provider: 'openai', model: 'gpt-4o-mini' }),
    questions: [
      question.mcq('Which letter comes first?', OPTIONS, 'Alpha', 'Letters'),
      question.mcq('Which letter is second?', OPTIONS, 'Bravo', 'Letters'),
      question.mcq('Which letter is third?', OPTIONS, 'Charlie', 'Letters'),
      question.mcq('Which is the NATO word for C?', OPTIONS, 'Charlie', 'Radio'),
      question.shortAnswer('Spell the NATO word for D', ['Delta'], 'Radio'),
    ],
  });
  const keys = ['Alpha', 'Bravo', 'Charlie', 'Charlie', 'Delta'];

  await test.step('30 candidates sit the exam through the API; every third asks the assistant first', async () => {
    for (let i = 0; i < CANDIDATES; i += 1) {
      const attempt = await startAttempt(request, {
        examId: exam.id,
        name: `Candidate ${String(i + 1).padStart(2, '0')}`,
        studentId: `CH-${String(i + 1).padStart(3, '0')}`,
      });
      if (i % 3 === 0) await askAssistant(request, attempt, (i / 3) % keys.length);
      for (const [q, key] of keys.entries()) {
        // The exam page reports each question it shows; insights time a question from its view to the next.
        await showQuestion(request, attempt, q);
        await saveAnswer(request, attempt, q, isRight(i, q) ? key : wrongFor(key));
      }
      await submitAttempt(request, attempt);
    }
    expect(fake.requests.length).toBe(CANDIDATES / 3);
  });

  const report = await getInsights(request, creator.token, exam.id);
  expect(report.test.candidates).toBe(CANDIDATES);

  await signInCreator(page, creator);
  await page.goto(`/creator/exam-insights/${exam.id}`);
  const chart = (name: string) => page.getByTestId(`chart-${name}`);
  await expect(chart('scores')).toBeVisible({ timeout: 60_000 });

  await test.step('score distribution: one bar per non-empty band of 10 %, mean and median marked', async () => {
    const scores = chart('scores');
    await expect(scores.getByRole('img', { name: "Histogram of 30 candidates' scores" })).toBeVisible();
    const table = scores.getByRole('table', { name: 'Score distribution data' });
    await expect(dataRows(table)).toHaveCount(10);
    expect(await sumOfColumn(table, 2)).toBe(CANDIDATES);
    const bands = new Set(
      report.candidates.map((c) => Math.min(9, Math.floor((c.result?.percentage ?? c.rawScore ?? 0) / 10))),
    );
    await expect(bars(scores)).toHaveCount(bands.size);
    await expect(scores.locator('.recharts-reference-line')).toHaveCount(2);
    await expect(scores.getByText(/^30 candidates: mean .+, median .+\.$/)).toBeVisible();
  });

  await test.step('topics: items correct and IRT ability bars per topic', async () => {
    const topics = chart('topics');
    await expect(topics.getByRole('img', { name: /items correct and IRT ability for 2 topics/ })).toBeVisible();
    await expect(dataRows(topics.getByRole('table', { name: 'Scores by topic data' }))).toHaveCount(2);
    const values = report.topics.flatMap((t) => [t.rawScorePercent, t.abilityPercent]).filter((v) => v !== null);
    await expect(bars(topics)).toHaveCount(values.length);
  });

  await test.step('item map: a labelled point per question, and a point leads to its row', async () => {
    const itemMap = chart('item-map');
    const plotted = report.items.filter((i) => i.facility !== null && i.discriminationIndex !== null);
    expect(plotted.length).toBeGreaterThanOrEqual(4);
    await expect(itemMap.getByRole('group', { name: /facility against discrimination/ })).toBeVisible();
    await expect(itemMap.getByTestId('item-map-point')).toHaveCount(plotted.length);
    await expect(itemMap.locator('.recharts-legend-item')).toHaveCount(2);
    await itemMap.getByRole('button', { name: /^Question 2, Multiple choice/ }).click();
    await expect(page.locator('#insights-item-1')).toBeFocused();
    await itemMap.getByRole('button', { name: /^Question 5, Short answer/ }).focus();
    await page.keyboard.press('Enter');
    await expect(page.locator('#insights-item-4')).toBeFocused();
  });

  await test.step('Wright map: candidates and questions on one logit scale', async () => {
    const wright = chart('wright');
    const abilities = report.candidates.filter((c) => c.abilityTheta !== null).length;
    await expect(
      wright.getByRole('img', { name: /^Person–item map of \d+ candidates and \d+ questions$/ }),
    ).toBeVisible();
    const table = wright.getByRole('table', { name: 'Wright map data' });
    expect(await sumOfColumn(table, 2)).toBe(abilities);
    const withCandidates = (await table.locator('tbody tr td:nth-child(2)').allTextContents()).filter((v) => v !== '0');
    const withItems = (await table.locator('tbody tr td:nth-child(3)').allTextContents()).filter((v) => v !== '');
    await expect(bars(wright)).toHaveCount(withCandidates.length + withItems.length);
  });

  await test.step('item characteristic curve: the fitted curve of the chosen question', async () => {
    const curve = chart('curve');
    await expect(curve.getByRole('img', { name: /^Item characteristic curve of question 1/ })).toBeVisible();
    await expect(curve.locator('.recharts-line-curve')).toHaveCount(1);
    await expect(curve.getByText(/^Question 1: discrimination .+, difficulty .+ logits\./)).toBeVisible();
    const groups = report.items[0]?.scoreGroups ?? [];
    await expect(curve.locator('.recharts-scatter-symbol')).toHaveCount(groups.length);
    if (groups.length > 0) {
      await expect(dataRows(curve.getByRole('table', { name: /curve data for question 1/ }))).toHaveCount(
        groups.length,
      );
    }
    await curve.getByRole('combobox', { name: 'Question for the curve' }).click();
    await page.getByRole('option', { name: 'Question 3' }).click();
    await expect(curve.getByRole('img', { name: /^Item characteristic curve of question 3/ })).toBeVisible();
  });

  await test.step('time to complete: every candidate in a bar', async () => {
    const complete = chart('time-to-complete');
    await expect(complete.getByRole('img', { name: 'Histogram of time to complete for 30 candidates' })).toBeVisible();
    const table = complete.getByRole('table', { name: 'Time to complete data' });
    expect(await sumOfColumn(table, 2)).toBe(CANDIDATES);
    const nonEmpty = (await table.locator('tbody tr td:nth-child(2)').allTextContents()).filter((v) => v !== '0');
    await expect(bars(complete)).toHaveCount(nonEmpty.length);
  });

  await test.step('AI uplift, time per question and AI use, from the same report', async () => {
    expect(report.aiUplift?.overall.asked).toBe(CANDIDATES / 3);
    const uplift = chart('uplift');
    const upliftRows = 1 + (report.aiUplift?.topics.length ?? 0) + report.items.filter((i) => i.aiUplift).length;
    expect(upliftRows).toBe(1 + 2 + 5);
    await expect(dataRows(uplift.getByRole('table', { name: 'AI uplift data' }))).toHaveCount(upliftRows);
    await expect(uplift.getByText(/not what the assistant caused/)).toBeVisible();
    const plotted = [
      report.aiUplift!.overall,
      ...report.aiUplift!.topics,
      ...report.items.map((i) => i.aiUplift!),
    ].filter((u) => u.difference !== null && u.ciLow !== null && u.ciHigh !== null).length;
    expect(plotted).toBeGreaterThan(0);
    await expect(uplift.getByRole('img', { name: `Forest plot of AI uplift for ${plotted} rows` })).toBeVisible();
    await expect(uplift.locator('.recharts-scatter-symbol')).toHaveCount(plotted);
    await expect(uplift.locator('.recharts-errorBar')).toHaveCount(plotted);

    const perQuestion = chart('time-per-question');
    const timed = report.items.filter((i) => typeof i.time?.medianSeconds === 'number');
    expect(timed).toHaveLength(5);
    await expect(perQuestion.getByRole('img', { name: 'Bar chart of the median time on 5 questions' })).toBeVisible();
    await expect(dataRows(perQuestion.getByRole('table', { name: 'Time per question data' }))).toHaveCount(5);
    const nonZero = timed.filter((i) => (i.time?.medianSeconds ?? 0) > 0).length;
    await expect(bars(perQuestion)).toHaveCount(nonZero);

    const aiUse = chart('ai-use');
    const asked = report.aiUse?.buckets.filter((b) => b.messages > 0).length ?? 0;
    expect(asked).toBeGreaterThan(0);
    await expect(bars(aiUse)).toHaveCount(asked);
    await expect(aiUse.getByText(`${CANDIDATES / 3} questions to the assistant in all.`)).toBeVisible();
    await expect(dataRows(aiUse.getByRole('table', { name: 'AI use over the exam data' }))).toHaveCount(
      report.aiUse!.buckets.length,
    );
  });

  await test.step('a data table shows on request; the page passes axe', async () => {
    const scores = chart('scores');
    await scores.getByRole('button', { name: 'Show the data as a table' }).click();
    await expect(scores.getByRole('table', { name: 'Score distribution data' })).toBeVisible();
    await expectAccessible(page, 'exam insights with charts');
  });

  await test.step('choosing Rasch fetches the report again and says so', async () => {
    const models = page.getByRole('group', { name: 'Model the abilities come from' });
    const refetched = page.waitForResponse((r) => r.url().includes(`/insights?model=rasch`) && r.status() === 200);
    await models.getByText('Rasch', { exact: true }).click();
    await refetched;
    await expect(page.getByTestId('model-choice')).toContainText('Abilities from the Rasch model.');
    await expect(chart('wright').getByText(/from the Rasch model/)).toBeVisible();
  });
});
