import { AiSettingsInputSchema } from '@exam/domain/exam-ai';
import type { APIRequestContext } from '@playwright/test';
import { expectAccessible } from './support/a11y.ts';
import { expect, test } from './support/fixtures.ts';
import { listResults, publishExam, question, registerCreator } from './support/api.ts';
import { E2E, FAKE_OPENAI_PORT } from './support/env.ts';
import { startFakeOpenAi, type FakeOpenAi } from './support/fake-openai.ts';
import { enterExam, storedAttempt, submitExam, type StoredAttempt } from './support/taker.ts';
import { signInCreator } from './support/ui.ts';

// The reply the fake upstream streams, word by word. It stops twice on the way: before the first word
// (the panel must show the typing indicator) and half-way (the panel must show the words so far). "Stop
// solutions" is on, so the gateway holds back the last words of what has arrived (as many characters as the
// longest answer key) until it knows they are not a key: half-way, SHOWN_BY_THEN is on the page.
const SHOWN_BY_THEN = 'Think about which planet looks red';
const PARTIAL = `${SHOWN_BY_THEN} in the night sky, low over the horizon just after sunset,`;
const REST = ' and what iron oxide has to do with it.';
const REPLY = PARTIAL + REST;
const words = (text: string) => text.match(/\s*\S+/g) ?? [];
const SCRIPT = [
  { gate: 'first-word' },
  ...words(PARTIAL).map((text) => ({ text })),
  { gate: 'half-way' },
  ...words(REST).map((text) => ({ text })),
];

const ASKED = 'Can you help me think about the Red Planet question?';
const MCQ_TITLE = 'Which planet is known as the Red Planet?';
const SHORT_TITLE = 'Name the mineral that colours its surface';
// An answer key that must never reach the provider (the MCQ's options are shown to the candidate
// anyway, so the secret lives in the short answer's accepted answers).
const CANARY = 'canary-answer-7f3c91-hematite';
const WAIT_FOR_UPSTREAM_MS = 60_000;

let fake: FakeOpenAi;

test.beforeAll(async () => {
  fake = await startFakeOpenAi({ port: FAKE_OPENAI_PORT, reply: SCRIPT, delayMs: 100 });
});

test.afterAll(async () => {
  // Undefined when beforeAll failed (the port was taken): that failure is the one to report.
  await (fake as FakeOpenAi | undefined)?.close();
});

/** The stream has reached a gate of the script (bounded, so a chat that never arrives fails clearly). */
async function upstreamReached(gate: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the fake OpenAI server never reached '${gate}'`)), WAIT_FOR_UPSTREAM_MS);
  });
  try {
    await Promise.race([fake.reached(gate), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function storedTranscript(
  request: APIRequestContext,
  attempt: StoredAttempt,
): Promise<Array<{ role: string; content: string }>> {
  const response = await request.get(`${E2E.takerOrigin}/api/llm/transcript`, {
    headers: { authorization: `Bearer ${attempt.token}` },
  });
  expect(response.ok(), `transcript: ${response.status()}`).toBe(true);
  const body = (await response.json()) as { messages: Array<{ role: string; content: string }> };
  return body.messages.map(({ role, content }) => ({ role, content }));
}

/** Issue 4: the candidate's AI assistant, streamed from a provider, kept on the server, read by the grader. */
test('a candidate watches a streamed reply from the assistant, keeps it through a reload, and the creator reads the conversation', async ({
  page,
  request,
}) => {
  const creator = await registerCreator(request, 'assistant-creator');
  const exam = await publishExam(request, creator.token, {
    title: 'Assistant Journey',
    // No key of the exam's own: the gateway uses the server's default OPENAI_API_KEY.
    aiSettings: AiSettingsInputSchema.parse({
      enabled: true,
      provider: 'openai',
      model: 'gpt-4o-mini',
      stopSolutions: true,
      copyLLMResponse: true,
    }),
    questions: [
      question.mcq(MCQ_TITLE, ['Venus', 'Mars', 'Jupiter'], 'Mars'),
      question.shortAnswer(SHORT_TITLE, [CANARY]),
    ],
  });

  await enterExam(page, exam.id, { name: 'Grace Hopper', studentId: 'C-1906' });
  const attempt = await storedAttempt(page, exam.id);
  const conversation = page.getByRole('log', { name: 'Conversation with the AI assistant' });
  const replies = conversation.locator('[data-testid="chat-message"][data-role="assistant"]');
  const asked = conversation.locator('[data-testid="chat-message"][data-role="user"]');
  const typing = page.getByRole('status', { name: 'Assistant is typing' });
  const composer = page.getByRole('textbox', { name: 'Message the AI assistant' });

  await test.step('the panel greets the candidate and takes a message once the stored conversation is loaded', async () => {
    await expect(replies).toHaveCount(1);
    await expect(replies.first()).toContainText('powered by OpenAI');
    await expect(composer).toBeEnabled();
    await expectAccessible(page, 'exam room with the assistant panel');
  });

  await test.step('sends with Enter; the typing indicator shows until the first words arrive', async () => {
    await composer.fill(ASKED);
    await composer.press('Enter');
    await expect(composer).toHaveValue('');
    await expect(asked).toHaveCount(1);
    await expect(asked.first()).toContainText(ASKED);
    await upstreamReached('first-word');
    await expect(typing).toBeVisible();
    await expect(replies).toHaveCount(1);
    fake.open('first-word');
  });

  const reply = replies.nth(1);
  await test.step('the reply streams in: part of it is shown before the rest exists', async () => {
    await upstreamReached('half-way');
    await expect(reply).toContainText(SHOWN_BY_THEN);
    await expect(typing).toBeHidden();
    const shown = (await reply.textContent()) ?? '';
    expect(shown).not.toContain('iron oxide');
    // No Copy button while the reply is still arriving.
    await expect(reply.getByRole('button', { name: 'Copy' })).toHaveCount(0);
    fake.open('half-way');
    await expect(reply).toContainText(REPLY);
    await expect(reply.getByRole('button', { name: 'Copy' })).toBeVisible();
  });

  await test.step('the provider received the exam-configured request with the server key, and no answer key', async () => {
    expect(fake.requests).toHaveLength(1);
    const [sent] = fake.requests;
    expect(sent?.path).toBe('/v1/chat/completions');
    expect(sent?.headers.authorization).toBe(`Bearer ${E2E.stackEnv.OPENAI_API_KEY}`);
    expect(sent?.body).toMatchObject({ model: 'gpt-4o-mini', max_tokens: 1000, temperature: 0.7, stream: true });
    const messages = sent?.body.messages ?? [];
    expect(messages[0]?.role).toBe('system');
    const system = String(messages[0]?.content);
    expect(system).toContain(MCQ_TITLE);
    expect(system).toContain(SHORT_TITLE);
    expect(system).toContain('Do not provide complete solutions');
    expect(system).not.toContain(CANARY);
    expect(messages.at(-1)).toEqual({ role: 'user', content: ASKED });
  });

  await test.step('a reload restores the conversation from the server', async () => {
    await expect
      .poll(() => storedTranscript(request, attempt))
      .toEqual([
        { role: 'user', content: ASKED },
        { role: 'assistant', content: REPLY },
      ]);
    await page.reload();
    await expect(composer).toBeEnabled();
    await expect(asked).toHaveCount(1);
    await expect(asked.first()).toContainText(ASKED);
    await expect(replies).toHaveCount(2);
    await expect(replies.nth(1)).toContainText(REPLY);
    // Restoring reads the transcript; it asks the provider nothing.
    expect(fake.requests).toHaveLength(1);
  });

  await test.step('submits the exam', async () => {
    await submitExam(page);
    await expect(page.getByRole('heading', { name: 'Exam Completed' })).toBeVisible();
  });

  await test.step('the creator reads the conversation in the result', async () => {
    const results = await listResults(request, creator.token);
    expect(results).toHaveLength(1);
    const result = results[0]!;
    expect(result).toMatchObject({ examId: exam.id, userName: 'Grace Hopper', studentId: 'C-1906' });

    await signInCreator(page, creator);
    await page.goto(`${E2E.creatorOrigin}/creator/result/${encodeURIComponent(result.id)}`);
    await expect(page.getByRole('heading', { name: 'AI Conversation' })).toBeVisible();
    const turns = page.getByRole('list', { name: 'Conversation' }).getByRole('listitem');
    await expect(turns).toHaveCount(2);
    await expect(turns.nth(0)).toHaveAttribute('data-role', 'user');
    await expect(turns.nth(0)).toContainText('Candidate');
    await expect(turns.nth(0)).toContainText(ASKED);
    await expect(turns.nth(1)).toHaveAttribute('data-role', 'assistant');
    await expect(turns.nth(1)).toContainText('Assistant');
    await expect(turns.nth(1)).toContainText(REPLY);
    await expectAccessible(page, 'result page with an AI conversation');
  });
});
