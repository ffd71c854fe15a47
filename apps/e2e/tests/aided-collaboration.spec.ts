import type { AuthResponse } from '@exam/domain/auth';
import type { Exam } from '@exam/domain/exam';
import type { InsightsReport } from '@exam/domain/insights';
import { PlantedErrorMessages } from '@exam/domain/planted-errors';
import { SectionMessages } from '@exam/domain/sections';
import type { APIRequestContext, Page } from '@playwright/test';
import { expectAccessible } from './support/a11y.ts';
import {
  createExam,
  getAttempt,
  getExam,
  question,
  registerCreator,
  saveAnswer,
  startAttempt,
  submitAttempt,
  type StartedAttempt,
} from './support/api.ts';
import { E2E, FAKE_OPENAI_PORT } from './support/env.ts';
import { startFakeOpenAi, type ChatCompletionBody, type FakeOpenAi } from './support/fake-openai.ts';
import { expect, test } from './support/fixtures.ts';
import { storedAttempt, submitExam } from './support/taker.ts';
import { expectToast, signInCreator } from './support/ui.ts';

/**
 * Issue 33: the creator builds, in the exam editor, an exam in two sections, the first without the assistant and the
 * second with it, the assistant sometimes wrong on purpose (every turn about the two questions given a planted error,
 * share 100%); only the twelve questions come through the API. Twelve candidates sit it through the API
 * and two in the browser: Ada answers the planted question right, asks, and adopts the assistant's planted error;
 * Ben does the same and keeps his right answer. The creator's insights then give every candidate aided and unaided
 * ability with intervals, RAIR/RSR with their counts, and tell Ada from Ben; the collaboration profile is suggested
 * by the model (the fake speaks OpenAI's structured-output wire format) and accepted by the grader.
 */

const PLANETS = ['Mercury', 'Venus', 'Earth', 'Mars'];
/** Unaided section (no assistant). */
const SOLO = [
  { title: 'Which planet has the shortest year?', key: 'Mercury' },
  { title: 'Which planet is called the red planet?', key: 'Mars' },
  { title: 'Which planet do we live on?', key: 'Earth' },
  { title: 'Which planet has the longest day?', key: 'Venus' },
  { title: 'Which planet has no moon and is the smallest?', key: 'Mercury' },
  { title: 'Which planet hosts Olympus Mons?', key: 'Mars' },
];
/** Aided section: the first two carry a planted error. */
const AIDED = [
  { title: 'Which planet is closest to the Sun?', key: 'Mercury', planted: 'Venus' },
  { title: 'Which planet is the hottest?', key: 'Venus', planted: 'Mercury' },
  { title: 'Which planet has the most water on its surface?', key: 'Earth' },
  { title: 'Which planet did Curiosity land on?', key: 'Mars' },
  { title: 'Which planet spins backwards?', key: 'Venus' },
  { title: 'Which planet is third from the Sun?', key: 'Earth' },
];
const SECTION_TITLES = ['On your own', 'With the assistant'] as const;
const PLANTED_INDEX = SOLO.length; // Q7: the first aided question, in every candidate's list (no shuffle)
const API_CANDIDATES = 12;

/** The fake model's ordinary reply: the key of the question the candidate is looking at (the prompt names it). */
function honestReply(body: ChatCompletionBody): string {
  const system = (body.messages ?? []).find((m) => m.role === 'system');
  const prompt = typeof system?.content === 'string' ? system.content : '';
  const looking = /The candidate is currently looking at Q(\d+)\./.exec(prompt);
  const index = looking ? Number(looking[1]) - 1 : -1;
  const asked = [...SOLO, ...AIDED][index];
  return asked ? `I would go with ${asked.key}.` : 'Think about the definitions.';
}

/**
 * Whether API candidate i answers a question right: stronger candidates more often, and with the assistant more
 * often than without it, with a fixed wobble so the patterns are not a staircase.
 */
function isRight(i: number, q: number, aided: boolean): boolean {
  const wobble = ((i * 37 + q * 17 + (aided ? 5 : 0)) % 11) / 11 - 0.5;
  const ability = i / (API_CANDIDATES - 1) + (aided ? 0.25 : 0);
  return ability + 0.6 * wobble > 0.2 + 0.1 * q;
}
const wrongFor = (key: string) => PLANETS.find((p) => p !== key)!;

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function ask(
  request: APIRequestContext,
  attempt: StartedAttempt,
  questionIndex: number,
): Promise<{ status: number; body: string }> {
  const response = await request.post(`${E2E.takerOrigin}/api/llm/chat`, {
    headers: bearer(attempt.token),
    data: { message: 'Which option is right?', questionIndex },
  });
  return { status: response.status(), body: await response.text() };
}

async function advance(request: APIRequestContext, attempt: StartedAttempt, from: number): Promise<void> {
  const response = await request.post(`${E2E.takerOrigin}/api/attempts/${attempt.attemptId}/sections/advance`, {
    headers: bearer(attempt.token),
    data: { from },
  });
  expect(response.status(), await response.text()).toBe(200);
}

async function insights(request: APIRequestContext, token: string, examId: string): Promise<InsightsReport> {
  const response = await request.get(`${E2E.creatorOrigin}/api/exams/${examId}/insights`, { headers: bearer(token) });
  expect(response.status()).toBe(200);
  return (await response.json()) as InsightsReport;
}

/** The browser candidate's sitting: briefing, section one alone, section two with the assistant. */
async function sitInBrowser(
  page: Page,
  request: APIRequestContext,
  examId: string,
  candidate: { name: string; studentId: string; adopts: boolean },
): Promise<StartedAttempt> {
  await page.goto(`${E2E.takerOrigin}/taker/start`);
  await page.getByLabel('Exam URL').fill(`${E2E.takerOrigin}/exam/${examId}`);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/taker\/credentials$/);
  await page.getByLabel('Full Name').fill(candidate.name);
  await page.getByLabel('Candidate ID').fill(candidate.studentId);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('button', { name: 'Start Exam' })).toBeVisible();
  // The briefing says what is coming before the candidate starts: the sections and the planted errors.
  await expect(page.getByText(PlantedErrorMessages.disclosure).first()).toBeVisible();
  await expect(page.getByText('Section 1: On your own')).toBeVisible();
  await expect(page.getByText('Section 2: With the assistant')).toBeVisible();
  await page.getByRole('button', { name: 'Start Exam' }).click();
  await expect(page).toHaveURL(new RegExp(`/exam/${examId}$`));
  const attempt = await storedAttempt(page, examId);

  const composer = page.getByRole('textbox', { name: 'Message the AI assistant' });
  await test.step(`${candidate.name}: section one, the assistant off`, async () => {
    await expect(page.getByText(SectionMessages.assistantOff).first()).toBeVisible();
    await expect(composer).toBeDisabled();
    const nav = page.getByRole('navigation', { name: 'Questions' });
    for (const [q, item] of SOLO.entries()) {
      await nav.getByRole('button', { name: new RegExp(`^Question ${q + 1}\\b`) }).click();
      await page.getByRole('radio', { name: q % 2 === 0 ? item.key : wrongFor(item.key), exact: true }).check();
    }
    await expect
      .poll(async () => Object.keys((await getAttempt(request, attempt.token, attempt.attemptId)).answers).length)
      .toBe(SOLO.length);
  });

  await test.step(`${candidate.name}: moving on locks section one`, async () => {
    await page.getByRole('button', { name: 'Next section' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Next section' });
    await expect(dialog).toContainText(SectionMessages.advanceConfirm);
    await dialog.getByRole('button', { name: 'Move on' }).click();
    await expect(composer).toBeEnabled();
    await expect(page.getByRole('heading', { name: `Q${PLANTED_INDEX + 1}: ${AIDED[0]!.title}` })).toBeVisible();
  });

  await test.step(`${candidate.name}: answers, asks, and ${candidate.adopts ? 'adopts' : 'rejects'} the planted error`, async () => {
    await page.getByRole('radio', { name: AIDED[0]!.key, exact: true }).check();
    await expect
      .poll(
        async () =>
          (await getAttempt(request, attempt.token, attempt.attemptId)).answers[String(PLANTED_INDEX)]?.answer,
      )
      .toBe(AIDED[0]!.key);
    await composer.fill('Which option is right?');
    await composer.press('Enter');
    const conversation = page.getByRole('log', { name: 'Conversation with the AI assistant' });
    await expect(conversation).toContainText(`the answer is ${AIDED[0]!.planted}`);
    if (candidate.adopts) await page.getByRole('radio', { name: AIDED[0]!.planted, exact: true }).check();
    const final = candidate.adopts ? AIDED[0]!.planted : AIDED[0]!.key;
    await expect
      .poll(
        async () =>
          (await getAttempt(request, attempt.token, attempt.attemptId)).answers[String(PLANTED_INDEX)]?.answer,
      )
      .toBe(final);
  });

  await test.step(`${candidate.name}: section one refuses a direct API write`, async () => {
    const write = await request.put(`${E2E.takerOrigin}/api/attempts/${attempt.attemptId}/answers/0`, {
      headers: bearer(attempt.token),
      data: { answer: 'Venus', seq: 99 },
    });
    expect(write.status()).toBe(409);
    expect(await write.json()).toMatchObject({ error: { code: 'SECTION_LOCKED', message: SectionMessages.locked } });
    const state = await getAttempt(request, attempt.token, attempt.attemptId);
    expect(state.answers['0']?.answer).toBe(SOLO[0]!.key);
  });

  await submitExam(page);
  await expect(page.getByRole('heading', { name: 'Exam Completed' })).toBeVisible();
  return attempt;
}

/**
 * The creator builds the exam in the editor as a user would: the assistant on (OpenAI's gpt-4o-mini, Stop Solutions
 * off, since the fake model answers with keys), two sections (the first without the assistant), the first six
 * questions in section one and the last six in section two, planted errors on for every turn (100%) with Venus
 * planted on Q7 and Mercury on Q8; saved as a draft, reopened, and published from the editor (which puts it live).
 */
async function buildInEditor(
  page: Page,
  request: APIRequestContext,
  creator: AuthResponse,
  examId: string,
): Promise<Exam> {
  await signInCreator(page, creator);
  const pick = async (combobox: string, option: string) => {
    await page.getByRole('combobox', { name: combobox, exact: true }).click();
    await page.getByRole('option', { name: option, exact: true }).click();
    await expect(page.getByRole('combobox', { name: combobox, exact: true })).toHaveText(option);
  };

  await test.step('the creator switches the assistant on in the editor', async () => {
    await page.goto(`/creator/edit-exam/${examId}?type=draft`);
    await expect(page.getByRole('heading', { name: 'Edit Draft Exam' })).toBeVisible();
    await page.getByRole('switch', { name: 'Enable AI Assistant' }).click();
    await expect(page.getByRole('combobox', { name: 'AI Provider', exact: true })).toHaveText('OpenAI');
    await expect(page.getByRole('combobox', { name: 'Model', exact: true })).toHaveText('gpt-4o-mini');
    const stopSolutions = page.getByRole('switch', { name: 'Stop Solutions' });
    await expect(stopSolutions).toBeChecked();
    await stopSolutions.click();
    await expect(stopSolutions).not.toBeChecked();
  });

  await test.step('adds a section without the assistant and one with it', async () => {
    await page.getByRole('button', { name: 'Add section' }).click();
    await page.getByLabel('Section 1 title', { exact: true }).fill(SECTION_TITLES[0]);
    const soloAssistant = page.getByRole('switch', { name: 'Section 1: assistant available' });
    await expect(soloAssistant).toBeChecked();
    await soloAssistant.click();
    await expect(soloAssistant).not.toBeChecked();
    await page.getByRole('button', { name: 'Add section' }).click();
    await page.getByLabel('Section 2 title', { exact: true }).fill(SECTION_TITLES[1]);
    await expect(page.getByRole('switch', { name: 'Section 2: assistant available' })).toBeChecked();
    await expect(page.getByLabel('Section 2 time limit (minutes)', { exact: true })).toHaveValue('');
  });

  await test.step('puts the first six questions in section one and the last six in section two', async () => {
    for (const q of SOLO.keys()) await pick(`Question ${q + 1} section`, SECTION_TITLES[0]);
    for (const k of AIDED.keys()) await pick(`Question ${SOLO.length + k + 1} section`, SECTION_TITLES[1]);
  });

  await test.step('turns planted errors on for every turn and plants Venus on Q7 and Mercury on Q8', async () => {
    const planted = page.getByRole('switch', { name: 'The assistant is sometimes wrong on purpose' });
    await planted.click();
    await expect(planted).toBeChecked();
    await page.getByLabel('Share of assistant turns with the error (%)', { exact: true }).fill('100');
    for (const [k, item] of AIDED.entries())
      if (item.planted) await pick(`Question ${SOLO.length + k + 1} planted error`, item.planted);
    await expectAccessible(page, 'exam editor with sections and planted errors');
  });

  await test.step('saves the draft; reopened, the editor shows what was set; publishes it', async () => {
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expectToast(page, 'Draft saved successfully');
    await expect(page).toHaveURL(/\/creator\/dashboard$/);
    await page.goto(`/creator/edit-exam/${examId}?type=draft`);
    await expect(page.getByLabel('Section 2 title', { exact: true })).toHaveValue(SECTION_TITLES[1]);
    await expect(page.getByRole('switch', { name: 'Section 1: assistant available' })).not.toBeChecked();
    await expect(page.getByRole('combobox', { name: 'Question 12 section', exact: true })).toHaveText(
      SECTION_TITLES[1],
    );
    await expect(page.getByRole('combobox', { name: 'Question 8 planted error', exact: true })).toHaveText('Mercury');
    await expect(page.getByLabel('Share of assistant turns with the error (%)', { exact: true })).toHaveValue('100');
    await page.getByRole('button', { name: 'Publish Exam' }).click();
    await expect(page.getByRole('heading', { name: 'Exam Published!' })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/creator/exam-published/${examId}$`));
  });

  const exam = await getExam(request, creator.token, examId);
  await test.step('the saved exam holds exactly the sections, sections of questions and planted errors', async () => {
    expect(exam).toMatchObject({ isDraft: false, isLive: true, questionDisplay: 'one' });
    expect(
      exam.sections.map(({ title, assistant, timeLimitMinutes }) => ({ title, assistant, timeLimitMinutes })),
    ).toEqual([
      { title: SECTION_TITLES[0], assistant: false, timeLimitMinutes: null },
      { title: SECTION_TITLES[1], assistant: true, timeLimitMinutes: null },
    ]);
    const [solo, aided] = exam.sections.map((s) => s.id);
    // Every question names its section outright, so reordering the sections later cannot move it.
    expect(exam.questions.map((q) => [q.title, q.sectionId, q.plantedError ?? null])).toEqual([
      ...SOLO.map((s) => [s.title, solo, null]),
      ...AIDED.map((a) => [a.title, aided, a.planted ?? null]),
    ]);
    expect(exam.aiSettings).toMatchObject({
      enabled: true,
      provider: 'openai',
      model: 'gpt-4o-mini',
      stopSolutions: false,
      plantedErrors: { enabled: true, share: 1 },
    });
  });
  return exam;
}

let fake: FakeOpenAi;

test.beforeAll(async () => {
  fake = await startFakeOpenAi({
    port: FAKE_OPENAI_PORT,
    reply: (body) => [{ text: honestReply(body) }],
    delayMs: 5,
  });
});

test.afterAll(async () => {
  await (fake as FakeOpenAi | undefined)?.close();
});

test('aided and unaided ability, reliance on planted errors and the collaboration profile', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(600_000);
  const creator = await registerCreator(request, 'aided-creator');
  // The questions come through the API, as a plain draft: no sections, no planted errors, no assistant.
  const draft = await createExam(request, creator.token, {
    title: 'Planets, alone and aided',
    questionDisplay: 'one',
    isDraft: true,
    questions: [...SOLO, ...AIDED].map((item) => question.mcq(item.title, PLANETS, item.key, 'Planets')),
  });
  const exam = await buildInEditor(page, request, creator, draft.id);
  await test.step('twelve candidates sit it through the API; the assistant refuses them in section one', async () => {
    for (let i = 0; i < API_CANDIDATES; i += 1) {
      const attempt = await startAttempt(request, {
        examId: exam.id,
        name: `Candidate ${String(i + 1).padStart(2, '0')}`,
        studentId: `AIDED-${String(i + 1).padStart(3, '0')}`,
      });
      if (i === 0) {
        const refused = await ask(request, attempt, 0);
        expect(refused.status).toBe(409);
        expect(refused.body).toContain(SectionMessages.assistantOff);
      }
      for (const [q, item] of SOLO.entries())
        await saveAnswer(request, attempt, q, isRight(i, q, false) ? item.key : wrongFor(item.key));
      await advance(request, attempt, 0);
      for (const [k, item] of AIDED.entries()) {
        const q = SOLO.length + k;
        if (k < 3) expect((await ask(request, attempt, q)).status).toBe(200);
        // Even candidates adopt a planted error; odd ones keep the key.
        const answer = item.planted && i % 2 === 0 ? item.planted : isRight(i, q, true) ? item.key : wrongFor(item.key);
        await saveAnswer(request, attempt, q, answer);
      }
      await submitAttempt(request, attempt);
    }
  });

  await sitInBrowser(page, request, exam.id, { name: 'Ada Adopts', studentId: 'AIDED-ADA', adopts: true });
  const benPage = await browser.newPage();
  await sitInBrowser(benPage, request, exam.id, {
    name: 'Ben Checks',
    studentId: 'AIDED-BEN',
    adopts: false,
  });
  await benPage.close();

  const report = await insights(request, creator.token, exam.id);
  await test.step('insights: every candidate has aided and unaided ability with an interval', async () => {
    expect(report.aidedAbility).toMatchObject({
      available: true,
      items: { aided: AIDED.length, unaided: SOLO.length },
    });
    expect(report.candidates).toHaveLength(API_CANDIDATES + 2);
    for (const c of report.candidates) {
      expect(c.ability?.aided.theta).toEqual(expect.any(Number));
      expect(c.ability?.unaided.se).toBeGreaterThan(0);
      expect(c.ability!.gap.low!).toBeLessThan(c.ability!.gap.high!);
      expect(c.ability!.gap.estimate!).toBeGreaterThan(c.ability!.gap.low!);
    }
  });

  await test.step('insights: RAIR/RSR tell the candidate who adopted the planted error from the one who did not', async () => {
    const byName = (name: string) => report.candidates.find((c) => c.name === name)!;
    expect(byName('Ada Adopts').reliance?.errorAdoption).toMatchObject({ value: 1, numerator: 1, denominator: 1 });
    expect(byName('Ada Adopts').reliance?.rsr).toMatchObject({ value: 0, numerator: 0, denominator: 1 });
    expect(byName('Ben Checks').reliance?.errorAdoption).toMatchObject({ value: 0, numerator: 0, denominator: 1 });
    expect(byName('Ben Checks').reliance?.rsr).toMatchObject({ value: 1, numerator: 1, denominator: 1 });
    expect(byName('Ada Adopts').reliance?.planted).toEqual([
      { questionIndex: PLANTED_INDEX, error: AIDED[0]!.planted, adopted: true },
    ]);
    expect(report.reliance?.plantedErrors).toBe(true);
    expect(report.reliance?.pooled.rair.denominator).toBeGreaterThan(0);
  });

  await signInCreator(page, creator);
  await test.step('the creator reads it on the insights page', async () => {
    await page.goto(`/creator/exam-insights/${exam.id}`);
    await expect(page.getByRole('heading', { name: 'Ability with and without the assistant' })).toBeVisible();
    const perCandidate = page.getByRole('table', { name: 'Reliance per candidate' });
    await expect(perCandidate.getByRole('row', { name: /Ada Adopts/ })).toContainText('Adopted');
    await expect(perCandidate.getByRole('row', { name: /Ben Checks/ })).toContainText('Rejected');
    await expectAccessible(page, 'insights with aided ability and reliance');
  });

  await test.step("the grader confirms the model's framing level and changes its verification level", async () => {
    const adaRow = report.candidates.find((c) => c.name === 'Ada Adopts')!;
    await page.goto(`/creator/result/${adaRow.resultId}`);
    const profile = page.getByRole('region', { name: 'Collaboration profile' });
    await expect(profile).toBeVisible();
    const framing = profile.getByRole('region', { name: 'Framing' });
    await framing.getByRole('button', { name: 'Suggest with AI' }).click();
    // The fake model reads the conversation: Ada asked a question ("Which option is right?") and never pushed back.
    await expect(framing.getByText('AI suggestion: level 3')).toBeVisible();
    await expect(framing.getByRole('list', { name: 'Quotes from the candidate' })).toContainText(
      'Which option is right?',
    );
    await framing.getByRole('button', { name: 'Accept level 3' }).click();
    await expect(framing.getByText('Accepted', { exact: true })).toBeVisible();
    const verification = profile.getByRole('region', { name: 'Verification' });
    await expect(verification.getByText('AI suggestion: level 1')).toBeVisible();
    await verification.getByRole('radio', { name: /^2 — / }).check();
    await verification.getByRole('button', { name: 'Set level 2' }).click();
    await expect(verification.getByText('Changed by the grader')).toBeVisible();
    // Independence comes from Ada's aided/unaided gap, integration from her answers' provenance.
    await expect(profile.getByRole('region', { name: 'Independence' })).toContainText(/Level \d of 4/);
    await expectAccessible(page, 'result page with the collaboration profile');
  });

  await test.step('insights carry the profiles and how far the model agrees with the grader', async () => {
    const after = await insights(request, creator.token, exam.id);
    const adaAfter = after.candidates.find((c) => c.name === 'Ada Adopts')!;
    expect(adaAfter.collaboration).toMatchObject({ framing: 3, verification: 2 });
    const framing = after.collaboration?.agreement.find((a) => a.dimension === 'framing');
    expect(framing).toMatchObject({ decided: 1, accepted: 1, exactAgreement: 1 });
    const verification = after.collaboration?.agreement.find((a) => a.dimension === 'verification');
    expect(verification).toMatchObject({ decided: 1, accepted: 0, exactAgreement: 0 });
    await page.goto(`/creator/exam-insights/${exam.id}`);
    await expect(page.getByRole('heading', { name: 'Collaboration profiles' })).toBeVisible();
    await expect(
      page.getByRole('table', { name: "Agreement of the AI's suggested levels with the graders'" }),
    ).toBeVisible();
  });
});
