import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import type { SuggestionSample } from '@exam/domain/question-grading';
import { expectAccessible } from './support/a11y.ts';
import { expect, test } from './support/fixtures.ts';
import {
  PASSWORD,
  publishExam,
  question,
  registerCreator,
  saveAnswer,
  startAttempt,
  submitAttempt,
  type StartedAttempt,
} from './support/api.ts';
import { E2E, FAKE_OPENAI_PORT } from './support/env.ts';
import {
  isStructuredRequest,
  startFakeOpenAi,
  type ChatCompletionBody,
  type FakeOpenAi,
} from './support/fake-openai.ts';
import { enterExam, storedAttempt, submitExam } from './support/taker.ts';
import { expectToast } from './support/ui.ts';

/**
 * Issue 32: thirty candidates answer a keyless short answer and upload a report; the creator grades each question
 * for the whole cohort at once, by groups and from the keyboard, with AI suggestions from a provider that speaks
 * OpenAI's structured-output wire format (the journeys' fake), accepting some and editing others.
 *
 *   Q1 "Why does the median resist outliers?" (2 pts, no key)         AI suggests   the grader
 *     G1  15  "The median is the middle value…" (12 + 3 with a typo)   —             full marks, one action
 *     G2   6  "It ignores how far away the outliers are"                2             accepts (A)
 *     G3   5  "Because it is an average" (Ada is one of them)           1             edits to 0 with feedback
 *     G4   3  "It is the mode"                                          0             accepts (A)
 *     Z    1  "Sorting sends the outliers to the ends"                  2, 1, 2       flagged; accepts
 *   Q2 "Upload your report" (3 pts, rubric thesis/evidence/conclusion 1 each)
 *     R1  20  a report with thesis and evidence                         1 + 1 + 0     accepts (A)
 *     R2  10  a report with all three (Ada's among them)                1 + 1 + 1     edits: no evidence → 2
 */

const QUESTION_1 = 'Why does the median resist outliers?';
const QUESTION_2 = 'Upload your report';
const MIDDLE = 'The median is the middle value, so extreme values barely move it';
const MIDDLE_TYPO = 'The median is the midle value, so extreme values barely move it';
const IGNORES = 'It ignores how far away the outliers are';
const AVERAGE = 'Because it is an average';
const MODE = 'It is the mode';
const SORTING = 'Sorting sends the outliers to the ends and the median only reads the middle';
const REPORT_TWO = 'Thesis: medians are robust.\nEvidence: three datasets with planted outliers.';
const REPORT_THREE =
  'Thesis: medians are robust.\nEvidence: three datasets with planted outliers.\nConclusion: prefer the median.';
const FEEDBACK = 'The mean is the average; the median is the middle value.';
const RUBRIC = {
  id: 'report',
  title: 'Report rubric',
  criteria: [
    { id: 'thesis', description: 'States a thesis', points: 1 },
    { id: 'evidence', description: 'Gives evidence', points: 1 },
    { id: 'conclusion', description: 'Draws a conclusion', points: 1 },
  ],
};

/** Q1's answers of the 29 candidates who answer through the API, in the order they submit (Ada answers AVERAGE). */
const Q1_ANSWERS = [
  ...Array<string>(12).fill(MIDDLE),
  ...Array<string>(3).fill(MIDDLE_TYPO),
  ...Array<string>(6).fill(IGNORES),
  ...Array<string>(4).fill(AVERAGE),
  ...Array<string>(3).fill(MODE),
  SORTING,
];

/** The fake grader: what a model would say of each answer, from the answer between the prompt's markers. */
function gradeOf(body: ChatCompletionBody, sorting: { calls: number }): SuggestionSample {
  const messages = body.messages ?? [];
  const content = (m: { content: unknown } | undefined) => (typeof m?.content === 'string' ? m.content : '');
  const system = content(messages.find((m) => m.role === 'system'));
  const user = content(messages.findLast((m) => m.role === 'user'));
  const answer = /<answer-([0-9a-f]+)>\n([\s\S]*)\n<\/answer-\1>/.exec(user)?.[2] ?? '';
  const sample = (points: number, quote: string, rubric: SuggestionSample['rubric'] = []): SuggestionSample => ({
    points,
    rubric,
    rationale: `The answer says "${quote}", which earns ${points} points.`,
    quote,
  });
  if (system.includes(QUESTION_2)) {
    const conclusion = answer.includes('Conclusion') ? 1 : 0;
    const rubric = [
      { criterionId: 'thesis', points: 1 },
      { criterionId: 'evidence', points: 1 },
      { criterionId: 'conclusion', points: conclusion },
    ];
    return sample(2 + conclusion, 'Thesis: medians are robust.', rubric);
  }
  if (answer.includes('midle') || answer.includes('middle value')) return sample(2, 'middle value');
  if (answer.startsWith('Sorting')) {
    // The samples disagree (2, 1, 2): the answer is flagged for the grader's attention first.
    sorting.calls += 1;
    return sample(sorting.calls % 3 === 2 ? 1 : 2, 'the median only reads the middle');
  }
  if (answer.includes('ignores')) return sample(2, 'ignores how far away');
  if (answer.includes('average')) return sample(1, 'it is an average');
  return sample(0, 'the mode');
}

let fake: FakeOpenAi;
const sorting = { calls: 0 };

test.beforeAll(async () => {
  fake = await startFakeOpenAi({
    port: FAKE_OPENAI_PORT,
    reply: [{ text: 'unused' }],
    grade: (b) => gradeOf(b, sorting),
  });
});

test.afterAll(async () => {
  await (fake as FakeOpenAi | undefined)?.close();
});

async function uploadReport(request: APIRequestContext, attempt: StartedAttempt, text: string): Promise<void> {
  const response = await request.post(`${E2E.takerOrigin}/api/attempts/${attempt.attemptId}/files/1`, {
    headers: { authorization: `Bearer ${attempt.token}` },
    multipart: { file: { name: 'report.txt', mimeType: 'text/plain', buffer: Buffer.from(text) } },
  });
  expect(response.ok(), `upload: ${response.status()} ${await response.text()}`).toBe(true);
}

/** Every grader action of the scripted marking (a key press or a click), counted for the goal of the issue. */
function actionCounter(page: Page) {
  let actions = 0;
  return {
    get count() {
      return actions;
    },
    async press(key: string) {
      actions += 1;
      // Keys go to the page, never a focused button (Enter on a button would press it).
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await page.keyboard.press(key);
    },
    async click(locator: ReturnType<Page['getByRole']>) {
      actions += 1;
      await locator.click();
    },
    async fill(locator: ReturnType<Page['getByRole']>, value: string) {
      actions += 1;
      await locator.fill(value);
    },
  };
}

test('a cohort of thirty is graded by question: groups, AI suggestions accepted or edited, agreement, history and released feedback', async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(420_000);
  const creator = await registerCreator(request, 'cohort-grader');
  const exam = await publishExam(request, creator.token, {
    title: 'Cohort Grading Journey',
    releasePolicy: 'on-release',
    rubrics: [RUBRIC],
    // No key of the exam's own: the gateway uses the server's default key for OpenAI (the journeys' fake).
    questions: [
      question.shortAnswer(QUESTION_1, [], 'Statistics', { points: 2 }),
      question.fileUpload(QUESTION_2, 'Reports', { points: 3, rubricId: RUBRIC.id }),
    ],
  });

  const taker = await context.newPage();
  await test.step('Ada sits the exam in the browser: a short answer and her report', async () => {
    await enterExam(taker, exam.id, { name: 'Ada Lovelace', studentId: 'C-000' });
    await taker.getByLabel('Answer for Q1').fill(AVERAGE);
    await taker.locator('input[type="file"]').setInputFiles({
      name: 'report.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from(REPORT_THREE),
    });
    await expect(taker.getByText('report.txt')).toBeVisible();
    const attempt = await storedAttempt(taker, exam.id);
    await expect
      .poll(async () => {
        const state = await request.get(`${E2E.takerOrigin}/api/attempts/${attempt.attemptId}`, {
          headers: { authorization: `Bearer ${attempt.token}` },
        });
        return Object.keys(((await state.json()) as { answers: Record<string, unknown> }).answers).sort();
      })
      .toEqual(['0', '1']);
    await submitExam(taker);
    await expect(taker.getByRole('heading', { name: 'Exam Completed' })).toBeVisible();
  });

  await test.step('29 more candidates answer through the API', async () => {
    for (let start = 0; start < Q1_ANSWERS.length; start += 10) {
      await Promise.all(
        Q1_ANSWERS.slice(start, start + 10).map(async (answer, offset) => {
          const n = start + offset + 1;
          const attempt = await startAttempt(request, {
            examId: exam.id,
            name: `Candidate ${randomUUID().slice(0, 6)}`,
            studentId: `C-${String(n).padStart(3, '0')}`,
          });
          await saveAnswer(request, attempt, 0, answer);
          await uploadReport(request, attempt, n <= 20 ? REPORT_TWO : REPORT_THREE);
          await submitAttempt(request, attempt);
        }),
      );
    }
  });

  await test.step('the creator signs in and opens grading by question from the submissions', async () => {
    await page.goto('/creator/auth');
    await page.getByLabel('Email Address').fill(creator.user.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page).toHaveURL(/\/creator\/dashboard$/);
    await page.goto(`/creator/grade/${exam.id}/question/1`);
    await expect(page.getByRole('heading', { name: `Q1: ${QUESTION_1}` })).toBeVisible();
    await expect(page.getByTestId('grading-progress')).toContainText('0 of 30 marked');
  });

  const keys = actionCounter(page);
  const startedAt = Date.now();

  await test.step('names are hidden while marking, and shown on request', async () => {
    await expect(page.getByTestId('answer-candidate')).toContainText(/Candidate \d+/);
    await expect(page.getByText('Ada Lovelace')).toHaveCount(0);
    await page.getByRole('switch', { name: 'Show names' }).click();
    await expect(page.getByTestId('answer-candidate')).toContainText(/\(C-\d{3}\)/);
    await page.getByRole('switch', { name: 'Show names' }).click();
    await expect(page.getByTestId('answer-candidate')).not.toContainText(/\(C-\d{3}\)/);
    await expectAccessible(page, 'grading by question');
  });

  await test.step('one action marks the fifteen "middle value" answers, typos included', async () => {
    await expect(page.getByTestId('group-banner')).toContainText('shared by 15 candidates');
    await expect(page.getByTestId('answer-text')).toContainText(MIDDLE);
    await keys.press('f');
    await keys.press('Enter');
    await expectToast(page, 'Mark saved for 15 answers');
    await expect(page.getByTestId('grading-progress')).toContainText('15 of 30 marked');
  });

  await test.step('suggestions for every unmarked answer come back from the provider as structured output', async () => {
    const batch = page.getByRole('region', { name: 'Suggestions for every unmarked answer' });
    await keys.click(batch.getByRole('button', { name: 'Suggest marks for all unmarked answers' }));
    await expect(batch.getByTestId('batch-status')).toContainText('Finished: 15 of 15 suggested, 0 failed.', {
      timeout: 90_000,
    });
    // Fifteen answers, three samples each, every one asked with OpenAI's strict json_schema response format.
    const structured = fake.requests.filter((r) => isStructuredRequest(r.body));
    expect(structured.length).toBe(45);
    for (const sent of structured) {
      const text = JSON.stringify(sent.body);
      // Nobody's name or candidate ID reaches the provider.
      expect(text).not.toContain('Ada Lovelace');
      expect(text).not.toMatch(/C-\d{3}/);
    }
  });

  await test.step('the grader accepts one suggestion, edits another, accepts the third', async () => {
    const suggestion = page.getByRole('region', { name: 'AI suggestion' });
    await expect(page.getByTestId('answer-text')).toContainText(IGNORES);
    await expect(suggestion.getByTestId('suggested-points')).toContainText('2 / 2');
    await expect(page.getByTestId('answer-quote')).toContainText('ignores how far away');
    await keys.press('a');
    await expectToast(page, 'Mark saved for 6 answers');

    await expect(page.getByTestId('answer-text')).toContainText(AVERAGE);
    await expect(suggestion.getByTestId('suggested-points')).toContainText('1 / 2');
    await keys.click(suggestion.getByRole('button', { name: 'Edit' }));
    await keys.fill(page.getByRole('spinbutton', { name: 'Points (0–2)' }), '0');
    await keys.fill(page.getByRole('textbox', { name: 'Feedback' }), FEEDBACK);
    await keys.click(page.getByRole('button', { name: 'Save and next' }));
    await expectToast(page, 'Mark saved for 5 answers');

    await expect(page.getByTestId('answer-text')).toContainText(MODE);
    await keys.press('a');
    await expectToast(page, 'Mark saved for 3 answers');
  });

  await test.step('the answer whose samples disagreed is flagged, found by the filter and accepted', async () => {
    await keys.click(page.getByRole('combobox', { name: 'Show' }));
    await keys.click(page.getByRole('option', { name: 'Flagged by the AI (1)' }));
    await expect(page.getByTestId('answer-text')).toContainText(SORTING);
    await expect(page.getByTestId('suggestion-uncertain')).toContainText('the samples disagreed');
    await keys.press('a');
    await expectToast(page, 'Mark saved for 1 answer');
    await expect(page.getByTestId('grading-progress')).toContainText('30 of 30 marked');
  });

  await test.step('the agreement of suggestions and marks appears for the question', async () => {
    // 15 answers have both (AI, grader): G2 and the flagged one 7 × (2, 2), G3 5 × (1, 0), G4 3 × (0, 0).
    // Exact agreement 10/15. κ by hand: pₑ = (7·7 + 5·0 + 3·8) / 15² = 73/225, κ = (10/15 − pₑ) / (1 − pₑ) = 0.507.
    // Quadratic weights 1 − (i − j)²/4: pₒ = 13.75/15, pₑ = 0.5744, κw = 0.804.
    const figures = page.getByTestId('agreement-figures');
    await expect(figures).toContainText('Answers compared15');
    await expect(figures).toContainText('Exact agreement67%');
    await expect(figures).toContainText("Cohen's κ0.51");
    await expect(figures).toContainText('Weighted κ (quadratic)0.80');
    await expect(figures).toContainText('Mean absolute difference0.33 points');
  });

  await test.step('the reports: the AI reads the uploaded text and marks by rubric; accepted for one group, edited for the other', async () => {
    await keys.click(page.getByRole('combobox', { name: 'Question' }));
    await keys.click(page.getByRole('option', { name: `Q2: ${QUESTION_2} · marked by a grader` }));
    await expect(page.getByRole('heading', { name: `Q2: ${QUESTION_2}` })).toBeVisible();
    await expect(page.getByTestId('group-banner')).toContainText('shared by 20 candidates');
    await expect(page.getByTestId('answer-text')).toContainText('Evidence: three datasets');
    const suggestion = page.getByRole('region', { name: 'AI suggestion' });
    await keys.click(suggestion.getByRole('button', { name: 'Suggest a mark' }));
    await expect(suggestion.getByTestId('suggested-points')).toContainText('2 / 3');
    await keys.press('a');
    await expectToast(page, 'Mark saved for 20 answers');

    await expect(page.getByTestId('group-banner')).toContainText('shared by 10 candidates');
    await keys.click(suggestion.getByRole('button', { name: 'Suggest a mark' }));
    await expect(suggestion.getByTestId('suggested-points')).toContainText('3 / 3');
    await keys.click(suggestion.getByRole('button', { name: 'Edit' }));
    await expect(page.getByRole('checkbox', { name: /Draws a conclusion/ })).toBeChecked();
    await keys.press('2');
    await expect(page.getByRole('checkbox', { name: /Gives evidence/ })).not.toBeChecked();
    await keys.press('Enter');
    await expectToast(page, 'Mark saved for 10 answers');
    await expect(page.getByTestId('grading-progress')).toContainText('30 of 30 marked');
  });

  await test.step('sixty answers took a handful of actions', async () => {
    const seconds = (Date.now() - startedAt) / 1000;
    const effort = `60 answers of 2 questions marked with ${keys.count} grader actions in ${seconds.toFixed(0)} s`;
    test.info().annotations.push({ type: 'grading effort', description: effort });
    console.log(`[grading effort] ${effort}`);
    // Without groups each answer needs at least a mark and a save: 120 actions.
    expect(keys.count).toBeLessThanOrEqual(25);
  });

  await test.step("a result's history says who decided each mark and whether it took the AI's suggestion", async () => {
    const listed = await request.get(`${E2E.creatorOrigin}/api/results?examId=${exam.id}&limit=50`, {
      headers: { authorization: `Bearer ${creator.token}` },
    });
    const { results } = (await listed.json()) as { results: Array<{ id: string; userName: string }> };
    expect(results).toHaveLength(30);
    const ada = results.find((r) => r.userName === 'Ada Lovelace');
    expect(ada).toBeDefined();
    await page.goto(`/creator/result/${encodeURIComponent(ada!.id)}`);
    const history = page.getByRole('list', { name: 'Grade history' });
    await expect(history).toContainText(`suggested by AI, edited by ${creator.user.email} · Q1`);
    await expect(history).toContainText(`suggested by AI, edited by ${creator.user.email} · Q2`);
  });

  await test.step('released, Ada reads the feedback written once for her whole group', async () => {
    const released = await request.post(`${E2E.creatorOrigin}/api/exams/${exam.id}/release`, {
      headers: { authorization: `Bearer ${creator.token}` },
      data: { released: true },
    });
    expect(released.ok()).toBe(true);
    expect(((await released.json()) as { changed: number }).changed).toBe(30);
    await taker.getByRole('link', { name: 'View your result' }).click();
    await expect(taker.getByRole('heading', { name: 'Your result' })).toBeVisible();
    await expect(taker.getByText(FEEDBACK)).toBeVisible();
  });
});
