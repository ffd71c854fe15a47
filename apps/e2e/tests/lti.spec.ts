import { advantageOf } from '@exam/lti-simulator/advantage';
import type { LmsSimulator } from '@exam/lti-simulator/simulator';
import { Roles } from '@exam/lti-simulator/state';
import { expectAccessible } from './support/a11y.ts';
import { getAttempt, listResults, publishExam, question, registerCreator } from './support/api.ts';
import { E2E } from './support/env.ts';
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

  await test.step('the creator releases the result, and the LMS gradebook receives the points', async () => {
    const [result] = await listResults(request, creator.token);
    expect(result).toMatchObject({ examId: exam.id, studentId: 'student-42', score: 1, maxScore: 2 });
    await page.goto(`${E2E.creatorOrigin}/creator/result/${encodeURIComponent(result!.id)}`);
    await page.getByRole('button', { name: 'Release result' }).click();
    // The passback job sends it within LTI_SCORE_SYNC_INTERVAL_SECONDS; the page reads it again while it is pending.
    await expect(page.getByTestId('lms-sync')).toHaveText('Sent to LMS', { timeout: 30_000 });
    await expectAccessible(page, 'result page with its LMS status');
    expect(advantageOf(sim.state).scores).toEqual([
      expect.objectContaining({
        userId: 'student-42',
        scoreGiven: 1,
        scoreMaximum: 2,
        activityProgress: 'Completed',
        gradingProgress: 'FullyGraded',
        resourceLinkId: placement.resourceLinkId,
      }),
    ]);
  });

  await test.step("the creator imports the LMS course's learners into the roster", async () => {
    // The simulator's launches are in its default course.
    advantageOf(sim.state).members.set('course-101', [
      { user_id: 'student-42', roles: [Roles.learner], name: 'Ada Lovelace' },
      { user_id: 'student-43', roles: [Roles.learner], name: 'Alan Turing', email: 'alan@example.edu' },
      { user_id: 'teacher-1', roles: [Roles.instructor], name: 'Grace Hopper' },
    ]);
    await page.goto(`${E2E.creatorOrigin}/creator/exam-roster/${encodeURIComponent(exam.id)}`);
    await page.getByRole('button', { name: 'Preview learners' }).click();
    const learners = page.getByRole('table', { name: 'Learners in the LMS course' });
    await expect(learners).toContainText('student-43');
    await expect(learners).not.toContainText('teacher-1');
    await expectAccessible(page, 'roster page with the LMS preview');
    await page.getByRole('button', { name: 'Import 2 learners' }).click();
    const roster = page.getByRole('table', { name: 'Roster' });
    await expect(roster).toContainText('Alan Turing');
    await expect(roster).toContainText('student-42');
  });
});
