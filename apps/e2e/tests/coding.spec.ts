import { expectAccessible } from './support/a11y.ts';
import { expect, test } from './support/fixtures.ts';
import {
  getAttempt,
  getResult,
  listResults,
  publishExam,
  registerCreator,
  sitExam,
  updateExam,
} from './support/api.ts';
import { replaceCode } from './support/code-editor.ts';
import { E2E } from './support/env.ts';
import { enterExam, storedAttempt, submitExam } from './support/taker.ts';
import { ENGINE_ERROR_VARIABLE } from './support/workspace-engine.ts';
import { signInCreator } from './support/ui.ts';

const ADA = { name: 'Ada Lovelace', studentId: 'C-001' };
const BOB = { name: 'Bob Babbage', studentId: 'C-002' };
const CY = { name: 'Cy Hopper', studentId: 'C-003' };

const STARTER = 'a, b = map(int, input().split())\n';
const REFERENCE = 'a, b = map(int, input().split())\nprint(a + b)\n';
/** Two visible tests a candidate can run, three hidden ones that run at submission; one point each. */
const TESTS = [
  { name: 'Small numbers', stdin: '1 2', expected: '3', visible: true },
  { name: 'Tens', stdin: '10 20', expected: '30', visible: true },
  { name: 'Hundreds', stdin: '100 200', expected: '300', visible: false },
  { name: 'Negative', stdin: '-5 5', expected: '0', visible: false },
  { name: 'Large', stdin: '123456789 1', expected: '123456790', visible: false },
];
/** Ada's first try subtracts; her fix adds. */
const ADA_BUGGY = 'a, b = map(int, input().split())\nprint(a - b)\n';
const ADA_FIXED = 'a, b = map(int, input().split())\nprint(a + b)\n';
/** Bob adds absolute values: right for every test but the negative one (4 of 5). */
const BOB_PARTLY =
  'import sys\nnums = [int(t) for t in sys.stdin.read().split()]\ntotal = 0\nfor n in nums: total += abs(n)\nprint(total)\n';
/** Cy copies Ada's fixed solution and renames the variables. */
const CY_COPY = 'first, second = map(int, input().split())\nprint(first + second)\n';

/**
 * docs/product.md#coding-questions: a coding question graded by tests, from the creator's editor to the
 * candidate's Run tests, the grade run at submission, partial points, and the similarity of two answers.
 * Runs on the runner's sandbox (workspace-orchestrator on the private Docker engine, python runner image).
 */
test('a coding question graded by tests: authored in the editor, run by candidates, graded at submission, copies flagged', async ({
  page,
  context,
  request,
}) => {
  // Reference run, two candidate runs and three grade runs in containers on a shared two-core machine.
  test.setTimeout(600_000);
  const engineError = process.env[ENGINE_ERROR_VARIABLE];
  expect(engineError, `No Docker engine could be started for the runner: ${engineError ?? ''}`).toBeUndefined();
  const creator = await registerCreator(request, 'coder');
  await signInCreator(page, creator);
  let examId = '';

  await test.step('the creator writes a Python question with two visible and three hidden tests', async () => {
    await page.goto(`${E2E.creatorOrigin}/creator/new-exam`);
    await page.getByLabel('Exam Title').fill('Coding Journey');
    await page.getByRole('button', { name: 'Add Coding Question' }).click();
    await page.getByLabel('Question 1 title', { exact: true }).fill('Add two numbers');
    await page
      .getByLabel('Question 1 content', { exact: true })
      .fill('Read two integers from one line and print their sum.');
    await replaceCode(page, 'Question 1 starter code', STARTER);
    for (const [i, t] of TESTS.entries()) {
      await page.getByRole('button', { name: 'Question 1 add test' }).click();
      const row = page.getByRole('group', { name: `Question 1 test ${i + 1}` });
      await row.getByLabel('Name', { exact: true }).fill(t.name);
      await row.getByLabel('Input (stdin)', { exact: true }).fill(t.stdin);
      await row.getByLabel('Expected output', { exact: true }).fill(t.expected);
      await row.getByRole('checkbox', { name: 'Visible to candidates' }).setChecked(t.visible);
    }
    await expect(page.getByTestId('question-points-0')).toHaveValue('5');
    await expectAccessible(page, 'exam editor with a coding question and its tests');
  });

  await test.step('the reference solution passes every test', async () => {
    await replaceCode(page, 'Question 1 reference solution', REFERENCE);
    await page.getByRole('button', { name: 'Question 1 run reference' }).click();
    await expect(page.getByTestId('reference-summary-0')).toHaveText('All 5 tests pass', { timeout: 120_000 });
    const verdicts = page.getByRole('list', { name: 'Question 1 reference verdicts' }).getByRole('listitem');
    await expect(verdicts).toHaveCount(5);
  });

  await test.step('publishes the exam and switches it live', async () => {
    await page.getByRole('button', { name: 'Publish Exam' }).click();
    await expect(page).toHaveURL(/\/creator\/exam-published\/[^/]+$/);
    examId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');
    const exam = await updateExam(request, creator.token, examId, { isLive: true });
    expect(exam.questions[0]).toMatchObject({ type: 'coding', language: 'python', points: 5, starterCode: STARTER });
    expect(exam.questions[0]?.tests.map((t) => [t.name, t.visible])).toEqual(TESTS.map((t) => [t.name, t.visible]));
  });

  const taker = await context.newPage();
  await test.step('Ada opens the link, runs a buggy solution and sees the failure, expected against actual', async () => {
    await enterExam(taker, examId, ADA);
    const editor = taker.getByRole('textbox', { name: 'Code for Q1' });
    await expect(editor).toContainText('a, b = map(int, input().split())');
    await expect(taker.getByTestId('limits-0')).toHaveText('2 s · 256 MB');
    await expect(taker.getByTestId('test-counts-0')).toHaveText(
      '2 visible tests · 3 hidden tests (run when you submit)',
    );
    await replaceCode(taker, 'Code for Q1', ADA_BUGGY);
    await taker.getByRole('button', { name: 'Run tests' }).click();
    await expect(taker.getByTestId('run-summary-0')).toHaveText('0 of 2 visible tests passed', { timeout: 120_000 });
    const first = taker
      .getByRole('list', { name: 'Test results for Q1' })
      .getByRole('listitem', { name: 'Small numbers: Wrong output' });
    await expect(first.getByTestId('verdict-0-expected')).toHaveText('3');
    await expect(first.getByTestId('verdict-0-actual')).toHaveText('-1');
    // Only the visible tests ran.
    await expect(taker.getByRole('list', { name: 'Test results for Q1' }).getByRole('listitem')).toHaveCount(2);
    await expectAccessible(taker, 'exam room with a coding question and its test results');
  });

  await test.step('Ada fixes it, the visible tests pass, and she submits', async () => {
    await replaceCode(taker, 'Code for Q1', ADA_FIXED);
    await taker.getByRole('button', { name: 'Run tests' }).click();
    await expect(taker.getByTestId('run-summary-0')).toHaveText('2 of 2 visible tests passed', { timeout: 120_000 });
    const attempt = await storedAttempt(taker, examId);
    await expect
      .poll(async () => (await getAttempt(request, attempt.token, attempt.attemptId)).answers['0']?.answer)
      .toBe(ADA_FIXED);
    await submitExam(taker, { answered: 1, total: 1 });
    await expect(taker.getByRole('heading', { name: 'Exam Completed' })).toBeVisible();
  });

  const resultOf = async (name: string) => {
    const found = (await listResults(request, creator.token)).find((r) => r.userName === name);
    expect(found, `${name}'s result`).toBeDefined();
    return found?.id ?? '';
  };

  await test.step("the creator's result shows all five tests passed and full points once graded", async () => {
    await page.goto(`${E2E.creatorOrigin}/creator/result/${encodeURIComponent(await resultOf(ADA.name))}`);
    const card = page.getByRole('group', { name: 'Question 1' });
    // The page polls while the grade run is on its way.
    await expect(card.getByTestId('question-points-0')).toHaveText('5 / 5 points', { timeout: 180_000 });
    await expect(card.getByTestId('tests-state-0')).toHaveText('All 5 tests pass');
    const verdicts = card.getByRole('list', { name: 'Tests of question 1' }).getByRole('listitem');
    await expect(verdicts).toHaveCount(5);
    await expect(verdicts.filter({ hasText: 'Passed' })).toHaveCount(5);
    await expect(verdicts.filter({ hasText: 'Hidden' })).toHaveCount(3);
    await expect(page.getByTestId('result-score')).toContainText('5 / 5 points');
    await expectAccessible(page, 'result page with test verdicts');
  });

  await test.step('Bob submits a partly right solution and gets the points of the tests it passes', async () => {
    await sitExam(request, { examId, ...BOB }, [BOB_PARTLY]);
    const id = await resultOf(BOB.name);
    await expect
      .poll(async () => (await getResult(request, creator.token, id)).questionAnswers[0]?.points, {
        timeout: 180_000,
        intervals: [2000],
      })
      .toBe(4);
    const detail = await getResult(request, creator.token, id);
    expect(detail.questionAnswers[0]?.tests?.verdicts.map((v) => [v.name, v.outcome])).toEqual([
      ['Small numbers', 'passed'],
      ['Tens', 'passed'],
      ['Hundreds', 'passed'],
      ['Negative', 'failed'],
      ['Large', 'passed'],
    ]);
  });

  await test.step("Cy submits Ada's solution with renamed variables, and the insights flag the pair", async () => {
    await sitExam(request, { examId, ...CY }, [CY_COPY]);
    const id = await resultOf(CY.name);
    await expect
      .poll(async () => (await getResult(request, creator.token, id)).questionAnswers[0]?.points, {
        timeout: 180_000,
        intervals: [2000],
      })
      .toBe(5);
    await expect(async () => {
      await page.goto(`${E2E.creatorOrigin}/creator/exam-insights/${encodeURIComponent(examId)}`);
      await expect(page.getByRole('heading', { name: 'Code similarity' })).toBeVisible();
      await expect(
        page.getByTestId('similarity-pair').filter({ hasText: ADA.name }).filter({ hasText: CY.name }),
      ).toBeVisible({ timeout: 5000 });
    }).toPass({ timeout: 60_000 });
    // Bob's own solution is flagged with nobody.
    await expect(page.getByTestId('similarity-pair')).toHaveCount(1);
    // The pair opens side by side: the only differing line is the renamed one.
    await page.getByTestId('similarity-pair').getByRole('button').click();
    const diff = page.getByRole('table', { name: /Ada Lovelace \(left\) and Cy Hopper \(right\)/ });
    await expect(diff).toBeVisible();
    await expect(diff).toContainText('first + second');
    await expectAccessible(page, 'insights with the code similarity pair open');
  });
});

/**
 * docs/product.md#coding-questions, the candidate's choice of language and the console: a question the creator lets
 * candidates answer in JavaScript or Python (tests that read stdin and print stdout). The e2e engine builds the
 * Python runner image only (scripts/docker-test-engine.ts, RUNNER_TEST_LANGUAGES), so the question's own language
 * is JavaScript and the candidate chooses Python: every run below proves the choice, not the question's language,
 * reached the sandbox.
 */
test('a coding question in the language the candidate chooses: console with custom input, Run tests, graded in it', async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(600_000);
  const engineError = process.env[ENGINE_ERROR_VARIABLE];
  expect(engineError, `No Docker engine could be started for the runner: ${engineError ?? ''}`).toBeUndefined();
  const creator = await registerCreator(request, 'polyglot');
  const exam = await publishExam(request, creator.token, {
    title: 'Polyglot Journey',
    questions: [
      {
        id: 'sum',
        type: 'coding',
        title: 'Add two numbers',
        content: 'Read two integers from one line and print their sum.',
        points: 3,
        language: 'javascript',
        languages: ['javascript', 'python'],
        starterCode: '// read stdin\n',
        starterCodes: { python: STARTER },
        tests: [
          { id: 't1', name: 'Small numbers', stdin: '1 2', expected: '3', visible: true },
          { id: 't2', name: 'Tens', stdin: '10 20', expected: '30', visible: true },
          { id: 't3', name: 'Negative', stdin: '-5 5', expected: '0', visible: false },
        ],
      },
    ],
  } as Parameters<typeof publishExam>[2]);

  const taker = await context.newPage();
  await test.step('the candidate chooses Python and gets its starter code', async () => {
    await enterExam(taker, exam.id, ADA);
    const choice = taker.getByLabel('Language for Q1');
    await expect(choice).toHaveValue('javascript');
    await choice.selectOption('python');
    await expect(taker.getByRole('textbox', { name: 'Code for Q1' })).toContainText('a, b = map(int, input().split())');
  });

  await test.step('she tries her code on her own input in the console and reads its output', async () => {
    await replaceCode(taker, 'Code for Q1', ADA_FIXED);
    await taker.getByLabel('Custom input for Q1').fill('40 2');
    await taker.getByRole('button', { name: 'Run', exact: true }).click();
    const output = taker.getByRole('region', { name: 'Console output for Q1' });
    await expect(output.getByTestId('console-stdout-0')).toHaveText('42', { timeout: 120_000 });
    await expect(taker.getByTestId('console-status-0')).toContainText('Exit code 0');
    await expectAccessible(taker, 'exam room with the language choice and the console');
  });

  await test.step('Run tests runs the visible tests in Python, and she submits', async () => {
    await taker.getByRole('button', { name: 'Run tests' }).click();
    await expect(taker.getByTestId('run-summary-0')).toHaveText('2 of 2 visible tests passed', { timeout: 120_000 });
    const attempt = await storedAttempt(taker, exam.id);
    await expect
      .poll(async () => (await getAttempt(request, attempt.token, attempt.attemptId)).answers['0']?.answer)
      .toBe(ADA_FIXED);
    await submitExam(taker, { answered: 1, total: 1 });
    await expect(taker.getByRole('heading', { name: 'Exam Completed' })).toBeVisible();
  });

  await test.step('the grader reads the answer graded in Python and the language it was written in', async () => {
    await signInCreator(page, creator);
    const found = (await listResults(request, creator.token)).find((r) => r.examId === exam.id);
    expect(found, "Ada's result").toBeDefined();
    await page.goto(`${E2E.creatorOrigin}/creator/result/${encodeURIComponent(found?.id ?? '')}`);
    const card = page.getByRole('group', { name: 'Question 1' });
    await expect(card.getByTestId('question-points-0')).toHaveText('3 / 3 points', { timeout: 180_000 });
    await expect(card.getByTestId('answer-language-0')).toHaveText('Answered in Python');
    expect((await getResult(request, creator.token, found?.id ?? '')).questionAnswers[0]?.language).toBe('python');
    await expectAccessible(page, 'result page with the language the answer was written in');
  });
});
