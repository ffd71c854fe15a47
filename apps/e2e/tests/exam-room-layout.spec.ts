import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AiSettingsInputSchema } from '@exam/domain/exam-ai';
import type { Locator, Page, TestInfo } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import { publishExam, question, registerCreator, type ExamBody } from './support/api.ts';
import { enterExam } from './support/taker.ts';
import { ENGINE_ERROR_VARIABLE } from './support/workspace-engine.ts';

/**
 * The exam room at the two sizes candidates' laptops have, for every combination of panels an exam can
 * enable: only what is enabled is on screen, three columns at 1366 px, tabs at 1024 px, nothing clipped,
 * an assistant composer wide enough to type in. Each view is attached to the report as a screenshot
 * (and written to E2E_SCREENSHOT_DIR when set, to look at them outside the report).
 */
type Combination = { name: string; workspace: boolean; assistant: boolean };
const COMBINATIONS: Combination[] = [
  { name: 'questions', workspace: false, assistant: false },
  { name: 'questions+assistant', workspace: false, assistant: true },
  { name: 'questions+workspace', workspace: true, assistant: false },
  { name: 'questions+workspace+assistant', workspace: true, assistant: true },
];
const VIEWPORTS = [
  { width: 1366, height: 768, layout: 'columns' },
  { width: 1024, height: 768, layout: 'tabs' },
] as const;
const PANEL_NAMES = { questions: 'Questions', workspace: 'Workspace', assistant: 'Assistant' } as const;
type PanelKey = keyof typeof PANEL_NAMES;
const MIN_COMPOSER_WIDTH_PX = 160;

const LONG_TITLE =
  'Explain why the following function returns the wrong total for an empty list, and propose a fix that keeps its signature';
const CODE_CONTENT = [
  'Read the function below.',
  '',
  '```python',
  'def total(values):',
  '    result = values[0]',
  '    for value in values[1:]:',
  '        result += value',
  '    return result',
  '```',
].join('\n');

function examBody(combination: Combination): ExamBody {
  return {
    title: `Layout ${combination.name}`,
    description: 'Answer every question. Your answers are saved as you type.',
    codingWorkspace: {
      enabled: combination.workspace,
      saveFilesInResults: true,
      workspaceType: 'vscode',
      allowPackageRegistries: false,
    },
    aiSettings: AiSettingsInputSchema.parse({
      enabled: combination.assistant,
      provider: 'openai',
      model: 'gpt-4o-mini',
    }),
    questions: [
      question.shortAnswer(LONG_TITLE, [], 'General', { content: CODE_CONTENT }),
      question.mcq('Which data structure gives constant-time lookup by key?', ['A list', 'A hash map', 'A tree'], ''),
      question.coding('Reverse a string', 'python'),
    ],
  };
}

async function attachScreenshot(page: Page, testInfo: TestInfo, name: string) {
  const body = await page.screenshot();
  await testInfo.attach(name, { body, contentType: 'image/png' });
  const dir = process.env.E2E_SCREENSHOT_DIR;
  if (dir) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${name}.png`), body);
  }
}

/** The element's content fits its box: nothing is cut off or needs a sideways scroll. */
async function expectNotClippedHorizontally(locator: Locator, what: string) {
  const { scrollWidth, clientWidth } = await locator.evaluate((element) => ({
    scrollWidth: element.scrollWidth,
    clientWidth: element.clientWidth,
  }));
  expect(scrollWidth, `${what}: content ${scrollWidth} px wide in a box of ${clientWidth} px`).toBeLessThanOrEqual(
    clientWidth,
  );
}

async function checkQuestions(page: Page) {
  const panel = page.getByTestId('questions-panel');
  await expect(panel).toBeVisible();
  await expect(page.getByText(LONG_TITLE)).toBeVisible();
  await expectNotClippedHorizontally(panel, 'the questions panel');
  await expectNotClippedHorizontally(page.getByText(LONG_TITLE), 'the first question title');
  const box = await panel.boundingBox();
  expect(box?.width ?? 0, 'the questions panel width').toBeGreaterThanOrEqual(300);
}

async function checkAssistant(page: Page) {
  const composer = page.getByRole('textbox', { name: 'Message the AI assistant' });
  await expect(composer).toBeVisible();
  await expect(composer).toBeEnabled({ timeout: 30_000 });
  await expect(composer).toHaveAttribute('placeholder', 'Ask the assistant…');
  const box = await composer.boundingBox();
  expect(box?.width ?? 0, 'the composer input width').toBeGreaterThanOrEqual(MIN_COMPOSER_WIDTH_PX);
  // One line tall: the placeholder does not wrap.
  expect(box?.height ?? 0, 'the composer input height').toBeLessThan(60);
  await expect(page.getByText('Enter to send · Shift+Enter for a new line')).toBeVisible();
  await expectNotClippedHorizontally(page.getByTestId('assistant-panel'), 'the assistant panel');
}

async function checkWorkspace(page: Page) {
  const panel = page.getByTestId('workspace-panel');
  await expect(panel).toBeVisible();
  const box = await panel.boundingBox();
  expect(box?.width ?? 0, 'the workspace panel width').toBeGreaterThanOrEqual(400);
  // The container may take a while on a busy machine: the panel is what this journey judges, the editor
  // inside it is workspace.spec.ts's. A connected editor makes a better picture, so it gets some time.
  await expect(panel)
    .toHaveAttribute('data-state', 'connected', { timeout: 45_000 })
    .catch(() => undefined);
  await expect(panel).not.toHaveAttribute('data-state', 'failed');
}

/** Minimized, the assistant keeps a thin rail and the other panels take its width; the rail opens it again. */
async function checkAssistantRail(page: Page, testInfo: TestInfo, name: string) {
  const others = page.locator('[data-testid="panel-questions"], [data-testid="panel-workspace"]');
  const othersWidth = async () => {
    let sum = 0;
    for (const panel of await others.all()) sum += (await panel.boundingBox())?.width ?? 0;
    return sum;
  };
  const before = await othersWidth();
  await page.getByRole('button', { name: 'Minimize assistant' }).click();
  const rail = page.getByTestId('panel-assistant');
  await expect(page.getByRole('textbox', { name: 'Message the AI assistant' })).toBeHidden();
  await expect.poll(async () => (await rail.boundingBox())?.width ?? 0).toBeLessThanOrEqual(48);
  // The group hands the column's share to its neighbour; together the other panels gain all but the rail.
  expect(await othersWidth(), 'the other panels take the space back').toBeGreaterThan(before + 150);
  await attachScreenshot(page, testInfo, `${name}-assistant-minimized`);
  await page.getByRole('button', { name: 'Open the assistant' }).click();
  await expect(page.getByRole('textbox', { name: 'Message the AI assistant' })).toBeVisible();
}

const CHECKS: Record<PanelKey, (page: Page) => Promise<void>> = {
  questions: checkQuestions,
  workspace: checkWorkspace,
  assistant: checkAssistant,
};

for (const viewport of VIEWPORTS) {
  test.describe(`the exam room at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    for (const combination of COMBINATIONS) {
      test(`shows ${combination.name} (${viewport.layout})`, async ({ page, request }, testInfo) => {
        if (combination.workspace) {
          const engineError = process.env[ENGINE_ERROR_VARIABLE];
          expect(engineError, `No Docker engine for the workspace panel: ${engineError ?? ''}`).toBeUndefined();
        }
        const creator = await registerCreator(request, `layout-${combination.name}`);
        const exam = await publishExam(request, creator.token, examBody(combination));
        await enterExam(page, exam.id, { name: 'Grace Hopper', studentId: `L-${viewport.width}` });

        const enabled: PanelKey[] = [
          'questions',
          ...(combination.workspace ? (['workspace'] as const) : []),
          ...(combination.assistant ? (['assistant'] as const) : []),
        ];
        const disabled = (Object.keys(PANEL_NAMES) as PanelKey[]).filter((key) => !enabled.includes(key));
        const room = page.getByTestId('exam-panels');
        await expect(room).toHaveAttribute('data-layout', viewport.layout);

        // Only what the exam enables has a panel; toggles only beside other columns (tabs choose under 1100 px).
        const toggles = page.getByRole('group', { name: 'Panels' });
        if (viewport.layout === 'columns' && enabled.length > 1)
          await expect(toggles.getByRole('button')).toHaveText(enabled.map((key) => PANEL_NAMES[key]));
        else await expect(toggles).toHaveCount(0);
        for (const key of disabled) await expect(page.getByTestId(`panel-${key}`)).toHaveCount(0);

        if (viewport.layout === 'columns' || enabled.length === 1) {
          await expect(page.getByRole('tablist')).toHaveCount(0);
          for (const key of enabled) await expect(page.getByTestId(`panel-${key}`)).toBeVisible();
          for (const key of enabled) await CHECKS[key](page);
          await attachScreenshot(page, testInfo, `${combination.name}-${viewport.width}`);
          if (combination.assistant) await checkAssistantRail(page, testInfo, `${combination.name}-${viewport.width}`);
          return;
        }

        const tablist = page.getByRole('tablist', { name: 'Exam panels' });
        await expect(tablist.getByRole('tab')).toHaveText(enabled.map((key) => PANEL_NAMES[key]));
        for (const key of enabled) {
          await tablist.getByRole('tab', { name: PANEL_NAMES[key] }).click();
          await expect(page.getByRole('tabpanel', { name: PANEL_NAMES[key] })).toBeVisible();
          for (const other of enabled.filter((k) => k !== key))
            await expect(page.getByTestId(`panel-${other}`)).toBeHidden();
          await CHECKS[key](page);
          await attachScreenshot(page, testInfo, `${combination.name}-${viewport.width}-${key}`);
        }
      });
    }
  });
}
