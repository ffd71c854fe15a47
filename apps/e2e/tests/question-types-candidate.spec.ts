import { encodeBlanks, encodeMatches, encodeOrder } from '@exam/domain/question-kinds';
import type { Locator, Page } from '@playwright/test';
import { expectAccessible } from './support/a11y.ts';
import { expect, test } from './support/fixtures.ts';
import { getAttempt, getResult, listResults, publishExam, question, registerCreator } from './support/api.ts';
import { enterExam, storedAttempt, submitExam } from './support/taker.ts';

const CANDIDATE = { name: 'Kay Board', studentId: 'KB-7' };
const PLANETS = ['Mercury', 'Venus', 'Earth', 'Mars'];
/** The candidate's order: Mercury before Venus kept, the rest swapped (1 of 3 neighbouring pairs). */
const ARRANGED = ['Mercury', 'Venus', 'Mars', 'Earth'];

/** Presses Tab until `target` has the focus; fails when it is not reached within `max` presses. */
async function tabTo(page: Page, target: Locator, max = 80): Promise<void> {
  for (let presses = 0; presses < max; presses++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  await expect(target, `reached with ${max} presses of Tab`).toBeFocused();
}

/** The ordering question's items as the page lists them now. */
async function shownOrder(list: Locator): Promise<string[]> {
  const labels = await list
    .getByRole('combobox')
    .evaluateAll((selects) => selects.map((s) => s.getAttribute('aria-label') ?? ''));
  return labels.map((label) => label.replace(/^Position of /, ''));
}

/**
 * docs/product.md#question-types: a candidate answers every further type with the keyboard alone (Tab to reach a
 * control; typing, Space, Enter and a select's type-ahead to answer), beside a shared passage, and the creator's
 * result scores them with partial credit where the type has it.
 *
 *   Q1 essay 3 (formatted)        → pending (a grader marks it)
 *   Q2 true/false 1 (passage)     true → 1
 *   Q3 ordering 3 partial (passage) Mercury Venus Mars Earth → 1 of 3 pairs → 1
 *   Q4 matching 3 partial         2 of 3 pairs → 2
 *   Q5 fill-in-the-blanks 3 partial 2 of 3 gaps → 2
 *   Q6 numeric 2 (m, cm)          150 cm for 1.5 m → 2
 *   Q7 calculated 2               a + b from the values on the page → 2
 */
test('a candidate answers each further question type by keyboard alone beside a passage, and scores come out with partial credit', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const creator = await registerCreator(request, 'kinds');
  const exam = await publishExam(request, creator.token, {
    title: 'Question Types Journey',
    passages: [
      {
        id: 'solar',
        title: 'The Solar System',
        content:
          'The inner planets, nearest the Sun first:\n\n| planet | moons |\n| --- | --- |\n| Mercury | 0 |\n| Venus | 0 |\n| Earth | 1 |\n| Mars | 2 |',
      },
    ],
    questions: [
      question.essay(
        'Describe sunlight reaching the Earth',
        { minWords: 3, maxWords: 50, formatted: true },
        'Physics',
        {
          points: 3,
        },
      ),
      question.trueFalse('The Sun is a star', 'true', 'Astronomy', { passageId: 'solar' }),
      question.ordering('Order the planets from the Sun', PLANETS, 'Astronomy', {
        points: 3,
        scoring: 'partial',
        passageId: 'solar',
      }),
      question.matching(
        'Match each country with its capital',
        [
          { prompt: 'France', answer: 'Paris' },
          { prompt: 'Spain', answer: 'Madrid' },
          { prompt: 'Italy', answer: 'Rome' },
        ],
        ['Berlin'],
        'Geography',
        { points: 3, scoring: 'partial' },
      ),
      question.fillBlanks(
        'Complete the sentence about water',
        'Water boils at [[1]] °C, ice is [[2]] water, and its formula is [[3]].',
        [
          { kind: 'numeric', accepted: ['100'] },
          { kind: 'choice', options: ['frozen', 'boiling'], accepted: ['frozen'] },
          { accepted: ['H2O'] },
        ],
        'Chemistry',
        { points: 3, scoring: 'partial' },
      ),
      question.numeric(
        'How long is a 1.5 m rod?',
        '1.5',
        [
          { symbol: 'm', multiplier: 1 },
          { symbol: 'cm', multiplier: 100 },
        ],
        'Physics',
        { points: 2 },
      ),
      question.calculated(
        'Add {a} and {b}',
        'a + b',
        [
          { name: 'a', min: 2, max: 9 },
          { name: 'b', min: 10, max: 20 },
        ],
        'Arithmetic',
        { points: 2 },
      ),
    ],
  });

  await enterExam(page, exam.id, CANDIDATE);
  const card = (index: number) => page.getByTestId(`question-${index}`);

  await test.step('the passage is shown once beside the two questions that share it', async () => {
    const passage = page.getByRole('complementary', { name: 'Passage: The Solar System' });
    await expect(passage).toHaveCount(1);
    await expect(passage.getByText('For Q2–Q3')).toBeVisible();
    await expect(passage.getByRole('cell', { name: 'Mars' })).toBeVisible();
    const group = page.getByTestId('passage-group');
    await expect(group.getByTestId('question-1')).toBeVisible();
    await expect(group.getByTestId('question-2')).toBeVisible();
    await expect(group.getByTestId('question-3')).toHaveCount(0);
    await expect(card(0).getByRole('toolbar', { name: 'Formatting for Q1' })).toBeVisible();
    await expectAccessible(page, 'exam room with every further question type and a passage');
  });

  await test.step('writes the essay, bold by Ctrl+B, and watches the word count', async () => {
    const essay = card(0).getByRole('textbox', { name: 'Answer for Q1' });
    await tabTo(page, essay);
    await page.keyboard.type('The Sun ');
    await page.keyboard.press('Control+b');
    await page.keyboard.type('shines');
    await page.keyboard.press('End');
    await page.keyboard.type(' on us');
    await expect(essay).toHaveValue('The Sun **shines** on us');
    await expect(page.getByTestId('word-count-0')).toHaveText('5 words (at least 3, at most 50)');
  });

  await test.step('answers true/false with Space', async () => {
    const yes = card(1).getByRole('radio', { name: 'True' });
    await tabTo(page, yes);
    await page.keyboard.press('Space');
    await expect(yes).toBeChecked();
  });

  await test.step('arranges the planets with Move up and Enter, the focus following each item', async () => {
    const list = card(2).getByRole('list', { name: 'Items of Q3 in your order' });
    expect(await shownOrder(list)).not.toEqual(PLANETS);
    for (const [target, item] of ARRANGED.entries()) {
      const at = (await shownOrder(list)).indexOf(item);
      if (at === target) continue;
      const up = card(2).getByRole('button', { name: `Move up: ${item}` });
      await tabTo(page, up);
      for (let press = at; press > target; press--) {
        await page.keyboard.press('Enter');
        await expect(card(2).getByTestId('ordering-status-2')).toHaveText(
          `Item “${item}” moved to position ${press} of 4.`,
        );
      }
      // At the top the focus has moved to the item's Move down; anywhere else it stays on its Move up.
      await expect(
        card(2).getByRole('button', { name: `${target === 0 ? 'Move down' : 'Move up'}: ${item}` }),
      ).toBeFocused();
    }
    expect(await shownOrder(list)).toEqual(ARRANGED);
    // Already in the wanted order from the start would need Keep this order; pressing it is harmless either way.
    const keep = card(2).getByRole('button', { name: 'Keep this order' });
    await tabTo(page, keep);
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('question-status-2')).toHaveText('Answered');
  });

  await test.step('matches two capitals right and one wrong with the selects’ type-ahead', async () => {
    for (const [prompt, choice] of [
      ['France', 'Paris'],
      ['Spain', 'Madrid'],
      ['Italy', 'Berlin'],
    ] as const) {
      const select = card(3).getByRole('combobox', { name: prompt });
      await tabTo(page, select);
      await page.keyboard.type(choice);
      await expect(select).toHaveValue(choice);
    }
  });

  await test.step('fills two gaps right and one wrong', async () => {
    await tabTo(page, card(4).getByRole('textbox', { name: 'Gap 1' }));
    await page.keyboard.type('100');
    await page.keyboard.press('Tab');
    await expect(card(4).getByRole('combobox', { name: 'Gap 2' })).toBeFocused();
    await page.keyboard.type('frozen');
    await expect(card(4).getByRole('combobox', { name: 'Gap 2' })).toHaveValue('frozen');
    await page.keyboard.press('Tab');
    await expect(card(4).getByRole('textbox', { name: 'Gap 3' })).toBeFocused();
    await page.keyboard.type('CO2');
  });

  await test.step('gives the rod’s length in centimetres', async () => {
    await tabTo(page, card(5).getByRole('textbox', { name: 'Answer for Q6' }));
    await page.keyboard.type('150');
    await page.keyboard.press('Tab');
    const unit = card(5).getByRole('combobox', { name: 'Unit for Q6' });
    await expect(unit).toBeFocused();
    await page.keyboard.type('cm');
    await expect(unit).toHaveValue('cm');
  });

  let sum = 0;
  await test.step('reads its own values of the calculated question and types the sum', async () => {
    // The values are drawn per attempt on the server and written into the title.
    const title = (await card(6).getByRole('heading').textContent()) ?? '';
    const values = /Add (\d+) and (\d+)/.exec(title);
    expect(values, `the title shows this attempt's values: "${title}"`).not.toBeNull();
    const [a, b] = [Number(values![1]), Number(values![2])];
    expect(a).toBeGreaterThanOrEqual(2);
    expect(a).toBeLessThanOrEqual(9);
    expect(b).toBeGreaterThanOrEqual(10);
    expect(b).toBeLessThanOrEqual(20);
    sum = a + b;
    await tabTo(page, card(6).getByRole('textbox', { name: 'Answer for Q7' }));
    await page.keyboard.type(String(sum));
  });

  await test.step('every answer reaches the server as its type encodes it, and the candidate submits', async () => {
    await expect(page.getByTestId('answered-count')).toHaveText('Answered: 7/7');
    const attempt = await storedAttempt(page, exam.id);
    await expect
      .poll(async () => {
        const answers = (await getAttempt(request, attempt.token, attempt.attemptId)).answers;
        return Object.fromEntries(Object.entries(answers).map(([i, a]) => [i, a.answer]));
      })
      .toEqual({
        '0': 'The Sun **shines** on us',
        '1': 'true',
        '2': encodeOrder(ARRANGED),
        '3': encodeMatches(['Paris', 'Madrid', 'Berlin']),
        '4': encodeBlanks(['100', 'frozen', 'CO2']),
        '5': '150 cm',
        '6': String(sum),
      });
    await submitExam(page, { answered: 7, total: 7 });
    await expect(page.getByRole('heading', { name: 'Exam Completed' })).toBeVisible();
  });

  await test.step('the creator’s result scores each question, with partial credit', async () => {
    const summary = (await listResults(request, creator.token)).find((r) => r.examId === exam.id);
    expect(summary).toBeDefined();
    const result = await getResult(request, creator.token, summary!.id);
    const points = result.questionAnswers.map((q) => [q.questionType, q.points, q.maxPoints]);
    expect(points).toEqual([
      ['essay', null, 3],
      ['true-false', 1, 1],
      ['ordering', 1, 3],
      ['matching', 2, 3],
      ['fill-blanks', 2, 3],
      ['numeric', 2, 2],
      ['calculated', 2, 2],
    ]);
    expect(result.status).toBe('pending');
    expect(result.score).toBe(10);
    expect(result.maxScore).toBe(17);
  });
});
