import type { Exam } from '@exam/domain/exam';
import type { Question } from '@exam/domain/question';
import type { Page } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { getExam, registerCreator } from './support/api.ts';
import { expect, test } from './support/fixtures.ts';
import { expectToast, signInCreator, tableRow } from './support/ui.ts';
import { storedZip } from './support/zip.ts';

/** The interchange package's own QTI fixtures (written for this project from the QTI 3.0 specification). */
const FIXTURES = new URL('../../../packages/interchange/src/fixtures/qti/question-kinds/', import.meta.url);

const resource = (identifier: string, href: string, type: string, dependency?: string) =>
  `<resource identifier="${identifier}" type="${type}" href="${href}"><file href="${href}"/>${
    dependency ? `<dependency identifierref="${dependency}"/>` : ''
  }</resource>`;

/**
 * A calculated item written for this journey from the QTI 3.0 specification (template processing): a whole and a
 * one-decimal variable, the key rounded to one place, 2 points, and an absolute tolerance of 0.1 in the response
 * processing's qti-equal.
 */
const PERIMETER = `<?xml version="1.0" encoding="UTF-8"?>
<qti-assessment-item xmlns="http://www.imsglobal.org/xsd/imsqtiasi_v3p0" identifier="perimeter1"
  title="Fence length" adaptive="false" time-dependent="false">
  <qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="float"/>
  <qti-outcome-declaration identifier="SCORE" cardinality="single" base-type="float"/>
  <qti-outcome-declaration identifier="MAXSCORE" cardinality="single" base-type="float">
    <qti-default-value><qti-value>2</qti-value></qti-default-value>
  </qti-outcome-declaration>
  <qti-template-declaration identifier="W" cardinality="single" base-type="integer" math-variable="true"/>
  <qti-template-declaration identifier="L" cardinality="single" base-type="float" math-variable="true"/>
  <qti-template-processing>
    <qti-set-template-value identifier="W"><qti-random-integer min="3" max="12"/></qti-set-template-value>
    <qti-set-template-value identifier="L">
      <qti-divide><qti-random-integer min="15" max="45"/><qti-base-value base-type="float">10</qti-base-value></qti-divide>
    </qti-set-template-value>
    <qti-set-correct-response identifier="RESPONSE">
      <qti-round-to rounding-mode="decimalPlaces" figures="1">
        <qti-product>
          <qti-base-value base-type="float">2</qti-base-value>
          <qti-sum><qti-variable identifier="W"/><qti-variable identifier="L"/></qti-sum>
        </qti-product>
      </qti-round-to>
    </qti-set-correct-response>
  </qti-template-processing>
  <qti-item-body>
    <p>A garden is <qti-printed-variable identifier="W" format="%.0f"/> m wide and
      <qti-printed-variable identifier="L" format="%.1f"/> m long. How many metres of fence go round it?</p>
    <p><qti-text-entry-interaction response-identifier="RESPONSE" base-type="float"/></p>
  </qti-item-body>
  <qti-response-processing>
    <qti-response-condition>
      <qti-response-if>
        <qti-equal tolerance-mode="absolute" tolerance="0.1">
          <qti-variable identifier="RESPONSE"/><qti-correct identifier="RESPONSE"/>
        </qti-equal>
        <qti-set-outcome-value identifier="SCORE"><qti-base-value base-type="float">2</qti-base-value></qti-set-outcome-value>
      </qti-response-if>
    </qti-response-condition>
  </qti-response-processing>
</qti-assessment-item>`;

/**
 * A QTI 3.0 content package: the project's fixtures of an item on a shared passage (its stimulus beside it) and
 * of a template item, and the calculated item above.
 */
async function waterCyclePackage(): Promise<Buffer> {
  const fixture = (name: string) => readFile(new URL(name, FIXTURES), 'utf8');
  const manifest = `<?xml version="1.0" encoding="UTF-8"?>
<manifest xmlns="http://www.imsglobal.org/xsd/qti/qtiv3p0/imscp_v1p1" identifier="water-cycle-package">
  <metadata><schema>QTI Package</schema><schemaversion>3.0.0</schemaversion></metadata>
  <organizations/>
  <resources>
    ${resource('stimulusref1', 'stimulus-ref.xml', 'imsqti_item_xmlv3p0', 'passage1')}
    ${resource('template1', 'template.xml', 'imsqti_item_xmlv3p0')}
    ${resource('perimeter1', 'perimeter.xml', 'imsqti_item_xmlv3p0')}
    ${resource('passage1', 'stimulus.xml', 'imsqti_stimulus_xmlv3p0')}
  </resources>
</manifest>`;
  return storedZip({
    'imsmanifest.xml': manifest,
    'stimulus-ref.xml': await fixture('stimulus-ref.xml'),
    'template.xml': await fixture('template.xml'),
    'perimeter.xml': PERIMETER,
    'stimulus.xml': await fixture('stimulus.xml'),
  });
}

/** Imports a file through the dashboard's dialog, checking its preview; the new draft exam's id. */
async function importThroughDialog(page: Page, file: { name: string; buffer: Buffer }): Promise<string> {
  await page.goto('/creator/dashboard');
  await page.getByRole('button', { name: 'Import questions', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Import questions' });
  await dialog.getByLabel('File to import').setInputFiles({ ...file, mimeType: 'application/zip' });
  await expect(dialog.getByRole('radio', { name: 'QTI 3.0 package (.zip)' })).toBeChecked();
  await dialog.getByRole('button', { name: 'Preview' }).click();
  const toImport = dialog.getByRole('region', { name: 'Questions to import' });
  await expect(toImport).toContainText('3 questions will be imported');
  await expect(toImport).toContainText('Item on the passage (multiple choice) on the passage “The water cycle”');
  await expect(toImport).toContainText('Calculated area (calculated)');
  await expect(toImport).toContainText('Fence length (calculated)');
  await expect(dialog.getByRole('region', { name: 'Shared passages' })).toHaveText('1 passage: The water cycle');
  await expect(dialog.getByRole('region', { name: 'Questions that cannot be imported' })).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Import 3 questions' }).click();
  await expectToast(page, '3 questions imported');
  await expect(page).toHaveURL(/\/creator\/edit-exam\/[^/?]+\?type=draft$/);
  return decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');
}

/** A question as the exam keeps it, its passage by content rather than by id (ids are the exam's own). */
function comparable(exam: Exam) {
  const passages = new Map((exam.passages ?? []).map((p) => [p.id, { title: p.title, content: p.content }]));
  return exam.questions.map(({ id: _id, passageId, ...q }: Question) => ({
    ...q,
    passage: passageId ? passages.get(passageId) : null,
  }));
}

test('a QTI package with a shared passage and a calculated item imports, exports as QTI and imports again unchanged', async ({
  page,
  request,
}) => {
  const creator = await registerCreator(request, 'qti-roundtrip');
  await signInCreator(page, creator);

  const firstId = await test.step('the creator imports the package through the import dialog', async () =>
    importThroughDialog(page, { name: 'water-cycle.zip', buffer: await waterCyclePackage() }));
  const first = await getExam(request, creator.token, firstId);

  await test.step('the imported questions are the package’s: the passage, the choice key, the formula', async () => {
    expect(first.passages).toEqual([expect.objectContaining({ title: 'The water cycle' })]);
    expect(first.passages?.[0]?.content).toContain('Water evaporates from the sea');
    const [onPassage, calculated, fence] = first.questions;
    expect(first.questions.map((q) => q.type)).toEqual(['mcq', 'calculated', 'calculated']);
    expect(onPassage).toMatchObject({
      title: 'Item on the passage',
      options: ['Evaporating rivers', 'Condensing water vapour'],
      correctAnswer: 'Condensing water vapour',
      passageId: first.passages?.[0]?.id,
    });
    expect(onPassage?.content).toContain('According to the passage, what forms clouds?');
    expect(calculated?.calculated).toMatchObject({
      formula: 'W * H',
      variables: [
        { name: 'W', min: 2, max: 9, decimals: 0 },
        { name: 'H', min: 2, max: 9, decimals: 0 },
      ],
    });
    expect(calculated?.content).toContain('{W} cm wide and {H} cm high');
    expect(fence).toMatchObject({
      title: 'Fence length',
      points: 2,
      matching: { numeric: { tolerance: 0.1, mode: 'absolute' } },
      calculated: {
        formula: '2 * (W + L)',
        variables: [
          { name: 'W', min: 3, max: 12, decimals: 0 },
          { name: 'L', min: 1.5, max: 4.5, decimals: 1 },
        ],
        answerDecimals: 1,
      },
    });
    expect(fence?.content).toContain('{W} m wide and {L} m long');
  });

  const exported =
    await test.step('the creator exports the draft as QTI and gets the package as a download', async () => {
      await page.goto('/creator/dashboard');
      await tableRow(page, 'Draft Exams', first.title).getByRole('button', { name: 'More actions' }).click();
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('menuitem', { name: 'Export QTI' }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/\.qti\.zip$/);
      const buffer = await readFile(await download.path());
      expect(buffer.subarray(0, 2).toString('latin1')).toBe('PK');
      return { name: download.suggestedFilename(), buffer };
    });

  const secondId = await test.step('the exported package imports again through the dialog', async () =>
    importThroughDialog(page, exported));
  expect(secondId).not.toBe(firstId);
  const second = await getExam(request, creator.token, secondId);

  await test.step('the questions and the passage are unchanged between the two imports', async () => {
    expect(second.passages?.map(({ title, content }) => ({ title, content }))).toEqual(
      first.passages?.map(({ title, content }) => ({ title, content })),
    );
    expect(comparable(second)).toEqual(comparable(first));
    const fence = second.questions[2];
    expect(fence).toMatchObject({
      type: 'calculated',
      points: 2,
      matching: { numeric: { tolerance: 0.1, mode: 'absolute' } },
      calculated: { formula: '2 * (W + L)', answerDecimals: 1 },
    });
    expect(second.questions[0]?.correctAnswer).toBe('Condensing water vapour');
  });
});
