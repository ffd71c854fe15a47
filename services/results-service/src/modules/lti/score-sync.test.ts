import { randomUUID } from 'node:crypto';
import { QuestionSchema } from '@exam/domain/question';
import type { AttemptLtiLink, LtiScoreRequest } from '@exam/domain/lti-ags';
import type { ResultDetail, ResultList } from '@exam/domain/result';
import { buildInternalExam } from '@exam/domain/testing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attempts, ltiScoreSyncs } from '../../db/schema.ts';
import { buildTestApp, creatorHeaders, type TestApp } from '../../testing/app.ts';
import { fakeClock } from '../../testing/fakes.ts';
import { sitExam } from '../../testing/sitting.ts';

const LINE_ITEM = 'https://lms.example.test/api/lti/courses/7/line_items/3?tool=exam';

describe('LTI score passback', () => {
  const clock = fakeClock(new Date('2034-05-01T09:00:00Z'));
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp({
      deps: { clock },
      env: {
        LTI_SCORE_SYNC_MAX_TRIES: '3',
        LTI_SCORE_SYNC_BACKOFF_SECONDS: '30',
        LTI_SCORE_SYNC_BACKOFF_CAP_SECONDS: '45',
      },
    });
  });
  afterAll(() => app.close());

  /**
   * An exam scored by its keys alone (2 + 3 points), sat by one candidate launched from an LMS (the attempt
   * carries its link, as the launch writes it) and one who came without. Both results are graded at submit.
   */
  async function setup() {
    const exam = app.exams.put(
      buildInternalExam({
        questions: [
          { id: 'one', type: 'mcq', title: 'One', options: ['a', 'b'], correctAnswer: 'a', points: 2 },
          { id: 'two', type: 'mcq', title: 'Two', options: ['a', 'b'], correctAnswer: 'b', points: 3 },
        ],
      }),
    );
    const owner = creatorHeaders(app, exam.ownerId);
    const sub = `lms-user-${randomUUID()}`;
    const lti: AttemptLtiLink = {
      platformId: 'platform-1',
      deploymentId: 'deployment-1',
      resourceLinkId: `link-${randomUUID()}`,
      lineItemUrl: LINE_ITEM,
      sub,
    };
    const learner = await sitExam(app, exam.id, { 0: 'a', 1: 'a' }, { studentId: sub });
    await app.db.update(attempts).set({ lti }).where(eq(attempts.id, learner.attempt.attemptId));
    const walkIn = await sitExam(app, exam.id, { 0: 'a', 1: 'b' });
    const release = (resultId: string, released: boolean, headers = owner) =>
      app.inject({ method: 'POST', url: `/api/results/${resultId}/release`, headers, payload: { released } });
    const read = async (resultId: string) =>
      (await app.inject({ method: 'GET', url: `/api/results/${resultId}`, headers: owner })).json<ResultDetail>();
    const outbox = async (resultId: string) =>
      (await app.db.select().from(ltiScoreSyncs).where(eq(ltiScoreSyncs.resultId, resultId)))[0];
    const sentTo = () => app.lti.sent.filter((s) => s.userId === sub);
    return { exam, owner, sub, learner, walkIn, release, read, outbox, sentTo };
  }

  it('writes the outbox row with the release and sends the score once', async () => {
    const { learner, walkIn, release, outbox, sentTo, read } = await setup();
    expect(await outbox(learner.resultId)).toBeUndefined();
    expect((await release(learner.resultId, true)).statusCode).toBe(200);
    expect((await release(walkIn.resultId, true)).statusCode).toBe(200);
    expect(await outbox(learner.resultId)).toMatchObject({ state: 'pending', scoreGiven: 2, scoreMaximum: 5 });
    // A candidate who did not come from an LMS has nothing to send.
    expect(await outbox(walkIn.resultId)).toBeUndefined();
    expect((await read(learner.resultId)).lmsSync).toEqual({
      state: 'pending',
      tries: 0,
      lastError: null,
      syncedAt: null,
    });

    await app.syncLtiScores();
    await app.syncLtiScores();
    expect(sentTo()).toEqual<LtiScoreRequest[]>([
      {
        platformId: 'platform-1',
        lineItemUrl: LINE_ITEM,
        userId: learner.attempt.studentId,
        scoreGiven: 2,
        scoreMaximum: 5,
        activityProgress: 'Completed',
        gradingProgress: 'FullyGraded',
        timestamp: clock.now().toISOString(),
      },
    ]);
    expect((await read(learner.resultId)).lmsSync).toEqual({
      state: 'sent',
      tries: 1,
      lastError: null,
      syncedAt: clock.now().toISOString(),
    });
    expect((await read(walkIn.resultId)).lmsSync).toBeUndefined();
  });

  it('writes the outbox with an exam-wide release, and sends nothing for a release that changes nothing', async () => {
    const { exam, owner, learner, outbox, sentTo } = await setup();
    const releaseAll = () =>
      app.inject({ method: 'POST', url: `/api/exams/${exam.id}/release`, headers: owner, payload: { released: true } });
    expect((await releaseAll()).json()).toMatchObject({ changed: 2 });
    expect(await outbox(learner.resultId)).toMatchObject({ state: 'pending', scoreGiven: 2 });
    await app.syncLtiScores();
    expect((await releaseAll()).json()).toMatchObject({ changed: 0 });
    expect(await outbox(learner.resultId)).toMatchObject({ state: 'sent' });
    await app.syncLtiScores();
    expect(sentTo()).toHaveLength(1);
  });

  it('lists the sync state with the results, for the LMS candidate only', async () => {
    const { exam, owner, learner, walkIn, release } = await setup();
    await release(learner.resultId, true);
    await release(walkIn.resultId, true);
    const list = (
      await app.inject({ method: 'GET', url: `/api/results?examId=${exam.id}`, headers: owner })
    ).json<ResultList>();
    expect(list.results.find((r) => r.id === learner.resultId)?.lmsSync?.state).toBe('pending');
    expect(list.results.find((r) => r.id === walkIn.resultId)?.lmsSync).toBeUndefined();
    await app.syncLtiScores();
  });

  it('sends the new score after a regrade of a released result, and "no score" when the release is withdrawn', async () => {
    const { exam, owner, learner, release, outbox, sentTo } = await setup();
    await release(learner.resultId, true);
    await app.syncLtiScores();
    clock.advance(60_000);
    // The creator fixes question two's key to 'a': the learner's second answer now scores.
    app.exams.put({
      ...exam,
      questions: exam.questions.map((q, i) => (i === 1 ? QuestionSchema.parse({ ...q, correctAnswer: 'a' }) : q)),
    });
    const regraded = await app.inject({
      method: 'POST',
      url: `/api/exams/${exam.id}/regrade?dryRun=false`,
      headers: owner,
    });
    expect(regraded.statusCode).toBe(200);
    expect(await outbox(learner.resultId)).toMatchObject({ state: 'pending', tries: 0, scoreGiven: 5 });
    await app.syncLtiScores();
    expect(sentTo().map((s) => [s.scoreGiven, s.gradingProgress])).toEqual([
      [2, 'FullyGraded'],
      [5, 'FullyGraded'],
    ]);

    clock.advance(60_000);
    await release(learner.resultId, false);
    await app.syncLtiScores();
    const withdrawn = sentTo().at(-1);
    expect(withdrawn).toMatchObject({ gradingProgress: 'Pending', scoreMaximum: 5 });
    expect(withdrawn).not.toHaveProperty('scoreGiven');
    // Withdrawing again (nothing changes) sends nothing more.
    await release(learner.resultId, false);
    await app.syncLtiScores();
    expect(sentTo()).toHaveLength(3);
  });

  it('retries with growing, capped delays and marks the score failed after the last try', async () => {
    const { learner, release, outbox, sentTo, read, owner } = await setup();
    await release(learner.resultId, true);
    app.lti.answer(
      new Error('exam-service is unreachable'),
      { outcome: 'failed', code: 'LMS_UNAVAILABLE', message: 'The LMS answered 503', retryable: true },
      { outcome: 'failed', code: 'LMS_UNAVAILABLE', message: 'The LMS answered 503 again', retryable: true },
    );
    await app.syncLtiScores();
    expect(await outbox(learner.resultId)).toMatchObject({
      state: 'pending',
      tries: 1,
      lastError: 'exam-service is unreachable',
      nextTryAt: new Date(clock.now().getTime() + 30_000),
    });
    // Not due yet: nothing is sent.
    clock.advance(29_000);
    await app.syncLtiScores();
    expect(sentTo()).toHaveLength(1);
    clock.advance(1_000);
    await app.syncLtiScores();
    // The second delay would be 60 s; the cap makes it 45 s.
    expect(await outbox(learner.resultId)).toMatchObject({
      state: 'pending',
      tries: 2,
      nextTryAt: new Date(clock.now().getTime() + 45_000),
    });
    clock.advance(45_000);
    await app.syncLtiScores();
    expect(sentTo()).toHaveLength(3);
    expect((await read(learner.resultId)).lmsSync).toEqual({
      state: 'failed',
      tries: 3,
      lastError: 'The LMS answered 503 again',
      syncedAt: null,
    });
    clock.advance(3_600_000);
    await app.syncLtiScores();
    expect(sentTo()).toHaveLength(3);

    // The creator retries: the score goes out at the next pass.
    const retried = await app.inject({
      method: 'POST',
      url: `/api/results/${learner.resultId}/lms-sync/retry`,
      headers: owner,
    });
    expect(retried.statusCode).toBe(200);
    expect(retried.json<ResultDetail>().lmsSync).toMatchObject({ state: 'pending', tries: 0, lastError: null });
    await app.syncLtiScores();
    expect(sentTo()).toHaveLength(4);
    expect((await read(learner.resultId)).lmsSync?.state).toBe('sent');
  });

  it('gives up at once on a failure that no retry can fix', async () => {
    const { learner, release, outbox, sentTo } = await setup();
    await release(learner.resultId, true);
    app.lti.answer({
      outcome: 'failed',
      code: 'LMS_REJECTED',
      message: 'The LMS refused the score (400)',
      retryable: false,
    });
    await app.syncLtiScores();
    expect(await outbox(learner.resultId)).toMatchObject({
      state: 'failed',
      tries: 1,
      lastError: 'The LMS refused the score (400)',
    });
    clock.advance(3_600_000);
    await app.syncLtiScores();
    expect(sentTo()).toHaveLength(1);
  });

  it('answers 404 to another creator retrying, and 409 for a score that was not refused', async () => {
    const { learner, release, owner } = await setup();
    await release(learner.resultId, true);
    const retry = (headers: Record<string, string>) =>
      app.inject({ method: 'POST', url: `/api/results/${learner.resultId}/lms-sync/retry`, headers });
    expect((await retry(creatorHeaders(app, 'someone-else'))).statusCode).toBe(404);
    await app.syncLtiScores();
    expect((await retry(owner)).statusCode).toBe(409);
  });

  it('keeps a score changed while the previous one was being sent, and sends it next', async () => {
    const { learner, release, outbox, sentTo } = await setup();
    await release(learner.resultId, true);
    const publish = app.lti.publish;
    app.lti.publish = async (score) => {
      // The creator withdraws the release while the LMS is still answering.
      app.lti.publish = publish;
      clock.advance(1000);
      expect((await release(learner.resultId, false)).statusCode).toBe(200);
      return publish(score);
    };
    expect(await app.syncLtiScores()).toBe(0);
    expect(await outbox(learner.resultId)).toMatchObject({ state: 'pending', tries: 0, scoreGiven: null });
    await app.syncLtiScores();
    expect(sentTo().map((s) => s.gradingProgress)).toEqual(['FullyGraded', 'Pending']);
    expect(await outbox(learner.resultId)).toMatchObject({ state: 'sent' });
  });

  it('sends a score again when the replica that claimed it died before it finished', async () => {
    const { learner, release, outbox, sentTo } = await setup();
    await release(learner.resultId, true);
    // A pass that claims the row and never finishes (the outcome is not written): only the claim's lease remains.
    const claimedAt = clock.now();
    await app.db
      .update(ltiScoreSyncs)
      .set({ nextTryAt: new Date(claimedAt.getTime() + 120_000) })
      .where(eq(ltiScoreSyncs.resultId, learner.resultId));
    await app.syncLtiScores();
    expect(sentTo()).toHaveLength(0);
    clock.advance(120_000);
    await app.syncLtiScores();
    expect(sentTo()).toHaveLength(1);
    expect(await outbox(learner.resultId)).toMatchObject({ state: 'sent' });
  });

  it('sends a score once when two replicas run the job at the same time', async () => {
    const { learner, release, sentTo } = await setup();
    const replica = await buildTestApp({ deps: { clock, ltiScores: app.lti } });
    try {
      await release(learner.resultId, true);
      // The LMS answers slowly, so both passes are under way together.
      const publish = app.lti.publish;
      app.lti.publish = async (score) => {
        await new Promise((resolve) => setTimeout(resolve, 200));
        return publish(score);
      };
      try {
        const counts = await Promise.all([app.syncLtiScores(), replica.syncLtiScores()]);
        expect(counts.reduce((a, b) => a + b, 0)).toBe(1);
      } finally {
        app.lti.publish = publish;
      }
      expect(sentTo()).toHaveLength(1);
    } finally {
      await replica.close();
    }
  });
});
