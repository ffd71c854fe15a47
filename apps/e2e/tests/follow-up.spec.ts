import type { Exam } from '@exam/domain/exam';
import { AiSettingsInputSchema } from '@exam/domain/exam-ai';
import type { FollowUpForGrader } from '@exam/domain/follow-up';
import { FollowUpMessages } from '@exam/domain/follow-up';
import type { TimelineEvent } from '@exam/domain/timeline';
import type { APIRequestContext } from '@playwright/test';
import { expectAccessible } from './support/a11y.ts';
import { createExam, getExam, listResults, question, registerCreator } from './support/api.ts';
import { E2E, FAKE_OPENAI_PORT } from './support/env.ts';
import { startFakeOpenAi, type ChatCompletionBody, type FakeOpenAi } from './support/fake-openai.ts';
import { expect, test } from './support/fixtures.ts';
import { enterExam, submitExam } from './support/taker.ts';
import { expectToast, signInCreator } from './support/ui.ts';

/**
 * Issue 34, item 3: the creator turns follow-up questions on in the exam editor (two questions, two minutes each);
 * a candidate answers in the browser and submits; the assistant (the fake speaks OpenAI's strict json_schema
 * structured output) asks two questions about the candidate's own answers; the candidate answers both in the exam
 * room; the grader reads them beside the answers they probe and marks them on the rubric.
 */

const QUESTIONS = [
  {
    title: 'Why does the median resist outliers?',
    answer: 'Because it only depends on the middle of the sorted data.',
  },
  { title: 'When would you report the mean instead?', answer: 'When the data are symmetric and have no outliers.' },
];
const ASKED = [
  'You wrote that the median depends on the middle of the sorted data. What happens to it if the largest value doubles?',
  'Give an example of symmetric data where the mean and the median agree.',
];
const REPLIES = [
  'It stays the same, since the middle value does not move.',
  'The values 2, 4, 6 have mean and median 4.',
];

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The follow-up request the gateway sends (json_schema named follow_up_questions): two questions, one per answer. */
const isFollowUpRequest = (body: ChatCompletionBody) =>
  body.response_format?.json_schema?.name === 'follow_up_questions';

async function followUpOf(request: APIRequestContext, token: string, resultId: string): Promise<FollowUpForGrader> {
  const response = await request.get(`${E2E.creatorOrigin}/api/results/${resultId}/follow-up`, {
    headers: bearer(token),
  });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as FollowUpForGrader;
}

let fake: FakeOpenAi;
test.beforeAll(async () => {
  fake = await startFakeOpenAi({
    port: FAKE_OPENAI_PORT,
    reply: [{ text: 'Think about what the question asks.' }],
    delayMs: 5,
    grade: (body) => {
      if (!isFollowUpRequest(body)) throw new Error('only follow-up requests are expected here');
      return { questions: ASKED.map((text, questionIndex) => ({ questionIndex, text })) };
    },
  });
});
test.afterAll(async () => {
  await fake.close();
});

test('a candidate answers two follow-up questions after submitting and the grader marks them', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const creator = await registerCreator(request, 'viva');
  const draft = await createExam(request, creator.token, {
    title: 'Statistics viva',
    questions: QUESTIONS.map((q) => question.shortAnswer(q.title, [], 'Statistics')),
    aiSettings: AiSettingsInputSchema.parse({ enabled: true, provider: 'openai', model: 'gpt-4o-mini' }),
  });

  let exam: Exam;
  await test.step('the creator turns the follow-up on in the editor and publishes', async () => {
    await signInCreator(page, creator);
    await page.goto(`${E2E.creatorOrigin}/creator/edit-exam/${draft.id}?type=draft`);
    await expect(page.getByRole('heading', { name: 'Edit Draft Exam' })).toBeVisible();
    const toggle = page.getByRole('switch', { name: 'Ask follow-up questions after submit' });
    await toggle.click();
    await expect(toggle).toBeChecked();
    await page.getByLabel('Number of questions', { exact: true }).fill('2');
    await page.getByRole('group', { name: 'Time per question' }).getByLabel('minutes').fill('2');
    await page.getByRole('group', { name: 'Time per question' }).getByLabel('seconds').fill('0');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expectToast(page, 'Draft saved successfully');
    await page.goto(`${E2E.creatorOrigin}/creator/edit-exam/${draft.id}?type=draft`);
    await expect(page.getByRole('switch', { name: 'Ask follow-up questions after submit' })).toBeChecked();
    await page.getByRole('button', { name: 'Publish Exam' }).click();
    await expect(page.getByRole('heading', { name: 'Exam Published!' })).toBeVisible();
    exam = await getExam(request, creator.token, draft.id);
    expect(exam.aiSettings.followUp).toMatchObject({ enabled: true, questions: 2, secondsPerQuestion: 120 });
  });

  await test.step('the candidate sits the exam and submits', async () => {
    const candidate = await page.context().newPage();
    await enterExam(candidate, draft.id, { name: 'Viv Answerer', studentId: 'VIVA-1' });
    for (const [index, q] of QUESTIONS.entries()) await candidate.getByLabel(`Answer for Q${index + 1}`).fill(q.answer);
    await expect(candidate.getByTestId('answered-count')).toHaveText('Answered: 2/2');
    await submitExam(candidate, { answered: 2, total: 2 });

    await test.step('two follow-up questions, each answered in the room', async () => {
      await expect(candidate).toHaveURL(new RegExp(`/exam/${draft.id}/follow-up$`));
      await expect(candidate.getByText(FollowUpMessages.intro)).toBeVisible({ timeout: 60_000 });
      for (const [index, asked] of ASKED.entries()) {
        await expect(candidate.getByText(`Question ${index + 1} of 2`)).toBeVisible();
        await expect(candidate.getByText(asked)).toBeVisible();
        await expect(
          candidate.getByText(`About your answer to question ${index + 1}: ${QUESTIONS[index]!.title}`),
        ).toBeVisible();
        if (index === 0) await expectAccessible(candidate, 'follow-up room');
        await candidate.getByRole('textbox', { name: 'Your answer' }).fill(REPLIES[index]!);
        await candidate.getByRole('button', { name: 'Submit answer' }).click();
      }
      await expect(candidate.getByText(FollowUpMessages.done)).toBeVisible();
    });
    await candidate.close();
  });

  const [result] = (await listResults(request, creator.token)).filter((r) => r.examId === draft.id);
  expect(result).toBeDefined();

  await test.step('the follow-up belongs to the attempt: its answers and its timeline', async () => {
    const followUp = await followUpOf(request, creator.token, result!.id);
    expect(followUp.status).toBe('done');
    expect(followUp.questions.map((q) => [q.questionIndex, q.text, q.answer, q.timedOut])).toEqual(
      ASKED.map((text, i) => [i, text, REPLIES[i], false]),
    );
    const timeline = await request.get(`${E2E.creatorOrigin}/api/results/${result!.id}/timeline`, {
      headers: bearer(creator.token),
    });
    expect(timeline.status()).toBe(200);
    const events = ((await timeline.json()) as { events: TimelineEvent[] }).events;
    expect(events.filter((e) => e.kind === 'follow-up-asked').map((e) => e.detail)).toEqual(ASKED);
    expect(events.filter((e) => e.kind === 'follow-up-answered').map((e) => e.detail)).toEqual([
      'answered',
      'answered',
    ]);
    // The generation request carried the candidate's own answers and nothing of a key.
    const generation = fake.requests.find((r) => isFollowUpRequest(r.body));
    expect(JSON.stringify(generation?.body.messages)).toContain(QUESTIONS[0]!.answer);
  });

  await test.step('the grader marks both follow-ups beside the answers they probe', async () => {
    await page.goto(`${E2E.creatorOrigin}/creator/result/${result!.id}`);
    // In the follow-up's own card: the replay's event list names the question asked too, once it has loaded.
    await expect(page.getByTestId('follow-up-1').getByText(ASKED[0]!)).toBeVisible();
    await expect(page.getByTestId('follow-up-1').getByText(REPLIES[0]!)).toBeVisible();
    for (const [n, level] of [
      [1, /Explains their answer correctly and fully/],
      [2, /Explains part of it, or with errors/],
    ] as const) {
      const group = page.getByRole('radiogroup', { name: `Rubric level for follow-up question ${n}` });
      await group.getByRole('radio', { name: level }).check();
      await page.getByLabel(`Feedback on follow-up question ${n}`).fill(n === 1 ? 'Clear.' : 'Half right.');
      await page
        .getByRole('button', { name: 'Save follow-up mark' })
        .nth(n - 1)
        .click();
      await expect(page.getByText(/^Marked by /).nth(n - 1)).toBeVisible();
    }
    await expect(page.getByText('Follow-up: 3 of 4 points (2 of 2 marked)')).toBeVisible();
    await expectAccessible(page, 'result with follow-up marks');
    const marked = await followUpOf(request, creator.token, result!.id);
    expect(marked.points).toEqual({ awarded: 3, max: 4, marked: 2 });
    expect(marked.questions.map((q) => q.mark?.feedback)).toEqual(['Clear.', 'Half right.']);
  });
});
