import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { APIRequestContext, BrowserContext, Locator, Page } from '@playwright/test';
import { startStack, type Stack } from '../../../scripts/backup-stack.ts';
import { expect, test } from './support/fixtures.ts';
import { E2E, FAKE_OPENAI_PORT } from './support/env.ts';
import { startFakeOpenAi, type FakeOpenAi } from './support/fake-openai.ts';
import { storedAttempt, submitExam } from './support/taker.ts';
import { expectToast } from './support/ui.ts';

// Issue 38, "a backup is restored": a platform of its own on the embedded default is used in the browser, stopped,
// backed up with `pnpm backup`, restored with `pnpm restore` into a fresh data folder and started on it again; the
// creator and the candidate find everything as they left it (docs/backup.md).
//
// That platform never touches the suite's own stack: its own data folders, and eight ports of its own from
// 4180 + E2E_PORT_OFFSET (database, four services, workspace editors, creator-web, taker-web), a range the suite's
// layout (tests/support/env.ts: 41x1–41x5, 4125, 4132, 4199, 2625, 5273/5274 + offset) leaves free for every offset
// in steps of 100. It comes back on the same ports, so the candidate's browser keeps what it stored for the taker
// app's origin (the attempt and its token in IndexedDB). The web apps are the bundles the suite's start built.

const ROOT = resolve(import.meta.dirname, '../../..');
const BASE_PORT = 4180 + Number(process.env.E2E_PORT_OFFSET ?? 0);
const PASSWORD = 'backup-journey-password';
const ADA = { name: 'Ada Lovelace', studentId: 'B-1815' };
const TITLE = 'Backed-up Journey';
const ASKED = 'Which planet should I think about?';
const REPLY = 'Think about the one with the Great Red Spot.';
const FEEDBACK = 'Right planet, even if not in the key.';

/**
 * Opens a page (or reloads it) until the app shows `ready`. On this shared machine Chromium cancels in-flight
 * localhost requests with net::ERR_NETWORK_CHANGED whenever another job adds a network interface (a container's
 * veth), and an app whose first scripts were cancelled stays blank: up to three loads, each bounded, before failing.
 */
async function load(page: Page, url: string | undefined, ready: Locator): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    if (url) await page.goto(url);
    else await page.reload();
    try {
      await expect(ready).toBeVisible({ timeout: 45_000 });
      return;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}

/** The score text and status badge of the one score component in a row or a page section. */
const scoreText = (scope: Locator | Page) => scope.locator('[data-testid="score"] > span').first();
const statusBadge = (scope: Locator | Page) => scope.locator('[data-testid="score"] [data-status]');

/** `pnpm <script> …` from the checkout, as an operator runs it; the platform's variables do not leak in. */
function pnpm(args: string[]): Promise<{ status: number | null; out: string }> {
  const env = { ...process.env };
  for (const name of ['DATA_DIR', 'DATABASE_URL', 'E2E_DATA_DIR']) delete env[name];
  return new Promise((done, fail) => {
    const child = spawn('pnpm', args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', fail);
    child.on('exit', (status) => done({ status, out }));
  });
}

async function attemptAnswers(
  request: APIRequestContext,
  takerOrigin: string,
  attempt: { attemptId: string; token: string },
) {
  const response = await request.get(`${takerOrigin}/api/attempts/${attempt.attemptId}`, {
    headers: { authorization: `Bearer ${attempt.token}` },
  });
  expect(response.ok(), `attempt: ${response.status()}`).toBe(true);
  const body = (await response.json()) as { answers: Record<string, { answer: string }> };
  return Object.fromEntries(Object.entries(body.answers).map(([i, a]) => [i, a.answer]));
}

/** What the creator's result page shows of Ada's graded, released result and her conversation. */
const resultHeading = (page: Page) => page.getByRole('heading', { name: 'Exam Result Details' });
const candidateHeading = (taker: Page) => taker.getByRole('heading', { name: 'Your result' });

async function expectReleasedResult(page: Page): Promise<void> {
  await expect(resultHeading(page)).toBeVisible();
  await expect(scoreText(page.getByTestId('result-score'))).toHaveText('2 / 2 points · 100%');
  await expect(statusBadge(page.getByTestId('result-score'))).toHaveText('Released');
  const q1 = page.getByRole('group', { name: 'Question 1', exact: true });
  const q2 = page.getByRole('group', { name: 'Question 2', exact: true });
  await expect(q1).toContainText('Paris');
  await expect(q2).toContainText('the planet Jupiter');
  await expect(q2).toContainText('Answer key: Jupiter');
  await expect(page.getByLabel('Points for question 2')).toHaveValue('1');
  await expect(page.getByLabel('Feedback for question 2')).toHaveValue(FEEDBACK);
  await expect(page.getByRole('list', { name: 'Grade history' })).toContainText('Released to the candidate');
  await expect(page.getByRole('heading', { name: 'AI Conversation' })).toBeVisible();
  const turns = page.getByRole('list', { name: 'Conversation' }).getByRole('listitem');
  await expect(turns).toHaveCount(2);
  await expect(turns.nth(0)).toHaveAttribute('data-role', 'user');
  await expect(turns.nth(0)).toContainText(ASKED);
  await expect(turns.nth(1)).toHaveAttribute('data-role', 'assistant');
  await expect(turns.nth(1)).toContainText(REPLY);
}

/** The candidate's released result, on the device that took the exam. */
async function expectCandidateResult(taker: Page): Promise<void> {
  await expect(candidateHeading(taker)).toBeVisible();
  await expect(taker.getByText(TITLE)).toBeVisible();
  await expect(taker.getByTestId('result-score')).toHaveText('2 / 2 points · 100%');
  await expect(taker.getByText(FEEDBACK)).toBeVisible();
}

// Every action bounded: a page that never renders fails the attempt in a minute, not at the test's timeout.
test.use({ actionTimeout: 60_000, navigationTimeout: 90_000 });

let fake: FakeOpenAi;
test.beforeAll(async () => {
  fake = await startFakeOpenAi({
    port: FAKE_OPENAI_PORT,
    reply: REPLY.split(/(?= )/).map((text) => ({ text })),
    delayMs: 5,
  });
});
test.afterAll(async () => {
  await (fake as FakeOpenAi | undefined)?.close();
});

// Whatever a failed run left running is stopped, and its folders removed, before a retry starts its own.
let running: Stack | undefined;
let work: string | undefined;
const contexts: BrowserContext[] = [];
test.afterEach(async () => {
  const info = test.info();
  for (const context of contexts.splice(0)) await context.close();
  await running?.stop();
  running = undefined;
  // A failure keeps the platform's logs (database, services, web apps) in the report.
  const logDir = work && join(work, 'logs');
  if (logDir && existsSync(logDir) && info.status !== info.expectedStatus)
    for (const name of readdirSync(logDir).filter((n) => n.endsWith('.log')))
      await info.attach(name, { path: join(logDir, name), contentType: 'text/plain' });
  if (work) rmSync(work, { recursive: true, force: true });
  work = undefined;
});

test('a platform backed up with pnpm backup and restored with pnpm restore into a fresh folder serves the same exam, result and conversation', async ({
  browser,
  request,
}) => {
  // Two starts of the platform beside the suite's own on a shared two-core machine.
  test.setTimeout(600_000);
  const started = Date.now();
  const timings: Record<string, number> = {};
  const lap = (name: string, since: number) => (timings[name] = Math.round((Date.now() - since) / 100) / 10);

  work = mkdtempSync(join(tmpdir(), 'exam-backup-journey-'));
  const logDir = join(work, 'logs');
  mkdirSync(logDir);
  const original = join(work, 'original');
  const restored = join(work, 'restored');
  const archive = join(work, 'exam-backup.tar');
  const platform = (dataDir: string) =>
    startStack({
      dataDir,
      logDir,
      basePort: BASE_PORT,
      web: true,
      openAiBaseUrl: E2E.stackEnv.OPENAI_BASE_URL,
      env: { OPENAI_API_KEY: E2E.stackEnv.OPENAI_API_KEY },
    });

  let t = Date.now();
  running = await platform(original);
  lap('first start', t);
  const stack = running;
  const creatorUrl = (path: string) => `${stack.creatorOrigin}${path}`;
  const email = `backup-journey-${Date.now()}@e2e.test`;
  // The creator and the candidate in two browsers of their own; the candidate's is kept across the restore.
  const creatorContext = await browser.newContext();
  const takerContext = await browser.newContext();
  contexts.push(creatorContext, takerContext);
  const creator = await creatorContext.newPage();
  const taker = await takerContext.newPage();
  let examId = '';
  let attemptId = '';

  await test.step('the creator signs up and publishes an exam with an MCQ, a short answer and the assistant', async () => {
    t = Date.now();
    const signUp = creator.getByRole('button', { name: "Don't have an account? Create One" });
    await load(creator, creatorUrl('/creator/auth'), signUp);
    await signUp.click();
    await creator.getByLabel('Email Address').fill(email);
    await creator.getByLabel('Password').fill(PASSWORD);
    await creator.getByRole('button', { name: 'Create Account' }).click();
    await expect(creator).toHaveURL(/\/creator\/dashboard$/);
    await expect(creator.getByText(`Welcome, ${email}`)).toBeVisible();

    await creator.getByRole('link', { name: 'Create New Exam' }).click();
    await expect(creator.getByRole('heading', { name: 'Create New Exam' })).toBeVisible();
    await creator.getByLabel('Exam Title').fill(TITLE);
    await creator.getByRole('button', { name: 'Add MCQ' }).click();
    await creator.getByRole('button', { name: 'Add Short Answer' }).click();
    await creator.getByLabel('Question 1 title', { exact: true }).fill('Capital of France');
    for (const [i, option] of ['Berlin', 'Paris', 'Rome', 'Madrid'].entries())
      await creator.getByLabel(`Question 1 option ${i + 1}`, { exact: true }).fill(option);
    await creator.getByLabel('Option 2 of question 1 is correct').check();
    await creator.getByLabel('Question 2 title', { exact: true }).fill('Largest planet');
    await creator.getByRole('button', { name: 'Question 2 add accepted answer' }).click();
    await creator.getByLabel('Question 2 accepted answer 1', { exact: true }).fill('Jupiter');
    await creator.getByRole('switch', { name: 'Enable AI Assistant' }).click();
    await expect(creator.getByRole('combobox', { name: 'AI Provider', exact: true })).toHaveText('OpenAI');
    await creator.getByRole('button', { name: 'Publish Exam' }).click();
    await expect(creator.getByRole('heading', { name: 'Exam Published!' })).toBeVisible();
    examId = /\/creator\/exam-published\/([^/?#]+)$/.exec(creator.url())?.[1] ?? '';
    expect(examId).not.toBe('');
    await expect(creator.getByLabel('Exam URL')).toHaveValue(`${stack.takerOrigin}/exam/${examId}`);
    // A new exam is published offline: the creator switches it live from the dashboard.
    await creator.getByRole('link', { name: 'Back to Dashboard' }).click();
    const live = creator.getByRole('table', { name: 'Published Exams' }).getByRole('row').filter({ hasText: TITLE });
    await expect(live.getByRole('switch')).not.toBeChecked();
    await live.getByRole('switch').click();
    await expectToast(creator, 'Exam is now live');
    await expect(live.getByRole('switch')).toBeChecked();
    lap('author and publish', t);
  });

  await test.step('the candidate asks the assistant, answers both questions and submits', async () => {
    t = Date.now();
    await load(taker, `${stack.takerOrigin}/taker/start`, taker.getByLabel('Exam URL'));
    await taker.getByLabel('Exam URL').fill(`${stack.takerOrigin}/exam/${examId}`);
    await taker.getByRole('button', { name: 'Continue' }).click();
    await expectToast(taker, 'Valid exam found! Redirecting...');
    await taker.getByLabel('Full Name').fill(ADA.name);
    await taker.getByLabel('Candidate ID').fill(ADA.studentId);
    await taker.getByRole('button', { name: 'Continue' }).click();
    await taker.getByRole('button', { name: 'Start Exam' }).click();
    await expect(taker).toHaveURL(new RegExp(`/exam/${examId}$`));

    const conversation = taker.getByRole('log', { name: 'Conversation with the AI assistant' });
    const replies = conversation.locator('[data-testid="chat-message"][data-role="assistant"]');
    const composer = taker.getByRole('textbox', { name: 'Message the AI assistant' });
    await expect(composer).toBeEnabled();
    await composer.fill(ASKED);
    await composer.press('Enter');
    await expect(replies.nth(1)).toContainText(REPLY);
    expect(fake.requests.at(-1)?.headers.authorization).toBe(`Bearer ${E2E.stackEnv.OPENAI_API_KEY}`);

    await taker.getByRole('radio', { name: 'Paris' }).check();
    // Right, but not the key's wording: the key marks it wrong until the creator looks.
    await taker.getByLabel('Answer for Q2').fill('the planet Jupiter');
    await expect(taker.getByTestId('answered-count')).toHaveText('Answered: 2/2');
    const attempt = await storedAttempt(taker, examId);
    attemptId = attempt.attemptId;
    await expect
      .poll(() => attemptAnswers(request, stack.takerOrigin, attempt))
      .toEqual({ '0': 'Paris', '1': 'the planet Jupiter' });
    await submitExam(taker, { answered: 2, total: 2 });
    await expect(taker.getByRole('heading', { name: 'Exam Completed' })).toBeVisible();
    await taker.getByRole('link', { name: 'View your result' }).click();
    await expect(taker).toHaveURL(`${stack.takerOrigin}/taker/results/${attemptId}`);
    await expect(taker.getByText('Your result has not been released yet')).toBeVisible();
    lap('sit and submit', t);
  });

  await test.step('the creator marks the short answer, gives feedback and releases the result', async () => {
    t = Date.now();
    await load(creator, creatorUrl('/creator/dashboard'), creator.getByRole('tab', { name: 'Results' }));
    await creator.getByRole('tab', { name: 'Results' }).click();
    const row = creator.getByTestId('grading-row').filter({ hasText: ADA.name });
    await expect(scoreText(row)).toHaveText('1 / 2 points · 50%');
    await row.getByRole('link', { name: `View result of ${ADA.name}` }).click();
    await expect(creator.getByRole('heading', { name: 'Exam Result Details' })).toBeVisible();
    await creator.getByLabel('Points for question 2').fill('1');
    await creator.getByLabel('Feedback for question 2').fill(FEEDBACK);
    const save = creator.getByRole('button', { name: 'Save Grading' });
    // The page also saves by itself; the button is there only while something is unsaved.
    if (await save.isVisible()) await save.click({ timeout: 2_000 }).catch(() => undefined);
    await expect(scoreText(creator.getByTestId('result-score'))).toHaveText('2 / 2 points · 100%');
    await expect(save).toBeHidden();
    await creator.getByRole('button', { name: 'Release result' }).click();
    await expect(statusBadge(creator.getByTestId('result-score'))).toHaveText('Released');
    await load(creator, undefined, resultHeading(creator));
    await expectReleasedResult(creator);

    await load(taker, undefined, candidateHeading(taker));
    await expectCandidateResult(taker);
    lap('grade and release', t);
  });

  await test.step('pnpm backup refuses while the platform runs, naming its database', async () => {
    const refused = await pnpm(['backup', '--data-dir', original, '--out', archive]);
    expect(refused.status, refused.out).toBe(1);
    expect(refused.out).toMatch(
      new RegExp(
        `embedded database is running on ${original} \\(pid \\d+\\)\\. A backup .* needs the platform stopped`,
      ),
    );
    expect(existsSync(archive)).toBe(false);
  });

  await test.step('the platform is stopped and backed up with pnpm backup', async () => {
    t = Date.now();
    await stack.stop();
    running = undefined;
    lap('stop', t);
    t = Date.now();
    const made = await pnpm(['backup', '--data-dir', original, '--out', archive]);
    lap('pnpm backup', t);
    expect(made.status, made.out).toBe(0);
    expect(made.out).toContain(`Backup written to ${archive}`);
    expect(made.out).toMatch(/database: embedded-postgresql; migrations: exam_service \d+/);
    expect(made.out).toContain('secrets: ENCRYPTION_KEY, INTERNAL_TOKEN, JWT_SECRET');
  });

  await test.step('pnpm restore refuses a data folder that is not empty, and leaves it as it was', async () => {
    const before = readdirSync(original).sort();
    const refused = await pnpm(['restore', archive, '--data-dir', original]);
    expect(refused.status, refused.out).toBe(1);
    expect(refused.out).toContain(`${original} is not empty (`);
    expect(refused.out).toContain('restore into an empty data folder (--data-dir), or pass --force');
    expect(readdirSync(original).sort()).toEqual(before);
  });

  await test.step('pnpm restore puts the backup into a fresh folder; the original is removed', async () => {
    t = Date.now();
    const put = await pnpm(['restore', archive, '--data-dir', restored]);
    lap('pnpm restore', t);
    expect(put.status, put.out).toBe(0);
    expect(put.out).toMatch(/Restored the backup of .* \(embedded-postgresql\) in [\d.]+ s: checksums verified/);
    expect(put.out).toContain(`Data folder: ${restored}`);
    expect(readdirSync(join(restored, 'secrets')).sort()).toEqual(['ENCRYPTION_KEY', 'INTERNAL_TOKEN', 'JWT_SECRET']);
    // Whatever is served next comes from the restored folder.
    rmSync(original, { recursive: true, force: true });
  });

  t = Date.now();
  running = await platform(restored);
  lap('second start', t);
  const again = running;

  await test.step('pnpm restore refuses to write over the running platform, even with --force', async () => {
    for (const extra of [[], ['--force']]) {
      const refused = await pnpm(['restore', archive, '--data-dir', restored, ...extra]);
      expect(refused.status, refused.out).toBe(1);
      expect(refused.out).toMatch(
        new RegExp(
          `embedded database is running on ${restored} \\(pid \\d+\\)\\. A restore needs the platform stopped`,
        ),
      );
    }
    // --force did not move the running platform's folder aside.
    expect(readdirSync(work!).filter((name) => name.startsWith('restored.before-restore-'))).toEqual([]);
  });

  await test.step('the creator signs in with the same password and finds the exam and the released result', async () => {
    t = Date.now();
    const fresh = await browser.newContext();
    contexts.push(fresh);
    const page = await fresh.newPage();
    await load(page, `${again.creatorOrigin}/creator/auth`, page.getByLabel('Email Address'));
    await page.getByLabel('Email Address').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page).toHaveURL(/\/creator\/dashboard$/);
    await expect(page.getByText(`Welcome, ${email}`)).toBeVisible();
    const published = page.getByRole('table', { name: 'Published Exams' }).getByRole('row').filter({ hasText: TITLE });
    await expect(published.getByRole('switch')).toBeChecked();

    await page.getByRole('tab', { name: 'Results' }).click();
    const row = page.getByTestId('grading-row').filter({ hasText: ADA.name });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(ADA.studentId);
    await expect(scoreText(row)).toHaveText('2 / 2 points · 100%');
    await expect(statusBadge(row)).toHaveText('Released');
    await row.getByRole('link', { name: `View result of ${ADA.name}` }).click();
    await expectReleasedResult(page);

    // The exam as it was authored, answer keys included.
    await load(
      page,
      `${again.creatorOrigin}/creator/edit-exam/${examId}?type=published`,
      page.getByLabel('Exam Title'),
    );
    await expect(page.getByLabel('Exam Title')).toHaveValue(TITLE);
    await expect(page.getByLabel('Question 1 option 2', { exact: true })).toHaveValue('Paris');
    await expect(page.getByLabel('Option 2 of question 1 is correct')).toBeChecked();
    await expect(page.getByLabel('Question 2 accepted answer 1', { exact: true })).toHaveValue('Jupiter');
    await expect(page.getByRole('switch', { name: 'Enable AI Assistant' })).toBeChecked();
    lap('creator after restore', t);
  });

  await test.step("the candidate's result link still opens her result on the device that took the exam", async () => {
    // Same origin as before: her attempt token, signed with the restored JWT_SECRET, still reads it.
    await load(taker, undefined, candidateHeading(taker));
    await expect(taker).toHaveURL(`${again.takerOrigin}/taker/results/${attemptId}`);
    await expectCandidateResult(taker);
  });

  timings.total = Math.round((Date.now() - started) / 100) / 10;
  console.log(`[backup journey] seconds: ${JSON.stringify(timings)}`);
  test.info().annotations.push({ type: 'timings (s)', description: JSON.stringify(timings) });
});
