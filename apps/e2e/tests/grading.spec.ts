import { readFile } from 'node:fs/promises';
import type { Locator, Page } from '@playwright/test';
import { expectAccessible } from './support/a11y.ts';
import { expect, test } from './support/fixtures.ts';
import {
  getAttempt,
  getResult,
  listResults,
  PASSWORD,
  publishExam,
  question,
  registerCreator,
  sitExam,
} from './support/api.ts';
import { enterExam, storedAttempt, submitExam } from './support/taker.ts';

const ADA = { name: 'Ada Lovelace', studentId: 'G-001' };
const BOB = { name: 'Bob Babbage', studentId: 'G-002' };
const CY = { name: 'Cy Hopper', studentId: 'G-003' };

/** The grading table's row (dashboard Results tab) or a submissions row, found by the candidate's name. */
const rowOf = (page: Page, testId: string, name: string): Locator => page.getByTestId(testId).filter({ hasText: name });

async function openResultsTab(page: Page): Promise<void> {
  await page.goto('/creator/dashboard');
  await page.getByRole('tab', { name: 'Results' }).click();
  await expect(page.getByRole('table', { name: 'Exam Grading' })).toBeVisible();
}

/** The one score component (formatScore's text, then the status badge) inside a row or a page section. */
async function expectScore(scope: Locator, text: string, status: 'Pending' | 'Graded' | 'Released'): Promise<void> {
  await expect(scope.locator('[data-testid="score"] > span').first()).toHaveText(text);
  await expect(scope.locator('[data-testid="score"] [data-status]')).toHaveText(status);
}

/**
 * Three candidates submit; the creator overrules the automatic mark of a short answer in the grader, and
 * the Results tab, the submissions list, the insights and the CSV all follow the new mark. One point each.
 *
 *            Q1 (MCQ, Geography)  Q2 (MCQ, Arithmetic)  Q3 (short answer)           score
 *   Ada      Paris ✓              4 ✓                   'jupiter' ✓ (accepted)      3 / 3 points · 100%
 *   Bob      Rome ✗               4 ✓                   'the planet Jupiter' 0 → 1   1 / 3 points · 33.3% → 2 / 3 points · 66.7%
 *   Cy       Berlin ✗             5 ✗                   'Saturn' ✗                  0 / 3 points · 0%
 */
test('the creator grades a short answer and every result view, the insights and the CSV follow', async ({
  page,
  request,
}) => {
  const creator = await registerCreator(request, 'grader');
  const exam = await publishExam(request, creator.token, {
    title: 'Grading Journey',
    questions: [
      question.mcq('Capital of France', ['Berlin', 'Paris', 'Rome'], 'Paris', 'Geography'),
      question.mcq('Two plus two', ['3', '4', '5'], '4', 'Arithmetic'),
      question.shortAnswer('Largest planet', ['Jupiter'], 'Astronomy'),
    ],
  });

  await test.step('Ada sits the exam in the taker app', async () => {
    // The same page serves the creator later: the two apps live on different origins, so nothing is shared.
    const taker = page;
    await enterExam(taker, exam.id, ADA);
    await taker.getByRole('radio', { name: 'Paris' }).check();
    await taker.getByRole('radio', { name: '4', exact: true }).check();
    await taker.getByLabel('Answer for Q3').fill('jupiter');
    const attempt = await storedAttempt(taker, exam.id);
    await expect
      .poll(async () => Object.keys((await getAttempt(request, attempt.token, attempt.attemptId)).answers).sort())
      .toEqual(['0', '1', '2']);
    await submitExam(taker);
    await expect(taker.getByRole('heading', { name: 'Exam Completed' })).toBeVisible();
  });

  await test.step('Bob and Cy submit through the API; the short answers are scored automatically', async () => {
    await sitExam(request, { examId: exam.id, ...BOB }, ['Rome', '4', 'the planet Jupiter']);
    await sitExam(request, { examId: exam.id, ...CY }, ['Berlin', '5', 'Saturn']);
    const results = await listResults(request, creator.token);
    const byName = Object.fromEntries(results.map((r) => [r.userName, r]));
    expect(Object.keys(byName).sort()).toEqual([ADA.name, BOB.name, CY.name]);
    expect(byName[ADA.name]).toMatchObject({ status: 'graded', score: 3, maxScore: 3, percentage: 100 });
    // Bob's answer is right but not in the accepted list, so the automatic mark is wrong until a grader looks.
    expect(byName[BOB.name]).toMatchObject({ status: 'graded', score: 1, maxScore: 3 });
    expect(byName[CY.name]).toMatchObject({ status: 'graded', score: 0, maxScore: 3, percentage: 0 });
  });

  await test.step('the creator signs in and sees the three results in the Results tab', async () => {
    await page.goto('/creator/auth');
    await page.getByLabel('Email Address').fill(creator.user.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page).toHaveURL(/\/creator\/dashboard$/);
    await page.getByRole('tab', { name: 'Results' }).click();
    await expect(page.getByTestId('grading-row')).toHaveCount(3);
    await expectScore(rowOf(page, 'grading-row', ADA.name), '3 / 3 points · 100%', 'Graded');
    await expectScore(rowOf(page, 'grading-row', BOB.name), '1 / 3 points · 33.3%', 'Graded');
    await expectScore(rowOf(page, 'grading-row', CY.name), '0 / 3 points · 0%', 'Graded');
    const card = page.getByRole('group', { name: 'Grading Journey' });
    // Nobody was invited by mail: invitations sent are 0, the three candidates are counted as started.
    await expect(card).toContainText('Invites Sent0');
    await expect(card).toContainText('Started3');
    await expect(card).toContainText('Attempts3');
    await expect(card).toContainText('Graded3');
    // The mean of the percentages (100 + 33.3… + 0) / 3, rounded for display only.
    await expect(card).toContainText('Avg Score44.4%');
    await expectAccessible(page, 'dashboard results tab');
  });

  const submissionsUrl = `/creator/exam-insights/${exam.id}/submissions`;
  await test.step('opens the grader for Bob from the submissions list and gives his short answer full marks', async () => {
    await page.goto(submissionsUrl);
    await expect(page.getByRole('heading', { name: /Candidate Submissions/ })).toBeVisible();
    await expect(page.getByTestId('submission-row')).toHaveCount(3);
    await expectScore(rowOf(page, 'submission-row', BOB.name), '1 / 3 points · 33.3%', 'Graded');
    await rowOf(page, 'submission-row', BOB.name)
      .getByRole('link', { name: `Open Grader for ${BOB.name}` })
      .click();
    await expect(page.getByRole('heading', { name: `Grading: ${BOB.name}` })).toBeVisible();

    const q3 = page.getByRole('group', { name: 'Question 3', exact: true });
    await expect(q3).toContainText('the planet Jupiter');
    await expect(q3).toContainText('Answer key: Jupiter');
    await expect(page.getByTestId('question-points-2')).toHaveText('0 / 1 point');
    await expect(q3).toContainText('Scored by key');
    await expectScore(page.getByTestId('grader-score'), '1 / 3 points · 33.3%', 'Graded');
    await expectAccessible(page, 'grader');

    await q3.getByRole('button', { name: 'Full marks', exact: true }).click();
    await expect(page.getByLabel('Points for question 3')).toHaveValue('1');
    await expect(page.getByTestId('question-points-2')).toHaveText('1 / 1 point');
    await expect(q3).toContainText('Marked by grader');
    // The MCQs keep their automatic marks.
    await expect(page.getByTestId('question-points-0')).toHaveText('0 / 1 point');
    await expect(page.getByTestId('question-points-1')).toHaveText('1 / 1 point');

    await page.getByRole('button', { name: 'Save Grading' }).click();
    await expect(page).toHaveURL(new RegExp(`${submissionsUrl}$`));
  });

  await test.step("Bob's new score shows in the submissions list and the Results tab", async () => {
    const bob = rowOf(page, 'submission-row', BOB.name);
    await expectScore(bob, '2 / 3 points · 66.7%', 'Graded');
    await expectScore(rowOf(page, 'submission-row', ADA.name), '3 / 3 points · 100%', 'Graded');
    await expectScore(rowOf(page, 'submission-row', CY.name), '0 / 3 points · 0%', 'Graded');
    const saved = (await listResults(request, creator.token)).find((r) => r.userName === BOB.name);
    expect(saved).toMatchObject({ status: 'graded', score: 2, maxScore: 3 });

    await openResultsTab(page);
    await expectScore(rowOf(page, 'grading-row', BOB.name), '2 / 3 points · 66.7%', 'Graded');
    // (100 + 66.7… + 0) / 3.
    await expect(page.getByRole('group', { name: 'Grading Journey' })).toContainText('Avg Score55.6%');
  });

  await test.step('the insights rank the candidates by raw score and the item table matches the marks', async () => {
    await page.goto(`/creator/exam-insights/${exam.id}`);
    await expect(page.getByRole('heading', { name: 'Grading Journey' })).toBeVisible();
    await expect(page.getByTestId('pending-count')).toHaveText('0 pending');

    const ranking = page.getByTestId('ranking-row');
    await expect(ranking).toHaveCount(3);
    const expected = [
      { rank: '1', name: ADA.name, id: ADA.studentId, raw: '3 / 3 points · 100%' },
      { rank: '2', name: BOB.name, id: BOB.studentId, raw: '2 / 3 points · 66.7%' },
      { rank: '3', name: CY.name, id: CY.studentId, raw: '0 / 3 points · 0%' },
    ];
    for (const [i, row] of expected.entries()) {
      const cells = ranking.nth(i).getByRole('cell');
      await expect(cells.nth(0)).toHaveText(row.rank);
      await expect(cells.nth(1)).toHaveText(row.name);
      await expect(cells.nth(2)).toHaveText(row.id);
      await expect(cells.nth(3)).toContainText(row.raw);
    }
    await expect(page.getByText('Showing 1 to 3 of 3 entries')).toBeVisible();
    await expectAccessible(page, 'exam insights');

    // Facility = share of the three who got the item right: Q1 Ada only, Q2 Ada and Bob, Q3 Ada and Bob (after grading).
    const items = page.getByTestId('item-row');
    await expect(items).toHaveCount(3);
    const facilities = [
      { topic: 'Geography', title: 'Capital of France', type: 'Multiple choice', facility: '33.3%', guess: '33.3%' },
      { topic: 'Arithmetic', title: 'Two plus two', type: 'Multiple choice', facility: '66.7%', guess: '33.3%' },
      { topic: 'Astronomy', title: 'Largest planet', type: 'Short answer', facility: '66.7%', guess: '0%' },
    ];
    for (const [i, item] of facilities.entries()) {
      const cells = items.nth(i).getByRole('cell');
      await expect(cells.nth(0)).toHaveText(String(i + 1));
      await expect(cells.nth(1)).toHaveText(item.topic);
      await expect(cells.nth(2)).toHaveText(item.title);
      await expect(cells.nth(3)).toHaveText(item.type);
      await expect(cells.nth(4)).toHaveText(item.facility);
      await expect(cells.nth(8)).toHaveText(item.guess);
    }

    // Every column fits a small laptop's width: the last (Rasch difficulty) is not cut off by the card.
    for (const width of [1024, 1366]) {
      await page.setViewportSize({ width, height: 768 });
      const frame = page.getByRole('table', { name: 'Assessment Breakdown' }).locator('xpath=..');
      await expect
        .poll(() => frame.evaluate((el) => el.scrollWidth - el.clientWidth), { message: `at ${width}px` })
        .toBeLessThanOrEqual(0);
    }
    await page.setViewportSize({ width: 1280, height: 720 });
  });

  await test.step("Bob's name in the ranking opens his attempts across the creator's exams, and from there the grader", async () => {
    await page
      .getByTestId('ranking-row')
      .filter({ hasText: BOB.name })
      .getByRole('link', { name: BOB.name, exact: true })
      .click();
    await expect(page).toHaveURL(new RegExp(`/creator/candidates/${BOB.studentId}$`));
    await expect(page.getByRole('heading', { level: 1, name: BOB.name })).toBeVisible();
    const attempts = page.getByTestId('candidate-attempt-row');
    await expect(attempts).toHaveCount(1);
    await expect(attempts.first()).toContainText('Grading Journey');
    await expectScore(attempts.first(), '2 / 3 points · 66.7%', 'Graded');
    await expectAccessible(page, "a candidate's attempts across exams");
    await attempts.first().getByRole('link', { name: 'Open Grader for Grading Journey' }).click();
    await expect(page.getByRole('heading', { name: `Grading: ${BOB.name}` })).toBeVisible();
  });

  await test.step('downloads the CSV from the submissions page: one row per candidate with the marks', async () => {
    await page.goto(submissionsUrl);
    await expect(page.getByTestId('submission-row')).toHaveCount(3);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`results-${exam.id}.csv`);
    const text = await readFile(await download.path(), 'utf8');
    const [header, ...rows] = text
      .trimEnd()
      .split('\r\n')
      .map((line) => line.split(','));
    expect(header).toEqual([
      'name',
      'studentId',
      'startedAt',
      'completedAt',
      'timeSpent',
      // Each question's column is headed by its number, title and worth, in the exam's order.
      'Q1 Capital of France (1 pt)',
      'Q2 Two plus two (1 pt)',
      'Q3 Largest planet (1 pt)',
      'score',
      'maxScore',
      'percentage',
      'status',
      'focusLost',
      'blockedPastes',
      'fullscreenExits',
      // How the answers came to be (results.process): shares by source, the transcription-like flag, typing speed.
      'typedPercent',
      'pastedPercent',
      'assistantPercent',
      'transcriptionLike',
      'typedCharsPerMinute',
      // From insights: aided and unaided ability with the gap, RAIR, RSR and error adoption with their counts.
      'aidedTheta',
      'aidedSe',
      'unaidedTheta',
      'unaidedSe',
      'abilityGap',
      'abilityGapLow',
      'abilityGapHigh',
      'abilityGapFlag',
      'rair',
      'rairNumerator',
      'rairDenominator',
      'rsr',
      'rsrNumerator',
      'rsrDenominator',
      'errorAdoption',
      'errorAdoptionNumerator',
      'errorAdoptionDenominator',
      // The collaboration profile's levels (insights): framing, verification, integration, independence.
      'framing',
      'verification',
      'integration',
      'independence',
    ]);
    const marks = Object.fromEntries(
      rows.map((r) => [r[0], { studentId: r[1], marks: r.slice(5, 8), score: r.slice(8, 12) }]),
    );
    expect(rows).toHaveLength(3);
    expect(marks).toEqual({
      [ADA.name]: { studentId: ADA.studentId, marks: ['1', '1', '1'], score: ['3', '3', '100', 'graded'] },
      [BOB.name]: { studentId: BOB.studentId, marks: ['0', '1', '1'], score: ['2', '3', '66.7', 'graded'] },
      [CY.name]: { studentId: CY.studentId, marks: ['0', '0', '0'], score: ['0', '3', '0', 'graded'] },
    });
    for (const row of rows) {
      expect(Date.parse(row[3] ?? '')).toBeGreaterThanOrEqual(Date.parse(row[2] ?? ''));
      expect(Number(row[4])).toBeGreaterThanOrEqual(0);
    }
  });

  await test.step('selects every candidate on the submissions list and releases their results in one action', async () => {
    await page.goto(submissionsUrl);
    await expect(page.getByTestId('submission-row')).toHaveCount(3);
    await expect(page.getByRole('region', { name: 'Actions on the chosen candidates' })).toHaveCount(0);
    await page.getByRole('checkbox', { name: 'Select every candidate shown' }).check();
    const bar = page.getByRole('region', { name: 'Actions on the chosen candidates' });
    await expect(bar).toContainText('3 candidates selected');
    // One unticked: the header box reads mixed, and the count follows.
    await page.getByRole('checkbox', { name: `Select ${CY.name}` }).uncheck();
    await expect(bar).toContainText('2 candidates selected');
    await page.getByRole('checkbox', { name: `Select ${CY.name}` }).check();
    await bar.getByRole('button', { name: 'Release results' }).click();
    const dialog = page.getByRole('alertdialog');
    await expect(dialog).toContainText('Release the results of 3 candidates?');
    await expectAccessible(page, 'bulk release confirmation');
    await dialog.getByRole('button', { name: 'Release results' }).click();
    await expect(page.getByText('Released 3 results')).toBeVisible();
    for (const [name, text] of [
      [ADA.name, '3 / 3 points · 100%'],
      [BOB.name, '2 / 3 points · 66.7%'],
      [CY.name, '0 / 3 points · 0%'],
    ] as const)
      await expectScore(rowOf(page, 'submission-row', name), text, 'Released');
    const released = await listResults(request, creator.token);
    expect(released.map((r) => r.status)).toEqual(['released', 'released', 'released']);
    // Each release is the creator's, in each result's history, as one released alone.
    const bob = released.find((r) => r.userName === BOB.name);
    const detail = await getResult(request, creator.token, bob?.id ?? '');
    expect(detail.history.at(-1)).toMatchObject({ kind: 'release', by: creator.user.email });
  });
});
