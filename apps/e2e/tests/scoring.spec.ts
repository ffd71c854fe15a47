import { readFile } from 'node:fs/promises';
import { formatScore, type ResultStatus } from '@exam/domain/grading';
import type { Locator, Page } from '@playwright/test';
import { expectAccessible } from './support/a11y.ts';
import { expect, test } from './support/fixtures.ts';
import {
  getAttempt,
  getResult,
  gradeResult,
  listResults,
  PASSWORD,
  publishExam,
  question,
  registerCreator,
  sitExam,
} from './support/api.ts';
import { E2E } from './support/env.ts';
import { enterExam, storedAttempt, submitExam } from './support/taker.ts';

const ADA = { name: 'Ada Lovelace', studentId: 'S-001' };
const BOB = { name: 'Bob Babbage', studentId: 'S-002' };
const CY = { name: 'Cy Hopper', studentId: 'S-003' };
const NAMES = [ADA.name, BOB.name, CY.name];
const RUBRIC = {
  id: 'report',
  title: 'Report rubric',
  criteria: [
    { id: 'method', description: 'Clear method', points: 2 },
    { id: 'conclusion', description: 'Sound conclusion', points: 2 },
  ],
};
const FEEDBACK = 'Good method; the conclusion is missing.';

/** The score text of the one score component in a row or a page section (formatScore, then the status badge). */
const scoreText = (scope: Locator | Page) => scope.locator('[data-testid="score"] > span').first();
const statusBadge = (scope: Locator | Page) => scope.locator('[data-testid="score"] [data-status]');
const rowOf = (page: Page, testId: string, name: string): Locator => page.getByTestId(testId).filter({ hasText: name });

/**
 * docs/product.md#results-and-grading: one number, computed on the server, shown the same on every screen.
 *
 *         Q1 MCQ 2   Q2 multi 3 (partial)   Q3 3.14±0.01   Q4 MCQ no key 1   Q5 file 4 (rubric 2+2)   score
 *   Ada   Green 2    2,3 → 3                3.141 → 1      Agree → 1 (UI)    file → 2 (UI, rubric)    9 / 11   released
 *   Bob   Red 0      2 → 1.5                3.2 → 0        Disagree pending  none → 0 (unanswered)    1.5 / 11 pending
 *   Cy    Green 2    2,3,4 → 1.5            3.15 → 1       Agree → 0 (API)   none → 0 (API)           4.5 / 11 graded
 *
 * The exam scores unanswered questions 0 (unansweredPolicy 'zero', the default): a missing report is 0 at
 * submission, marked for the grader; only an answer no key can score waits for a grader.
 */
test('every screen, the CSV and the candidate read the same score; a pending one awaits grading everywhere', async ({
  page,
  context,
  request,
}) => {
  // Eleven screens and a download on a shared two-core machine: longer than the suite's default.
  test.setTimeout(360_000);
  const creator = await registerCreator(request, 'scorer');
  const exam = await publishExam(request, creator.token, {
    title: 'Scoring Journey',
    releasePolicy: 'on-release',
    rubrics: [RUBRIC],
    questions: [
      question.mcq('Pick green', ['Red', 'Green', 'Blue'], 'Green', 'Colours', { points: 2 }),
      question.multipleAnswers('Tick the primes', ['2', '3', '4', '9'], ['2', '3'], 'Numbers', {
        points: 3,
        scoring: 'partial',
      }),
      question.shortAnswer('Pi to two decimals', ['3.14'], 'Numbers', {
        matching: { caseSensitive: false, numeric: { tolerance: 0.01, mode: 'absolute' } },
      }),
      question.mcq('Do you agree?', ['Agree', 'Disagree'], '', 'Opinion'),
      question.fileUpload('Upload your report', 'Reports', { points: 4, rubricId: RUBRIC.id }),
    ],
  });

  const taker = await context.newPage();
  let adaAttemptId = '';
  await test.step('Ada sits the exam in the browser, ticking two boxes and uploading her report', async () => {
    await enterExam(taker, exam.id, ADA);
    await expect(taker.getByTestId('question-points-1')).toHaveText('3 points');
    await expect(taker.getByTestId('question-points-2')).toHaveText('1 point');
    await expectAccessible(taker, 'exam room with checkboxes, points and a file question');
    await taker.getByRole('radio', { name: 'Green' }).check();
    await taker.getByRole('checkbox', { name: '2', exact: true }).check();
    await taker.getByRole('checkbox', { name: '3', exact: true }).check();
    await taker.getByLabel('Answer for Q3').fill('3.141');
    await taker.getByRole('radio', { name: 'Agree', exact: true }).check();
    await taker.getByLabel('Upload file for Q5').setInputFiles({
      name: 'report.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('method: measure; conclusion: (none)'),
    });
    const attempt = await storedAttempt(taker, exam.id);
    adaAttemptId = attempt.attemptId;
    await expect
      .poll(async () => {
        const { answers } = await getAttempt(request, attempt.token, attempt.attemptId);
        return Object.fromEntries(Object.entries(answers).map(([i, a]) => [i, a.answer]));
      })
      .toEqual({ '0': 'Green', '1': '["2","3"]', '2': '3.141', '3': 'Agree', '4': 'File: report.txt' });
    await submitExam(taker);
    await expect(taker.getByRole('heading', { name: 'Exam Completed' })).toBeVisible();
    await taker.getByRole('link', { name: 'View your result' }).click();
    await expect(taker).toHaveURL(`${E2E.takerOrigin}/taker/results/${adaAttemptId}`);
    await expect(taker.getByText('Your result has not been released yet')).toBeVisible();
    await expect(taker.getByRole('heading', { name: 'Your result' })).toHaveCount(0);
    await expectAccessible(taker, 'candidate result page before release');
  });

  await test.step('Bob and Cy submit through the API', async () => {
    await sitExam(request, { examId: exam.id, ...BOB }, ['Red', '["2"]', '3.2', 'Disagree', null]);
    await sitExam(request, { examId: exam.id, ...CY }, ['Green', '["2","3","4"]', '3.15', 'Agree', null]);
  });

  const idOf = async (name: string) => {
    const found = (await listResults(request, creator.token)).find((r) => r.userName === name);
    expect(found, `${name}'s result`).toBeDefined();
    return found?.id ?? '';
  };
  const ids = { [ADA.name]: await idOf(ADA.name), [BOB.name]: await idOf(BOB.name), [CY.name]: await idOf(CY.name) };

  await test.step('Cy is marked through the API: nothing for the unkeyed MCQ and the missing report', async () => {
    await gradeResult(request, creator.token, ids[CY.name]!, [
      { questionIndex: 3, points: 0 },
      { questionIndex: 4, points: 0, criteria: [] },
    ]);
  });

  await test.step('the creator signs in and grades Ada on her result page with points and the rubric', async () => {
    await page.goto('/creator/auth');
    await page.getByLabel('Email Address').fill(creator.user.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page).toHaveURL(/\/creator\/dashboard$/);

    await page.goto(`/creator/result/${encodeURIComponent(ids[ADA.name]!)}`);
    await expect(page.getByRole('heading', { name: 'Exam Result Details' })).toBeVisible();
    await expect(scoreText(page.getByTestId('result-score'))).toHaveText('6 / 11 points · awaiting grading');
    await expect(page.getByRole('button', { name: 'Release result' })).toBeDisabled();
    await expectAccessible(page, 'result page awaiting grading, with a rubric');

    await page.getByLabel('Points for question 4').fill('1');
    const q5 = page.getByRole('group', { name: 'Question 5', exact: true });
    await q5.getByRole('checkbox', { name: 'Clear method (2 points)' }).check();
    await expect(page.getByLabel('Points for question 5')).toHaveValue('2');
    await page.getByLabel('Feedback for question 5').fill(FEEDBACK);
    const save = page.getByRole('button', { name: 'Save Grading' });
    // The page also saves by itself; the button is there only while something is unsaved.
    if (await save.isVisible()) await save.click({ timeout: 2_000 }).catch(() => undefined);
    await expect
      .poll(async () => {
        const detail = await getResult(request, creator.token, ids[ADA.name]!);
        return [detail.status, detail.score, detail.questionAnswers[4]?.feedback];
      })
      .toEqual(['graded', 9, FEEDBACK]);
    await expect(scoreText(page.getByTestId('result-score'))).toHaveText('9 / 11 points · 81.8%');

    await page.getByRole('button', { name: 'Release result' }).click();
    await expect(statusBadge(page.getByTestId('result-score'))).toHaveText('Released');
    await expect(page.getByRole('button', { name: 'Withdraw release' })).toBeVisible();
    const history = page.getByRole('list', { name: 'Grade history' });
    await expect(history).toContainText('Q5: — → 2 points');
    await expect(history).toContainText('Released to the candidate');
    await expectAccessible(page, 'released result page with grade history');
  });

  // What the API says, formatted with the one formatter: every screen must read exactly this.
  const expected: Record<string, { text: string; status: string }> = {};
  await test.step('the API holds one score per candidate', async () => {
    for (const name of NAMES) {
      const detail = await getResult(request, creator.token, ids[name]!);
      expected[name] = { text: formatScore(detail), status: detail.status };
    }
    expect(expected).toEqual({
      [ADA.name]: { text: '9 / 11 points · 81.8%', status: 'released' },
      [BOB.name]: { text: '1.5 / 11 points · awaiting grading', status: 'pending' },
      [CY.name]: { text: '4.5 / 11 points · 40.9%', status: 'graded' },
    });
  });

  const STATUS_LABEL: Record<string, string> = { pending: 'Pending', graded: 'Graded', released: 'Released' };
  const expectRow = async (row: Locator, name: string) => {
    await expect(scoreText(row)).toHaveText(expected[name]!.text);
    await expect(statusBadge(row)).toHaveText(STATUS_LABEL[expected[name]!.status]!);
    if (name === BOB.name) {
      // The score reads as awaiting grading, never a percentage (other figures, e.g. the ranking's, may have one).
      await expect(row.getByTestId('score')).not.toContainText('%');
      await expect(row).not.toContainText('Incorrect');
    }
  };

  await test.step('the dashboard Results tab shows the same scores', async () => {
    await page.goto('/creator/dashboard');
    await page.getByRole('tab', { name: 'Results' }).click();
    await expect(page.getByTestId('grading-row')).toHaveCount(3);
    for (const name of NAMES) await expectRow(rowOf(page, 'grading-row', name), name);
  });

  const submissionsUrl = `/creator/exam-insights/${exam.id}/submissions`;
  await test.step('the submissions page shows the same scores', async () => {
    await page.goto(submissionsUrl);
    await expect(page.getByTestId('submission-row')).toHaveCount(3);
    for (const name of NAMES) await expectRow(rowOf(page, 'submission-row', name), name);
  });

  await test.step('each result page and each grader show the same score', async () => {
    // Bob last, so his grader is the page left open for the checks below.
    for (const name of [ADA.name, CY.name, BOB.name]) {
      await page.goto(`/creator/result/${encodeURIComponent(ids[name]!)}`);
      await expectRow(page.getByTestId('result-score'), name);

      await page.goto(submissionsUrl);
      await rowOf(page, 'submission-row', name)
        .getByRole('link', { name: `Open Grader for ${name}` })
        .click();
      await expect(page.getByRole('heading', { name: `Grading: ${name}` })).toBeVisible();
      await expectRow(page.getByTestId('grader-score'), name);
    }
    // Bob's answer no key can score waits for a grader, never reading as wrong; his missing report scored 0, marked so.
    const q4 = page.getByRole('group', { name: 'Question 4', exact: true });
    await expect(q4).toContainText('Awaiting grading');
    await expect(page.getByTestId('question-points-3')).toHaveText('— / 1 point');
    await expect(page.getByTestId('question-points-4')).toHaveText('0 / 4 points');
    await expect(page.getByRole('group', { name: 'Question 5', exact: true })).toContainText(
      'Unanswered — scored 0 automatically',
    );
    await expect(page.getByRole('main')).not.toContainText('Incorrect');
  });

  await test.step('the insights ranking shows the same scores', async () => {
    await page.goto(`/creator/exam-insights/${exam.id}`);
    await expect(page.getByRole('heading', { name: 'Scoring Journey' })).toBeVisible();
    await expect(page.getByTestId('ranking-row')).toHaveCount(3);
    for (const name of NAMES) await expectRow(rowOf(page, 'ranking-row', name), name);
  });

  await test.step('the CSV holds the same score, max score, percentage and status', async () => {
    await page.goto(submissionsUrl);
    await expect(page.getByTestId('submission-row')).toHaveCount(3);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    const [header = [], ...rows] = (await readFile(await download.path(), 'utf8'))
      .trimEnd()
      .split('\r\n')
      .map((line) => line.split(','));
    const col = (name: string) => header.indexOf(name);
    expect(header).toEqual(expect.arrayContaining(['score', 'maxScore', 'percentage', 'status']));
    expect(rows).toHaveLength(3);
    const read = Object.fromEntries(
      rows.map((r) => {
        const status = r[col('status')] ?? '';
        const score = { score: Number(r[col('score')]), maxScore: Number(r[col('maxScore')]) };
        const percentage = Number(r[col('percentage')]);
        return [r[0], { text: formatScore({ ...score, percentage, status: status as ResultStatus }), status }];
      }),
    );
    expect(read).toEqual(expected);
    // The question columns are headed by the exam's titles and worth, in its order.
    const questions = ['Q1 Pick green (2 pts)', 'Q2 Tick the primes (3 pts)', 'Q3 Pi to two decimals (1 pt)'];
    questions.push('Q4 Do you agree? (1 pt)', 'Q5 Upload your report (4 pts)');
    expect(header.slice(col(questions[0]!), col(questions[4]!) + 1)).toEqual(questions);
    const marks = Object.fromEntries(rows.map((r) => [r[0], r.slice(col(questions[0]!), col(questions[4]!) + 1)]));
    expect(marks).toEqual({
      [ADA.name]: ['2', '3', '1', '1', '2'],
      [BOB.name]: ['0', '1.5', '0', '', '0'],
      [CY.name]: ['2', '1.5', '1', '0', '0'],
    });
  });

  await test.step('Ada reads her released result on the device that took the exam', async () => {
    await taker.reload();
    await expect(taker.getByRole('heading', { name: 'Your result' })).toBeVisible();
    await expect(taker.getByText('Scoring Journey')).toBeVisible();
    await expect(taker.getByTestId('result-score')).toHaveText(expected[ADA.name]!.text);
    await expect(taker.getByText('3 / 3 points')).toBeVisible();
    await expect(taker.getByText('2 / 4 points')).toBeVisible();
    await expect(taker.getByText(FEEDBACK)).toBeVisible();
    // The report's rubric with the points given per criterion, and who marked each question.
    const rubric = taker.getByRole('list', { name: 'Rubric' });
    await expect(rubric.getByRole('listitem')).toHaveText(['Clear method2 / 2 points', 'Sound conclusion0 / 2 points']);
    await expect(taker.getByTestId('result-explanation-4')).toHaveText('Marked by your grader');
    await expect(taker.getByTestId('result-explanation-0')).toHaveText('Marked automatically by the answer key');
    // The exam does not show answer keys, so the server sends none.
    await expect(taker.getByText(/Correct answer:/)).toHaveCount(0);
    await expectAccessible(taker, 'candidate released result page');
  });
});
