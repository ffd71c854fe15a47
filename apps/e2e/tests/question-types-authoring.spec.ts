import type { Page } from '@playwright/test';
import { expectAccessible } from './support/a11y.ts';
import { expect, test } from './support/fixtures.ts';
import { getExam, listExams, PASSWORD, registerCreator } from './support/api.ts';
import { creatorTokenOf, expectToast, tableRow } from './support/ui.ts';

async function signIn(page: Page, email: string): Promise<void> {
  await page.goto('/creator/auth');
  await page.getByLabel('Email Address').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL(/\/creator\/dashboard$/);
}

/** Picks a type in "More question types" and adds a question of it. */
async function addQuestion(page: Page, typeName: string): Promise<void> {
  await page.getByRole('combobox', { name: 'More question types' }).click();
  await page.getByRole('option', { name: typeName, exact: true }).click();
  await page.getByRole('button', { name: 'Add question', exact: true }).click();
}

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });

test('a creator authors a question of each further type and a passage, saves, reopens and publishes', async ({
  page,
  request,
}) => {
  const creator = await registerCreator(request, 'kinds');
  await signIn(page, creator.user.email);

  await test.step('authors a passage and one question of each further type', async () => {
    await page.getByRole('link', { name: 'Create New Exam' }).click();
    await field(page, 'Exam Title').fill('Every kind');
    await page.getByRole('button', { name: 'Add passage' }).click();
    await field(page, 'Passage 1 title').fill('The water cycle');
    await field(page, 'Passage 1 content').fill('Water **evaporates**, condenses and falls as rain.');

    await addQuestion(page, 'Essay');
    await field(page, 'Question 1 title').fill('Explain the cycle');
    await field(page, 'Question 1 maximum words').fill('250');
    await page.getByRole('combobox', { name: 'Question 1 passage' }).click();
    await page.getByRole('option', { name: 'The water cycle' }).click();

    await addQuestion(page, 'True/false');
    await field(page, 'Question 2 content').fill('Rain is condensed water.');
    await page.getByRole('radiogroup', { name: 'Question 2: the statement is' }).getByLabel('True').check();

    await addQuestion(page, 'Ordering');
    await field(page, 'Question 3 item 1').fill('Evaporation');
    await field(page, 'Question 3 item 2').fill('Precipitation');
    await page.getByRole('button', { name: 'Question 3 add item' }).click();
    await field(page, 'Question 3 item 3').fill('Condensation');
    await page.getByRole('button', { name: 'Move item 3 of question 3 up' }).click();

    await addQuestion(page, 'Matching');
    await field(page, 'Question 4 prompt 1').fill('France');
    await field(page, 'Question 4 answer 1').fill('Paris');
    await field(page, 'Question 4 prompt 2').fill('Italy');
    await field(page, 'Question 4 answer 2').fill('Rome');

    await addQuestion(page, 'Fill in the blanks');
    await field(page, 'Question 5 text with gaps').fill('Water boils at ');
    await page.getByRole('button', { name: 'Question 5 insert gap' }).click();
    await field(page, 'Question 5 gap 1 accepted answer 1').fill('100');

    await addQuestion(page, 'Numeric');
    await field(page, 'Question 6 right value 1').fill('3.14');
    await field(page, 'Question 6 tolerance').fill('0.01');
    await expect(page.getByText('Accepted: 3.14 ± 0.01')).toBeVisible();

    await addQuestion(page, 'Calculated');
    await field(page, 'Question 7 title').fill('Double {x}');
    await field(page, 'Question 7 formula').fill('2 * x');
    await expect(page.getByRole('region', { name: 'Question 7 sample values' })).toContainText('→ key');
    await expectAccessible(page, 'exam editor with every further type');

    await page.getByRole('button', { name: 'Save as Draft' }).click();
    await expectToast(page, 'Exam saved as draft');
    await expect(page).toHaveURL(/\/creator\/dashboard$/);
  });

  await test.step('reopens the draft and finds every question as written', async () => {
    await tableRow(page, 'Draft Exams', 'Every kind').getByRole('link', { name: 'Edit' }).click();
    await expect(field(page, 'Passage 1 title')).toHaveValue('The water cycle');
    await expect(page.getByRole('combobox', { name: 'Question 1 passage' })).toHaveText('The water cycle');
    await expect(field(page, 'Question 1 maximum words')).toHaveValue('250');
    await expect(
      page.getByRole('radiogroup', { name: 'Question 2: the statement is' }).getByLabel('True'),
    ).toBeChecked();
    await expect(field(page, 'Question 3 item 2')).toHaveValue('Condensation');
    await expect(field(page, 'Question 4 answer 2')).toHaveValue('Rome');
    await expect(field(page, 'Question 5 text with gaps')).toHaveValue('Water boils at [[1]]');
    await expect(field(page, 'Question 6 right value 1')).toHaveValue('3.14');
    await expect(field(page, 'Question 7 formula')).toHaveValue('2 * x');
  });

  await test.step('publishes it, and the service holds each type as authored', async () => {
    await page.getByRole('button', { name: 'Publish Exam' }).click();
    await expect(page.getByRole('heading', { name: 'Exam Published!' })).toBeVisible();
    const token = await creatorTokenOf(page);
    const [exam] = await listExams(request, token);
    const saved = await getExam(request, token, exam?.id ?? '');
    expect(saved.isDraft).toBe(false);
    expect(saved.passages).toEqual([
      expect.objectContaining({
        title: 'The water cycle',
        content: 'Water **evaporates**, condenses and falls as rain.',
      }),
    ]);
    const [essay, trueFalse, ordering, matching, gaps, numeric, calculated] = saved.questions;
    expect(essay).toMatchObject({ type: 'essay', passageId: saved.passages[0]?.id, essay: { maxWords: 250 } });
    expect(trueFalse).toMatchObject({ type: 'true-false', correctAnswer: 'true' });
    expect(ordering).toMatchObject({ type: 'ordering', items: ['Evaporation', 'Condensation', 'Precipitation'] });
    expect(matching).toMatchObject({
      type: 'matching',
      pairs: [
        { prompt: 'France', answer: 'Paris' },
        { prompt: 'Italy', answer: 'Rome' },
      ],
    });
    expect(gaps).toMatchObject({
      type: 'fill-blanks',
      gapText: 'Water boils at [[1]]',
      blanks: [{ accepted: ['100'] }],
    });
    expect(numeric).toMatchObject({
      type: 'numeric',
      acceptedAnswers: ['3.14'],
      matching: { numeric: { tolerance: 0.01 } },
    });
    expect(calculated).toMatchObject({ type: 'calculated', calculated: { formula: '2 * x', values: null } });
  });
});
