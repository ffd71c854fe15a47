import type { LmsSimulator } from '@exam/lti-simulator/simulator';
import { expectAccessible } from './support/a11y.ts';
import { getAttempt, publishExam, question, registerCreator } from './support/api.ts';
import { expect, test } from './support/fixtures.ts';
import { deepLinkExam, launchLearner, registerPlatform, startLmsSimulator } from './support/lti.ts';
import { storedAttempt, submitExam } from './support/taker.ts';
import { signInCreator } from './support/ui.ts';

let sim: LmsSimulator;
test.beforeAll(async () => {
  sim = await startLmsSimulator();
});
test.afterAll(async () => {
  await sim?.close();
});

test('an LMS instructor deep-links an exam, and a learner launched from the LMS sits it as the LMS named them', async ({
  page,
  browser,
  request,
}) => {
  const creator = await registerCreator(request, 'lti-instructor');
  const exam = await publishExam(request, creator.token, {
    title: 'LTI Journey Quiz',
    questions: [
      question.mcq('Pick a colour', ['Red', 'Green'], 'Green'),
      question.shortAnswer('Capital of France', ['Paris']),
    ],
  });

  await test.step('the creator registers the LMS on the LMS settings page', async () => {
    await signInCreator(page, creator);
    await registerPlatform(page, sim);
  });

  const placement = await test.step('the instructor links their LMS account and deep-links the exam', () =>
    deepLinkExam(browser, sim, {
      instructor: { sub: 'teacher-1', name: 'Grace Hopper' },
      creatorEmail: creator.user.email,
      examTitle: exam.title,
      data: 'journey-data',
    }));
  expect(placement.custom).toEqual({ exam_id: exam.id });
  expect(placement.lineItem).toMatchObject({ scoreMaximum: 2, label: 'LTI Journey Quiz' });
  const response = sim.deepLinkResponses.at(-1)!;
  expect(response.ok && response.claims['https://purl.imsglobal.org/spec/lti-dl/claim/data']).toBe('journey-data');

  await test.step('the same instructor launching the activity again is signed in on the exam at once', async () => {
    const context = await browser.newContext();
    const teacher = await context.newPage();
    await teacher.goto(
      sim.launchUrl({
        user: { sub: 'teacher-1', name: 'Grace Hopper' },
        roles: ['http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor'],
        resourceLink: { id: placement.resourceLinkId, title: placement.title },
        custom: placement.custom,
        targetLinkUri: placement.url,
      }),
    );
    await expect(teacher).toHaveURL(new RegExp(`/creator/exam-published/${exam.id}$`));
    await context.close();
  });

  const learner = await launchLearner(browser, sim, placement, {
    sub: 'student-42',
    givenName: 'Ada',
    familyName: 'Lovelace',
  });

  await test.step('the learner lands on the briefing with no details to type, and starts', async () => {
    await expect(learner.getByRole('button', { name: 'Start Exam' })).toBeVisible();
    await expect(learner.getByLabel('Full Name')).toHaveCount(0);
    await expectAccessible(learner, 'briefing after an LMS launch');
    await learner.getByRole('button', { name: 'Start Exam' }).click();
    await expect(learner).toHaveURL(new RegExp(`/exam/${exam.id}$`));
    await expect(learner.getByTestId('answered-count')).toBeVisible();
  });

  await test.step('the attempt is bound to the identity of the launch; the learner answers and submits', async () => {
    const attempt = await storedAttempt(learner, exam.id);
    const state = await getAttempt(request, attempt.token, attempt.attemptId);
    expect(state).toMatchObject({ name: 'Ada Lovelace', studentId: 'student-42' });
    await learner.getByLabel('Answer for Q2').fill('Paris');
    await expect(learner.getByTestId('answered-count')).toHaveText('Answered: 1/2');
    await submitExam(learner, { answered: 1, total: 2 });
    await expect(learner.getByRole('heading', { name: 'Exam Completed' })).toBeVisible();
    expect((await getAttempt(request, attempt.token, attempt.attemptId)).submittedAt).not.toBeNull();
  });
  await learner.context().close();
});
