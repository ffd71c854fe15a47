import { AiSettingsInputSchema } from '@exam/domain/exam-ai';
import { LlmMessages } from '@exam/domain/llm';
import { expectAccessible } from './support/a11y.ts';
import { expect, test } from './support/fixtures.ts';
import { listResults, publishExam, question, registerCreator } from './support/api.ts';
import { E2E, FAKE_OPENAI_PORT } from './support/env.ts';
import { startFakeOpenAi, type FakeOpenAi } from './support/fake-openai.ts';
import { enterExam, submitExam } from './support/taker.ts';
import { signInCreator } from './support/ui.ts';

// The short answer's key, and a reply that gives it away split over three chunks (and in another case).
const KEY = 'Hematite crystals';
const SCRIPT = [
  { text: 'Good question! ' },
  { text: 'Think about rust on the surface. ' },
  { text: 'The mineral you want is hem' },
  { text: 'atite cry' },
  { text: 'stals, so write that down.' },
];

let fake: FakeOpenAi;

test.beforeAll(async () => {
  fake = await startFakeOpenAi({ port: FAKE_OPENAI_PORT, reply: SCRIPT, delayMs: 50 });
});

test.afterAll(async () => {
  await (fake as FakeOpenAi | undefined)?.close();
});

/** The "stop solutions" guardrail enforced by the gateway, and the exam-wide budget, as candidate and creator see them. */
test('a reply that would give an answer away is stopped before the key reaches the candidate, and the creator sees it and the spend', async ({
  page,
  request,
}) => {
  const creator = await registerCreator(request, 'guardrail-creator');
  const exam = await publishExam(request, creator.token, {
    title: 'Guardrail Journey',
    aiSettings: AiSettingsInputSchema.parse({
      enabled: true,
      provider: 'openai',
      model: 'gpt-4o-mini',
      stopSolutions: true,
      // One message an hour for the whole exam: the second message meets the exam-wide budget.
      budget: { examRequestsPerHour: 1 },
    }),
    questions: [
      question.mcq('Which planet is known as the Red Planet?', ['Venus', 'Mars', 'Jupiter'], 'Mars'),
      question.shortAnswer('Name the mineral that colours its surface', [KEY]),
    ],
  });

  await enterExam(page, exam.id, { name: 'Ada Lovelace', studentId: 'G-1815' });
  const conversation = page.getByRole('log', { name: 'Conversation with the AI assistant' });
  const replies = conversation.locator('[data-testid="chat-message"][data-role="assistant"]');
  const composer = page.getByRole('textbox', { name: 'Message the AI assistant' });
  await expect(composer).toBeEnabled();

  await test.step('the reply stops before the key, with the reason under what arrived', async () => {
    await composer.fill('What is the answer to question 2?');
    await composer.press('Enter');
    const reply = replies.nth(1);
    await expect(reply.getByRole('note')).toHaveText(LlmMessages.answerWithheld);
    // What came before the key reaches the candidate; the last words before it are held back and dropped.
    await expect(reply).toContainText('Good question! Think about rust on the surface.');
    const shown = (await reply.textContent()) ?? '';
    expect(shown.toLowerCase()).not.toContain('hematite');
    expect(shown.toLowerCase()).not.toMatch(/\bhem/);
    expect(fake.requests).toHaveLength(1);
  });

  await test.step('after a reload the stopped reply is still marked and still without the key', async () => {
    await page.reload();
    await expect(composer).toBeEnabled();
    await expect(replies).toHaveCount(2);
    await expect(replies.nth(1).getByRole('note')).toHaveText(LlmMessages.answerWithheld);
    expect(((await replies.nth(1).textContent()) ?? '').toLowerCase()).not.toContain('hematite');
  });

  await test.step('the exam-wide budget refuses the next message in the panel, and the provider is not called', async () => {
    await composer.fill('Another hint please');
    await composer.press('Enter');
    await expect(replies.nth(2)).toContainText("The assistant has reached this exam's usage limit for the hour.");
    await expect(replies.nth(2)).toHaveAttribute('data-error', 'true');
    await expectAccessible(page, 'assistant panel with a withheld reply and an error');
    expect(fake.requests).toHaveLength(1);
  });

  await test.step('submits the exam', async () => {
    await submitExam(page);
    await expect(page.getByRole('heading', { name: 'Exam Completed' })).toBeVisible();
  });

  await test.step("the grader's transcript says the reply was stopped and for which question", async () => {
    const [result] = await listResults(request, creator.token);
    expect(result).toBeDefined();
    await signInCreator(page, creator);
    await page.goto(`${E2E.creatorOrigin}/creator/result/${encodeURIComponent(result!.id)}`);
    const turns = page.getByRole('list', { name: 'Conversation' }).getByRole('listitem');
    await expect(turns).toHaveCount(2);
    await expect(turns.nth(1).getByRole('note')).toContainText(
      'Stopped by the guardrail: the reply was about to give away the answer to Question 2.',
    );
    expect(((await turns.nth(1).textContent()) ?? '').toLowerCase()).not.toContain('hematite');
  });

  await test.step("the exam's insights count the stopped reply and show the assistant's spend", async () => {
    await page.goto(`${E2E.creatorOrigin}/creator/exam-insights/${encodeURIComponent(exam.id)}`);
    const integrity = page.getByRole('region', { name: 'Integrity Breakdown' });
    await expect(integrity).toContainText('Answers Withheld');
    await expect(integrity).toContainText('1 stopped');
    const spend = page.getByRole('region', { name: 'AI Assistant Spend' });
    await expect(spend).toContainText('Messages, last hour');
    await expect(spend).toContainText('1 / 1');
    await expect(spend).toContainText('Exam budget 1 · candidate budgets 0');
    await expectAccessible(page, 'insights with integrity and assistant spend');
  });
});
