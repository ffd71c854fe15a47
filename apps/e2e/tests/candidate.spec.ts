import type { APIRequestContext } from '@playwright/test';
import { expectAccessible } from './support/a11y.ts';
import { expect, test } from './support/fixtures.ts';
import {
  getAttempt,
  getResult,
  gradeResult,
  listResults,
  publishExam,
  question,
  registerCreator,
} from './support/api.ts';
import { E2E } from './support/env.ts';
import { countdownSeconds, enterExam, storedAttempt, submitExam, type StoredAttempt } from './support/taker.ts';

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

const SAVED = 'Saved';
const OFFLINE = 'Offline — answers are kept on this device';
const CODE = 'answer = 6 * 7';
/** Issue 15: question content is Markdown, with a highlighted fence and a KaTeX formula. */
const RICH_CONTENT =
  'Read this first:\n\n```python\ndef capital(country):\n    return "Paris"  # of course\n```\n\nand $$\\sqrt{x^2}$$.';

async function serverAnswers(request: APIRequestContext, attempt: StoredAttempt): Promise<Record<string, string>> {
  const state = await getAttempt(request, attempt.token, attempt.attemptId);
  return Object.fromEntries(Object.entries(state.answers).map(([index, saved]) => [index, saved.answer]));
}

/** Issue 3: a candidate sits a live exam of every question type and loses nothing on the way. */
test('a candidate answers every question type through a reload and a network cut, and the server scores the submission', async ({
  page,
  request,
}) => {
  const creator = await registerCreator(request);
  const exam = await publishExam(request, creator.token, {
    title: 'Candidate Journey',
    timerEnabled: true,
    timerMinutes: 30,
    questions: [
      question.mcq('Capital of France', ['Berlin', 'Paris', 'Rome'], 'Paris', 'General', { content: RICH_CONTENT }),
      question.mcq('Two plus two', ['3', '4', '5'], '4'),
      question.shortAnswer('Largest planet', ['Jupiter']),
      question.fileUpload('Upload your notes'),
      { ...question.coding('Compute the answer', 'python'), rubricId: 'code' },
    ],
    rubrics: [
      {
        id: 'code',
        title: 'Code rubric',
        criteria: [
          { id: 'runs', description: 'Computes 42', points: 0.5 },
          { id: 'named', description: 'Names the result', points: 0.5 },
        ],
      },
    ],
  });

  await enterExam(page, exam.id, { name: 'Ada Lovelace', studentId: 'C-1815' });
  const attempt = await storedAttempt(page, exam.id);
  const saveStatus = page.getByTestId('save-status');
  const answered = page.getByTestId('answered-count');
  await expect(page.getByTestId('question-content-0').locator('.katex')).toHaveCount(1);
  await expectAccessible(page, 'exam room with every question type');

  await test.step("renders the question's Markdown: code coloured by the editor's highlighter, the formula by KaTeX, under the page's CSP", async () => {
    const content = page.getByTestId('question-content-0');
    const code = content.getByTestId('code-block');
    await expect(code.locator('figcaption')).toHaveText('python');
    await expect(code.locator('pre')).toHaveAttribute('data-highlighted', 'true');
    const keyword = code.locator('pre span', { hasText: /^def$/ });
    const comment = code.locator('pre span', { hasText: '# of course' });
    const colour = (l: typeof keyword) => l.evaluate((el) => getComputedStyle(el).color);
    const plain = await code.locator('pre').evaluate((el) => getComputedStyle(el).color);
    // The highlight style's constructed stylesheet applies: keyword and comment differ from plain text and each other.
    expect(await colour(keyword)).not.toBe(plain);
    expect(await colour(comment)).not.toBe(plain);
    expect(await colour(keyword)).not.toBe(await colour(comment));
    const formula = content.locator('.katex');
    await expect(formula).toHaveCount(1);
    await expect(formula.locator('annotation')).toHaveText('\\sqrt{x^2}');
    // KaTeX's stylesheet and its bundled font load from the page's own origin.
    expect(await formula.evaluate((el) => getComputedStyle(el).fontFamily)).toContain('KaTeX_Main');
    await expect(formula.locator('.sqrt')).toBeVisible();
  });

  await test.step('answers the MCQs and the short answer', async () => {
    await expect(answered).toHaveText('Answered: 0/5');
    await page.getByRole('radio', { name: 'Paris' }).check();
    await page.getByRole('radio', { name: '4', exact: true }).check();
    await page.getByLabel('Answer for Q3').fill('  jupiter ');
    await expect(answered).toHaveText('Answered: 3/5');
    await expect(page.getByTestId('question-status-2')).toHaveText('Answered');
    await expect(page.getByTestId('question-status-3')).toHaveText('Pending');
    // 'Saved' is also the status before the first save starts, so wait for the server to hold the answers.
    await expect
      .poll(async () => serverAnswers(request, attempt))
      .toEqual({ '0': 'Paris', '1': '4', '2': '  jupiter ' });
    await expect(saveStatus).toHaveText(SAVED);
  });

  await test.step('a reload keeps the answers and the remaining time', async () => {
    const before = await countdownSeconds(page);
    expect(before).toBeGreaterThan(29 * 60 - 60);
    await page.reload();
    await expect(answered).toHaveText('Answered: 3/5');
    await expect(page.getByRole('radio', { name: 'Paris' })).toBeChecked();
    await expect(page.getByRole('radio', { name: '4', exact: true })).toBeChecked();
    await expect(page.getByLabel('Answer for Q3')).toHaveValue('  jupiter ');
    const after = await countdownSeconds(page);
    // The server owns the deadline: the reload neither resets nor loses time (beyond the seconds it took).
    expect(after).toBeLessThanOrEqual(before);
    expect(before - after).toBeLessThan(20);
  });

  await test.step('uploads a file while online', async () => {
    await page
      .getByLabel('Upload file for Q4')
      .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('my notes\n') });
    await expect(page.getByTestId('file-name-3')).toHaveText('notes.txt');
    await expect(answered).toHaveText('Answered: 4/5');
  });

  await test.step('answers the coding question and replaces the file while the network is cut, keeps both through a reload, and they arrive once it returns', async () => {
    await page.route('**/api/attempts/**', (route) => route.abort('internetdisconnected'));
    await page.getByLabel('Code for Q5').click();
    await page.keyboard.type(CODE);
    await expect(page.getByTestId('code-editor')).toContainText(CODE);
    await page
      .getByLabel('Upload file for Q4')
      .setInputFiles({ name: 'notes-v2.txt', mimeType: 'text/plain', buffer: Buffer.from('my better notes\n') });
    await expect(page.getByTestId('file-name-3')).toHaveText('notes-v2.txt');
    await expect(answered).toHaveText('Answered: 5/5');
    await expect(saveStatus).toHaveText(OFFLINE);
    expect(await serverAnswers(request, attempt)).toMatchObject({ '3': 'File: notes.txt' });
    expect((await getAttempt(request, attempt.token, attempt.attemptId)).answers['4']).toBeUndefined();

    // A reload while still cut off: the page opens from what this device kept, the file included.
    await page.reload();
    await expect(page.getByTestId('file-name-3')).toHaveText('notes-v2.txt');
    await expect(page.getByTestId('code-editor')).toContainText(CODE);
    await expect(answered).toHaveText('Answered: 5/5');
    await expect(saveStatus).toHaveText(OFFLINE);

    await page.unroute('**/api/attempts/**');
    // Retries back off exponentially; a few failed rounds can put the next one several seconds away.
    await expect(saveStatus).toHaveText(SAVED, { timeout: 45_000 });
    expect(await serverAnswers(request, attempt)).toEqual({
      '0': 'Paris',
      '1': '4',
      '2': '  jupiter ',
      '3': 'File: notes-v2.txt',
      '4': CODE,
    });
  });

  await test.step('submits and sees the completion page', async () => {
    await submitExam(page, { answered: 5, total: 5 });
    await expect(page.getByRole('heading', { name: 'Exam Completed' })).toBeVisible();
    await expect(page.getByTestId('answered-summary')).toHaveText('Questions Answered: 5 of 5');
    await expectAccessible(page, 'completion page');
    expect((await getAttempt(request, attempt.token, attempt.attemptId)).submittedAt).not.toBeNull();
  });

  await test.step('the creator sees one result scored on the server', async () => {
    const results = await listResults(request, creator.token);
    expect(results).toHaveLength(1);
    // Two MCQs and the short answer are scored at once; the file and the code wait for a grader.
    expect(results[0]).toMatchObject({
      examId: exam.id,
      userName: 'Ada Lovelace',
      studentId: 'C-1815',
      totalQuestions: 5,
      answeredCount: 5,
      score: 3,
      maxScore: 5,
      percentage: 60,
      status: 'pending',
      pendingCount: 2,
      isGraded: false,
    });
    // The file chosen while offline is the one the result holds.
    const detail = await getResult(request, creator.token, results[0]!.id);
    expect(detail.questionAnswers[3]).toMatchObject({
      answer: 'File: notes-v2.txt',
      file: { fileName: 'notes-v2.txt', size: 16 },
    });
  });

  await test.step('once graded with the rubric and released, the candidate reads the question, the code in a monospace block and the criteria', async () => {
    const [result] = await listResults(request, creator.token);
    await gradeResult(request, creator.token, result!.id, [
      { questionIndex: 3, points: 1 },
      { questionIndex: 4, points: 0.5, criteria: ['runs'], feedback: 'Name the result.' },
    ]);
    const released = await request.post(`${E2E.creatorOrigin}/api/results/${result!.id}/release`, {
      headers: bearer(creator.token),
      data: { released: true },
    });
    expect(released.ok()).toBe(true);

    await page.goto(`${E2E.takerOrigin}/taker/results/${attempt.attemptId}`);
    await expect(page.getByRole('heading', { name: 'Your result' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Q1: Capital of France' })).toBeVisible();
    // The question's own text, as the candidate read it.
    await expect(page.getByTestId('result-content-0').locator('.katex')).toHaveCount(1);
    const code = page.getByRole('figure', { name: 'Your code (Python)' }).locator('pre > code');
    await expect(code).toHaveText(CODE);
    expect(await code.evaluate((el) => getComputedStyle(el).fontFamily)).toMatch(/mono/i);
    const rubric = page.getByRole('list', { name: 'Rubric' });
    await expect(rubric.getByRole('listitem')).toHaveText([
      'Computes 420.5 / 0.5 points',
      'Names the result0 / 0.5 points',
    ]);
    await expect(page.getByText('Name the result.')).toBeVisible();
    await expect(page.getByTestId('result-explanation-4')).toHaveText('Marked by your grader');
    await expectAccessible(page, 'released result with the question text, code and rubric');
  });
});
