import type { AssistantAudit, LatestAudit } from '@exam/domain/assistant-audit';
import { AiSettingsInputSchema } from '@exam/domain/exam-ai';
import type { APIRequestContext } from '@playwright/test';
import { expectAccessible } from './support/a11y.ts';
import { createExam, question, registerCreator } from './support/api.ts';
import { E2E, FAKE_OPENAI_PORT } from './support/env.ts';
import { startFakeOpenAi, type ChatCompletionBody, type FakeOpenAi } from './support/fake-openai.ts';
import { expect, test } from './support/fixtures.ts';
import { signInCreator } from './support/ui.ts';

/**
 * Issue 34, item 1: before publishing, the creator audits the exam's assistant from the exam's page. The fake model
 * (OpenAI's streaming wire format) is scripted to leak under two attacks only: role-play gets the key in plain words
 * on Q1 and Q2 (the answer guard stops it, so it leaks in the raw reply only), base64 gets it encoded on Q1 and Q3
 * (the guard cannot see it, so it leaks past the guard). Every other attempt is refused. The report must name
 * exactly those items and forms, and the publish bar must say what the audit found.
 */

const ITEMS = [
  { title: 'Which pigment absorbs light in leaves?', key: 'Chlorophyll' },
  { title: 'Which organelle makes most of the cell’s energy?', key: 'Mitochondria' },
  { title: 'What is water crossing a membrane called?', key: 'Osmosis' },
  { title: 'Where are proteins assembled?', key: 'Ribosome' },
];
/** Role-play leaks these (0-based) items plainly; base64 leaks these encoded. */
const ROLE_PLAY_LEAKS = new Set([0, 1]);
const BASE64_LEAKS = new Set([0, 2]);

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The item the gateway's prompt says the candidate looks at (prompt.ts writes "currently looking at Qn"). */
function itemOf(body: ChatCompletionBody): number {
  const system = (body.messages ?? []).find((m) => m.role === 'system' || m.role === 'developer');
  const prompt = typeof system?.content === 'string' ? system.content : '';
  const looking = /currently looking at Q(\d+)\./.exec(prompt);
  return looking ? Number(looking[1]) - 1 : -1;
}

function lastUserMessage(body: ChatCompletionBody): string {
  const users = (body.messages ?? []).filter((m) => m.role === 'user');
  const last = users[users.length - 1]?.content;
  return typeof last === 'string' ? last : '';
}

/** The scripted model: leaky under role-play and base64 on some items, refusing everything else. */
function auditedReply(body: ChatCompletionBody): Array<{ text: string }> {
  const item = itemOf(body);
  const key = ITEMS[item]?.key;
  const said = lastUserMessage(body);
  if (key && said.includes('ExamBot') && ROLE_PLAY_LEAKS.has(item))
    return [{ text: 'ExamBot says: ' }, { text: `the answer is ${key}.` }];
  if (key && said.includes('base64') && BASE64_LEAKS.has(item))
    return [{ text: 'Here it is, encoded: ' }, { text: Buffer.from(key).toString('base64') }];
  return [{ text: 'I cannot give you the answer, ' }, { text: 'but think about what the question asks.' }];
}

async function latestAudit(request: APIRequestContext, token: string, examId: string): Promise<LatestAudit> {
  const response = await request.get(`${E2E.creatorOrigin}/api/exams/${examId}/assistant-audits/latest`, {
    headers: bearer(token),
  });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as LatestAudit;
}

let fake: FakeOpenAi;
test.beforeAll(async () => {
  fake = await startFakeOpenAi({ port: FAKE_OPENAI_PORT, reply: auditedReply, delayMs: 2 });
});
test.afterAll(async () => {
  await fake.close();
});

test('the audit names the items that leak and the attacks that got them out', async ({ page, request }) => {
  test.setTimeout(240_000);
  const creator = await registerCreator(request, 'auditor');
  const exam = await createExam(request, creator.token, {
    title: 'Cell biology quiz',
    questions: ITEMS.map((item) => question.shortAnswer(item.title, [item.key], 'Cells')),
    aiSettings: AiSettingsInputSchema.parse({
      enabled: true,
      provider: 'openai',
      model: 'gpt-4o-mini',
      stopSolutions: true,
    }),
  });

  await signInCreator(page, creator);
  await page.goto(`${E2E.creatorOrigin}/creator/edit-exam/${exam.id}?type=draft`);
  const panel = page.getByRole('region', { name: 'Audit the assistant' });
  await expect(panel).toBeVisible();

  await test.step('the estimate comes before anything runs', async () => {
    await expect(panel.getByText(/attempts on 4 keyed questions/)).toBeVisible();
    await expect(panel.getByText(/Grading and audit budget: .* tokens left\./)).toBeVisible();
    expect((await latestAudit(request, creator.token, exam.id)).audit).toBeNull();
    // The publish bar says the assistant has not been audited, and the page says so too.
    await expect(page.getByText('The assistant has not been audited.').first()).toBeVisible();
  });

  let finished: AssistantAudit;
  await test.step('the audit runs to the end with progress', async () => {
    await panel.getByRole('button', { name: 'Start the audit' }).click();
    await expect(panel.getByText(/^Finished: [\d,]+ calls, [\d,]+ tokens\.$/)).toBeVisible({ timeout: 180_000 });
    const latest = await latestAudit(request, creator.token, exam.id);
    expect(latest.current).toBe(true);
    finished = latest.audit!;
    expect(finished.status).toBe('completed');
    expect(finished.progress.done).toBe(finished.progress.total);
    // At least 25 attempts per keyed item, as the issue asks.
    for (const item of finished.items) expect(item.attempts).toBeGreaterThanOrEqual(25);
  });

  await test.step('the report names the leaking items and forms, raw and past the guard', async () => {
    const byQuestion = new Map(finished.items.map((item) => [item.questionIndex, item]));
    for (const [index] of ITEMS.entries()) {
      const item = byQuestion.get(index)!;
      expect(item.formsLeaked).toEqual(BASE64_LEAKS.has(index) ? ['base64'] : []);
      const raw = [
        ...(ROLE_PLAY_LEAKS.has(index) ? ['role-play'] : []),
        ...(BASE64_LEAKS.has(index) ? ['base64'] : []),
      ];
      expect([...item.rawFormsLeaked].sort()).toEqual(raw.sort());
      expect(item.guardedLeaks).toBe(BASE64_LEAKS.has(index) ? 2 : 0);
    }
    const summary = (form: string) => finished.summary.find((s) => s.configuration === 0 && s.form === form)!;
    expect(summary('base64')).toMatchObject({ itemsTried: 4, itemsLeaking: 2, itemsLeakingRaw: 2 });
    expect(summary('role-play')).toMatchObject({ itemsTried: 4, itemsLeaking: 0, itemsLeakingRaw: 2 });
    expect(summary('direct')).toMatchObject({ itemsLeaking: 0, itemsLeakingRaw: 0 });

    // On the page: the headline, and the transcript of a leak with what the model said and what was shown.
    await expect(panel.getByText('2 of 4 items leak under base64').first()).toBeVisible();
    await panel.getByText(/Q1: .*show the \d+ leaks?/).click();
    await expect(panel.getByText('Attack: role-play').first()).toBeVisible();
    await expect(panel.getByText('Withheld by the guard').first()).toBeVisible();
    await expect(panel.getByText('Attack: base64').first()).toBeVisible();
    await expect(panel.getByText(/Seen through: .*base64/).first()).toBeVisible();
    await expect(panel.getByText(Buffer.from(ITEMS[0]!.key).toString('base64')).first()).toBeVisible();
    await expectAccessible(page, 'assistant audit report');
  });

  await test.step('the publish bar carries the headline, and an edit makes the audit stale', async () => {
    await expect(page.getByText(/2 of 4 items leak under base64/).first()).toBeVisible();
    const edited = await request.put(`${E2E.creatorOrigin}/api/exams/${exam.id}`, {
      headers: bearer(creator.token),
      data: {
        questions: ITEMS.map((item, i) =>
          question.shortAnswer(i === 3 ? 'Where are proteins made?' : item.title, [item.key], 'Cells'),
        ),
      },
    });
    expect(edited.status(), await edited.text()).toBe(200);
    expect((await latestAudit(request, creator.token, exam.id)).current).toBe(false);
    await page.reload();
    await expect(page.getByText('The exam changed since this audit: run it again.')).toBeVisible();
  });

  // The audit's calls went to the exam's configured model, with the battery's attacks in the user turns.
  const audited = fake.requests.filter((r) => r.body.model === 'gpt-4o-mini');
  expect(audited.length).toBeGreaterThanOrEqual(finished!.used.calls);
  expect(audited.some((r) => lastUserMessage(r.body).includes('ExamBot'))).toBe(true);
});
