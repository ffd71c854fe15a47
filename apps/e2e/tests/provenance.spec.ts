import { AiSettingsInputSchema } from '@exam/domain/exam-ai';
import {
  fromCompact,
  replayWithSources,
  type AnswerSource,
  type CompactOperation,
  type SaveOperations,
} from '@exam/domain/answer-operations';
import type { Locator, Page, Request } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import { TimelineSchema } from '@exam/domain/timeline';
import { getAttempt, publishExam, question, registerCreator } from './support/api.ts';
import { signInCreator } from './support/ui.ts';
import { E2E, FAKE_OPENAI_PORT } from './support/env.ts';
import { startFakeOpenAi, type FakeOpenAi } from './support/fake-openai.ts';
import { enterExam, storedAttempt, submitExam } from './support/taker.ts';

/**
 * Provenance of every character (@exam/domain/answer-operations): a scripted candidate types, pastes
 * text copied inside the exam, pastes an assistant reply, is refused an outside paste, reloads and goes offline;
 * the answers are rebuilt from the operations the page sent with its autosaves, as results-service stores them
 * (each chunk once, past the count it holds), and compared with the final answers and with what the script did.
 */

const REPLY = 'Iron oxide in the dust makes the surface look rusty red.';
const PASTE_BLOCKED = 'Paste blocked. Please copy from within the exam interface.';
const STARTER = 'def reverse(s):\n    return s\n';
const KEY_DELAY_MS = 15;

let fake: FakeOpenAi;

test.beforeAll(async () => {
  fake = await startFakeOpenAi({
    port: FAKE_OPENAI_PORT,
    reply: REPLY.match(/\s*\S+/g)!.map((text) => ({ text })),
    delayMs: 20,
  });
});

test.afterAll(async () => {
  await (fake as FakeOpenAi | undefined)?.close();
});

/** What the script did to one answer: its text and the source of each character, as the page should record it. */
class Expected {
  text = '';
  sources: AnswerSource[] = [];
  constructor(initial = '', source: AnswerSource = 'restored') {
    this.splice(0, 0, initial, source);
  }
  splice(from: number, to: number, insert: string, source: AnswerSource) {
    this.text = this.text.slice(0, from) + insert + this.text.slice(to);
    this.sources.splice(from, to - from, ...Array.from({ length: insert.length }, () => source));
  }
  append(insert: string, source: AnswerSource) {
    this.splice(this.text.length, this.text.length, insert, source);
  }
}

/** The autosave bodies the page sent (PUT /api/attempts/{id}/answers/{q}), whether or not they arrived. */
function captureSaves(page: Page) {
  const saves: Array<{ questionIndex: number; operations?: SaveOperations }> = [];
  page.on('request', (request: Request) => {
    const match = /\/api\/attempts\/[^/]+\/answers\/(\d+)$/.exec(new URL(request.url()).pathname);
    if (request.method() !== 'PUT' || !match) return;
    const body = request.postDataJSON() as { operations?: SaveOperations };
    saves.push({ questionIndex: Number(match[1]), ...(body.operations && { operations: body.operations }) });
  });
  return saves;
}

/** A question's operations as the server keeps them: a chunk once, only what lies past the stored count. */
function storedOperations(saves: ReturnType<typeof captureSaves>, questionIndex: number): CompactOperation[] {
  const held: CompactOperation[] = [];
  for (const save of saves) {
    if (save.questionIndex !== questionIndex || !save.operations) continue;
    const { start, ops } = save.operations;
    if (start <= held.length) held.push(...ops.slice(held.length - start));
  }
  return held;
}

async function typeAtEnd(page: Page, field: Locator, text: string) {
  await field.click();
  await page.keyboard.press('ControlOrMeta+End');
  await page.keyboard.type(text, { delay: KEY_DELAY_MS });
}

async function pasteAtEnd(page: Page, field: Locator) {
  await field.click();
  await page.keyboard.press('ControlOrMeta+End');
  await page.keyboard.press('ControlOrMeta+V');
}

async function selectInTextarea(field: Locator, from: number, to: number) {
  await field.evaluate(
    (element, [start, end]) => {
      const area = element as HTMLTextAreaElement;
      area.focus();
      area.setSelectionRange(start!, end!);
    },
    [from, to],
  );
}

test('every character of the final answers carries the source the candidate gave it, and the operations replay to them', async ({
  page,
  context,
  request,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: E2E.takerOrigin });
  const creator = await registerCreator(request, 'provenance-creator');
  const exam = await publishExam(request, creator.token, {
    title: 'Provenance Journey',
    aiSettings: AiSettingsInputSchema.parse({
      enabled: true,
      provider: 'openai',
      model: 'gpt-4o-mini',
      copyLLMResponse: true,
    }),
    questions: [
      question.shortAnswer('Why is Mars red?', []),
      question.shortAnswer('Explain recursion', []),
      { ...question.coding('Reverse a string'), starterCode: STARTER },
    ],
  });
  const saves = captureSaves(page);
  await enterExam(page, exam.id, { name: 'Katherine Johnson', studentId: 'V-1918' });
  const attempt = await storedAttempt(page, exam.id);
  const first = page.getByLabel('Answer for Q1');
  const second = page.getByLabel('Answer for Q2');
  const code = page.getByRole('textbox', { name: 'Code for Q3' });
  const reply = page.locator('[data-testid="chat-message"][data-role="assistant"]').filter({ hasText: REPLY });
  const expected = [new Expected(), new Expected(), new Expected()];

  await test.step('types an answer, and pastes part of it into another (copied inside the exam)', async () => {
    await typeAtEnd(page, second, 'Recursion: a function that calls itself.');
    expected[1]!.append('Recursion: a function that calls itself.', 'typed');
    const from = expected[1]!.text.indexOf('a function');
    await selectInTextarea(second, from, from + 'a function that calls itself'.length);
    await page.keyboard.press('ControlOrMeta+C');
    await typeAtEnd(page, first, 'Mars is red, like ');
    expected[0]!.append('Mars is red, like ', 'typed');
    await pasteAtEnd(page, first);
    expected[0]!.append('a function that calls itself', 'pasted');
    await typeAtEnd(page, first, '. ');
    expected[0]!.append('. ', 'typed');
    await expect(first).toHaveValue(expected[0]!.text);
  });

  await test.step('asks the assistant, copies its reply and pastes it; deletes and retypes some of it', async () => {
    const composer = page.getByRole('textbox', { name: 'Message the AI assistant' });
    await composer.fill('Why is Mars red?');
    await composer.press('Enter');
    await reply.getByRole('button', { name: 'Copy' }).click();
    // The copy is written to the clipboard (and remembered as the assistant's) before the button says so: a paste
    // sooner found the clipboard still empty on a busy machine.
    await expect(reply.getByRole('button', { name: 'Copied' })).toBeVisible();
    await pasteAtEnd(page, first);
    expected[0]!.append(REPLY, 'assistant');
    await page.keyboard.press('Backspace', { delay: KEY_DELAY_MS });
    await page.keyboard.press('Backspace', { delay: KEY_DELAY_MS });
    const end = expected[0]!.text.length;
    expected[0]!.splice(end - 2, end, '', 'typed');
    await page.keyboard.type('d!', { delay: KEY_DELAY_MS });
    expected[0]!.append('d!', 'typed');
    await expect(first).toHaveValue(expected[0]!.text);
  });

  await test.step('a paste of outside text is refused and changes nothing', async () => {
    await page.evaluate(() => navigator.clipboard.writeText('an essay from another window'));
    await pasteAtEnd(page, first);
    await expect(page.getByRole('status').filter({ hasText: PASTE_BLOCKED })).toBeVisible();
    await expect(first).toHaveValue(expected[0]!.text);
  });

  await test.step('selects a word and types over it', async () => {
    const at = expected[0]!.text.indexOf('red');
    await selectInTextarea(first, at, at + 3);
    await page.keyboard.type('rusty', { delay: KEY_DELAY_MS });
    expected[0]!.splice(at, at + 3, 'rusty', 'typed');
    await expect(first).toHaveValue(expected[0]!.text);
  });

  await test.step('reloads, then types while offline', async () => {
    await expect(page.getByTestId('save-status')).toHaveText('Saved');
    await page.reload();
    await expect(first).toHaveValue(expected[0]!.text);
    await expect(second).toHaveValue(expected[1]!.text);
    await page.route('**/api/attempts/**', (route) => route.abort('internetdisconnected'));
    await typeAtEnd(page, second, ' Offline too.');
    expected[1]!.append(' Offline too.', 'typed');
    await expect(page.getByTestId('save-status')).toHaveText('Offline — answers are kept on this device');
    await page.unroute('**/api/attempts/**');
    // Retries back off exponentially; a few failed rounds can put the next one several seconds away.
    await expect(page.getByTestId('save-status')).toHaveText('Saved', { timeout: 45_000 });
  });

  await test.step('edits the starter code and pastes the assistant reply into it', async () => {
    expected[2] = new Expected(STARTER, 'restored');
    await typeAtEnd(page, code, '# tests pass');
    expected[2].append('# tests pass', 'typed');
    await reply.getByRole('button', { name: 'Copy' }).click();
    await pasteAtEnd(page, code);
    expected[2].append(REPLY, 'assistant');
    await expect(code).toContainText(`# tests pass${REPLY}`);
  });

  await submitExam(page);
  await expect(page.getByRole('heading', { name: 'Exam Completed' })).toBeVisible();

  const stored = await getAttempt(request, attempt.token, attempt.attemptId);
  // Operations carry their time since the start; the replay needs only their order.
  const startedAt = 0;
  let right = 0;
  let total = 0;
  for (const [questionIndex, script] of expected.entries()) {
    const final = stored.answers[String(questionIndex)]?.answer;
    expect(final, `Q${questionIndex + 1}'s stored answer`).toBe(script.text);
    const ops = storedOperations(saves, questionIndex).map((op) => fromCompact(op, startedAt));
    const { text, runs } = replayWithSources(ops);
    expect(text, `Q${questionIndex + 1} replayed from its operations`).toBe(final);
    const recorded = runs.flatMap(([length, source]) => Array.from({ length }, () => source));
    total += recorded.length;
    right += recorded.filter((source, i) => source === script.sources[i]).length;
  }
  expect(total).toBe(expected.reduce((sum, script) => sum + script.text.length, 0));
  expect(right / total, `${right} of ${total} characters carry the right source`).toBeGreaterThanOrEqual(0.99);

  // Issue 31's journey goes on: the candidate's receipt, the server's timeline, the creator's replay and check.
  let receipt = '';
  await test.step('the completion page gives the candidate their own process and a signed receipt', async () => {
    const summary = page.getByTestId('process-summary');
    await expect(summary).toContainText('typed');
    await expect(summary).toContainText('pasted from within the exam');
    await expect(summary).toContainText('assistant used once');
    await expect(summary).toContainText('1 paste from outside the exam refused');
    receipt = await page.getByLabel('Your receipt').inputValue();
    expect(receipt.split('.')).toHaveLength(3);
  });

  const { resultId } = await getAttempt(request, attempt.token, attempt.attemptId);
  expect(resultId).toBeTruthy();

  await test.step("the server's timeline replays every answer and keeps each character's source", async () => {
    const response = await request.get(`${E2E.creatorOrigin}/api/results/${resultId}/timeline`, {
      headers: { authorization: `Bearer ${creator.token}` },
    });
    expect(response.status()).toBe(200);
    const timeline = TimelineSchema.parse(await response.json());
    let serverRight = 0;
    let serverTotal = 0;
    for (const [questionIndex, script] of expected.entries()) {
      const answer = timeline.answers.find((a) => a.questionIndex === questionIndex)!;
      expect(answer.final).toBe(script.text);
      expect(replayWithSources(answer.operations).text).toBe(script.text);
      const recorded = answer.runs.flatMap(([length, source]) => Array.from({ length }, () => source));
      serverTotal += recorded.length;
      serverRight += recorded.filter((source, i) => source === script.sources[i]).length;
    }
    expect(serverRight / serverTotal, `${serverRight} of ${serverTotal} on the server`).toBeGreaterThanOrEqual(0.99);
    const kinds = new Set(timeline.events.map((event) => event.kind));
    for (const kind of [
      'answer-edit',
      'paste-allowed',
      'paste-blocked',
      'assistant-user',
      'assistant-reply',
      'submit',
    ]) {
      expect(kinds, `a ${kind} event`).toContain(kind);
    }
    const times = timeline.events.map((event) => Date.parse(event.at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  await test.step('the creator replays the answer, sees the shares and verifies the receipt', async () => {
    await signInCreator(page, creator);
    await page.goto(`${E2E.creatorOrigin}/creator/result/${resultId}`);
    const process = page.getByTestId('answer-process-0');
    await expect(process).toContainText('From the assistant');
    await expect(process).toContainText('Pasted inside the exam');
    const replay = page.getByTestId('attempt-replay');
    const slider = replay.getByRole('slider', { name: 'Time in the attempt' });
    await slider.focus();
    await page.keyboard.press('Home');
    await expect(replay.getByTestId('replay-answer-0')).not.toContainText('Mars');
    await page.keyboard.press('End');
    await expect(replay.getByTestId('replay-answer-0')).toContainText(expected[0]!.text.slice(0, 30));
    await page.getByLabel('Receipt', { exact: true }).fill(receipt);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByText('Valid: this receipt was signed by this platform for this attempt.')).toBeVisible();
    await expect(page.getByText("Its figures match the platform's record of the attempt.")).toBeVisible();
  });
});
