import { randomUUID } from 'node:crypto';
import type { AttemptLtiLink } from '@exam/domain/lti-ags';
import { InsightsReportSchema } from '@exam/domain/insights';
import { PracticeCheckSchema, PracticeMessages, ReviewSchema } from '@exam/domain/practice';
import type { ResultList } from '@exam/domain/result';
import { buildInternalExam } from '@exam/domain/testing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attempts, ltiScoreSyncs } from '../../db/schema.ts';
import { buildTestApp, creatorHeaders, startAttempt, type TestApp } from '../../testing/app.ts';
import { fakeClock } from '../../testing/fakes.ts';
import { sitExam } from '../../testing/sitting.ts';

/**
 * A 3-point multiple-answer MCQ with partial credit (a + b), with feedback of every kind, and a short answer whose
 * partial feedback is empty (so a partial verdict would fall back to the incorrect one).
 */
const questions = [
  {
    id: 'tick',
    type: 'mcq',
    title: 'Tick the noble gases',
    options: ['Helium', 'Neon', 'Oxygen'],
    multipleAnswers: true,
    correctAnswers: ['Helium', 'Neon'],
    scoring: 'partial',
    points: 3,
    feedback: {
      general: 'Noble gases fill their outer shell.',
      correct: 'All of them.',
      partial: 'Some of them.',
      incorrect: 'None of them.',
    },
    optionFeedback: ['Helium has two electrons.', '', 'Oxygen forms bonds readily.'],
  },
  {
    id: 'name',
    type: 'short-answer',
    title: 'Lightest element',
    acceptedAnswers: ['Hydrogen'],
    feedback: { general: '', correct: 'Yes.', partial: '', incorrect: 'It has one proton.' },
  },
];

describe('practice exams and the review', () => {
  const clock = fakeClock(new Date('2034-05-01T09:00:00Z'));
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp({ deps: { clock } });
  });
  afterAll(() => app.close());

  const practiceExam = (overrides: Record<string, unknown> = {}) =>
    app.exams.put(buildInternalExam({ questions, practice: true, attemptsAllowed: 1, ...overrides }));
  const check = (
    attempt: { attemptId: string; headers: Record<string, string> },
    questionIndex: number,
    payload: { answer: string; seq: number },
    headers = attempt.headers,
  ) =>
    app.inject({
      method: 'POST',
      url: `/api/attempts/${attempt.attemptId}/questions/${questionIndex}/check`,
      headers,
      payload,
    });
  const review = (attempt: { attemptId: string; headers: Record<string, string> }) =>
    app.inject({ method: 'GET', url: `/api/attempts/${attempt.attemptId}/review`, headers: attempt.headers });

  describe('checking an answer', () => {
    it('saves the answer, then answers the verdict, points and feedback of a partial-credit question', async () => {
      const exam = practiceExam();
      const attempt = await startAttempt(app, exam.id);

      const partial = await check(attempt, 0, { answer: JSON.stringify(['Helium', 'Oxygen']), seq: 1 });
      expect(partial.statusCode).toBe(200);
      // One right tick and one wrong cancel out: no points, and the option feedback follows the verdict's.
      expect(PracticeCheckSchema.parse(partial.json())).toEqual({
        questionIndex: 0,
        verdict: 'incorrect',
        points: 0,
        maxPoints: 3,
        feedback: [
          'Noble gases fill their outer shell.',
          'None of them.',
          'Helium has two electrons.',
          'Oxygen forms bonds readily.',
        ],
        correctAnswer: null,
        parts: null,
      });

      const half = PracticeCheckSchema.parse((await check(attempt, 0, { answer: '["Neon"]', seq: 2 })).json());
      expect(half).toMatchObject({ verdict: 'partial', points: 1.5 });
      // Neon's option feedback is blank, so nothing follows the verdict's.
      expect(half.feedback).toEqual(['Noble gases fill their outer shell.', 'Some of them.']);

      const full = PracticeCheckSchema.parse((await check(attempt, 0, { answer: '["Neon","Helium"]', seq: 3 })).json());
      expect(full).toMatchObject({ verdict: 'correct', points: 3 });
      expect(full.feedback).toEqual([
        'Noble gases fill their outer shell.',
        'All of them.',
        'Helium has two electrons.',
      ]);

      const state = await app.inject({
        method: 'GET',
        url: `/api/attempts/${attempt.attemptId}`,
        headers: attempt.headers,
      });
      expect(state.json().answers['0']).toMatchObject({ answer: '["Neon","Helium"]', seq: 3 });
    });

    it('never outranks a later save of the page, and says unanswered for a blank answer', async () => {
      const exam = practiceExam();
      const attempt = await startAttempt(app, exam.id);
      await app.inject({
        method: 'PUT',
        url: `/api/attempts/${attempt.attemptId}/answers/1`,
        headers: attempt.headers,
        payload: { answer: 'Helium', seq: 5 },
      });
      // A check carrying an older seq is scored as sent but leaves the newer saved answer alone.
      const stale = PracticeCheckSchema.parse((await check(attempt, 1, { answer: 'Hydrogen', seq: 4 })).json());
      expect(stale).toMatchObject({ verdict: 'correct', points: 1, feedback: ['Yes.'] });
      const state = await app.inject({
        method: 'GET',
        url: `/api/attempts/${attempt.attemptId}`,
        headers: attempt.headers,
      });
      expect(state.json().answers['1']).toMatchObject({ answer: 'Helium', seq: 5 });

      const blank = PracticeCheckSchema.parse((await check(attempt, 1, { answer: '  ', seq: 6 })).json());
      expect(blank).toMatchObject({ verdict: 'unanswered', points: 0, feedback: [] });
    });

    it('shows the key only when the exam shows keys, and refuses a question the exam does not have', async () => {
      const exam = practiceExam({ showAnswerKeys: true });
      const attempt = await startAttempt(app, exam.id);
      const wrong = PracticeCheckSchema.parse((await check(attempt, 1, { answer: 'Helium', seq: 1 })).json());
      expect(wrong).toMatchObject({
        verdict: 'incorrect',
        feedback: ['It has one proton.'],
        correctAnswer: 'Hydrogen',
      });
      expect((await check(attempt, 7, { answer: 'x', seq: 1 })).statusCode).toBe(400);
    });

    it('is refused in a real exam (403), to another candidate (404), to a creator (403) and once submitted (409)', async () => {
      const real = app.exams.put(buildInternalExam({ questions }));
      const attempt = await startAttempt(app, real.id);
      const refused = await check(attempt, 1, { answer: 'Hydrogen', seq: 1 });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error.message).toBe(PracticeMessages.notPractice);

      const exam = practiceExam();
      const own = await startAttempt(app, exam.id);
      const other = await startAttempt(app, exam.id);
      expect((await check(own, 1, { answer: 'Hydrogen', seq: 1 }, other.headers)).statusCode).toBe(404);
      expect((await check(own, 1, { answer: 'Hydrogen', seq: 1 }, creatorHeaders(app, exam.ownerId))).statusCode).toBe(
        403,
      );
      await app.inject({ method: 'POST', url: `/api/attempts/${own.attemptId}/submit`, headers: own.headers });
      expect((await check(own, 1, { answer: 'Hydrogen', seq: 2 })).statusCode).toBe(409);
    });
  });

  describe('attempts', () => {
    it('lets a candidate sit a practice exam again and again, whatever attemptsAllowed says', async () => {
      const exam = practiceExam({ attemptsAllowed: 1 });
      const studentId = `S-${randomUUID()}`;
      const briefing = await app.inject({
        method: 'POST',
        url: '/api/attempts/briefing',
        payload: { examId: exam.id, name: 'Ada Lovelace', studentId },
      });
      expect(briefing.json()).toMatchObject({ practice: true });
      let secret: string | undefined;
      const seen = new Set<string>();
      for (let round = 0; round < 3; round++) {
        const attempt = await startAttempt(app, exam.id, { studentId, ...(secret ? { resumeSecret: secret } : {}) });
        seen.add(attempt.attemptId);
        secret = attempt.resumeSecret ?? secret;
        const submitted = await app.inject({
          method: 'POST',
          url: `/api/attempts/${attempt.attemptId}/submit`,
          headers: attempt.headers,
        });
        expect(submitted.statusCode).toBe(200);
      }
      expect(seen.size).toBe(3);
    });
  });

  describe('practice attempts never count', () => {
    it('are listed for the creator marked practice, and left out of insights and the gradebook CSV', async () => {
      const exam = practiceExam();
      const owner = creatorHeaders(app, exam.ownerId);
      const { resultId } = await sitExam(app, exam.id, { 0: '["Helium","Neon"]', 1: 'Hydrogen' });

      const list = await app.inject({ method: 'GET', url: `/api/results?examId=${exam.id}`, headers: owner });
      expect(list.json<ResultList>().results).toEqual([expect.objectContaining({ id: resultId, practice: true })]);

      const report = InsightsReportSchema.parse(
        (await app.inject({ method: 'GET', url: `/api/exams/${exam.id}/insights`, headers: owner })).json(),
      );
      expect(report.cohort).toMatchObject({ started: 0, submitted: 0 });
      expect(report.candidates).toEqual([]);

      const gradebook = await app.inject({
        method: 'GET',
        url: `/api/exams/${exam.id}/results.csv?format=gradebook`,
        headers: owner,
      });
      expect(gradebook.statusCode).toBe(200);
      expect(gradebook.body.trim().split('\n')).toHaveLength(1);
      expect(gradebook.body).not.toContain('Ada Lovelace');
    });

    it('never writes an LTI outbox row, even released', async () => {
      const exam = practiceExam();
      const sub = `lms-user-${randomUUID()}`;
      const { resultId, attempt } = await sitExam(app, exam.id, { 1: 'Hydrogen' }, { studentId: sub });
      const lti: AttemptLtiLink = {
        platformId: 'platform-1',
        deploymentId: 'deployment-1',
        resourceLinkId: `link-${randomUUID()}`,
        lineItemUrl: 'https://lms.example.test/api/lti/courses/7/line_items/3',
        sub,
      };
      await app.db.update(attempts).set({ lti }).where(eq(attempts.id, attempt.attemptId));
      const released = await app.inject({
        method: 'POST',
        url: `/api/results/${resultId}/release`,
        headers: creatorHeaders(app, exam.ownerId),
        payload: { released: true },
      });
      expect(released.statusCode).toBe(200);
      expect(await app.db.select().from(ltiScoreSyncs).where(eq(ltiScoreSyncs.resultId, resultId))).toEqual([]);
    });
  });

  describe('the review', () => {
    it('shows a practice attempt to its candidate as soon as it is submitted, with feedback', async () => {
      const exam = practiceExam({ releasePolicy: 'on-release' });
      const { attempt } = await sitExam(app, exam.id, { 0: '["Neon"]' });
      const response = await review(attempt);
      expect(response.statusCode).toBe(200);
      const body = ReviewSchema.parse(response.json());
      expect(body).toMatchObject({ score: 1.5, maxScore: 4, closesAt: null });
      expect(body.questions[0]).toMatchObject({
        answer: '["Neon"]',
        points: 1.5,
        verdict: 'partial',
        feedback: ['Noble gases fill their outer shell.', 'Some of them.'],
        correctAnswer: null,
      });
      expect(body.questions[0]!.question).toMatchObject({
        title: 'Tick the noble gases',
        options: ['Helium', 'Neon', 'Oxygen'],
      });
      expect(body.questions[1]).toMatchObject({ verdict: 'unanswered', points: 0, feedback: [] });
    });

    it('opens for a real exam only with the review enabled, once released, until it closes', async () => {
      const closesAt = new Date(clock.now().getTime() + 3600_000).toISOString();
      const exam = app.exams.put(
        buildInternalExam({
          questions,
          showAnswerKeys: true,
          review: { enabled: true, closesAt, showFeedback: true },
        }),
      );
      const { attempt, resultId } = await sitExam(app, exam.id, { 1: 'Helium' });
      const owner = creatorHeaders(app, exam.ownerId);
      await app.inject({
        method: 'PATCH',
        url: `/api/results/${resultId}`,
        headers: owner,
        payload: { grading: [{ questionIndex: 1, points: 0, feedback: 'Look at the first row.' }] },
      });
      const before = await review(attempt);
      expect(before.statusCode).toBe(403);
      expect(before.json().error.message).toBe(PracticeMessages.reviewNotOpen);

      await app.inject({
        method: 'POST',
        url: `/api/results/${resultId}/release`,
        headers: owner,
        payload: { released: true },
      });
      const open = ReviewSchema.parse((await review(attempt)).json());
      expect(open.closesAt).toBe(closesAt);
      expect(open.questions[1]).toMatchObject({
        answer: 'Helium',
        verdict: 'incorrect',
        graderFeedback: 'Look at the first row.',
        feedback: ['It has one proton.'],
        correctAnswer: 'Hydrogen',
      });
      expect(open.questions[0]).toMatchObject({ correctAnswer: 'Helium | Neon', verdict: 'unanswered' });

      // The creator hides feedback: the review follows the exam as it is now.
      app.exams.put({ ...exam, review: { enabled: true, closesAt, showFeedback: false }, showAnswerKeys: false });
      const plain = ReviewSchema.parse((await review(attempt)).json());
      expect(plain.questions[1]).toMatchObject({
        feedback: [],
        correctAnswer: null,
        graderFeedback: 'Look at the first row.',
      });

      clock.advance(3600_000);
      const closed = await review(attempt);
      expect(closed.statusCode).toBe(403);
      expect(closed.json().error.message).toBe(PracticeMessages.reviewClosed);
    });

    it('is refused without a review, before a submission, and to another candidate', async () => {
      const exam = app.exams.put(buildInternalExam({ questions, releasePolicy: 'immediately' }));
      const { attempt } = await sitExam(app, exam.id, { 1: 'Hydrogen' });
      const none = await review(attempt);
      expect(none.statusCode).toBe(403);
      expect(none.json().error.message).toBe(PracticeMessages.noReview);

      const practice = practiceExam();
      const open = await startAttempt(app, practice.id);
      expect((await review(open)).statusCode).toBe(404);
      const { attempt: done } = await sitExam(app, practice.id, {});
      const intruder = await app.inject({
        method: 'GET',
        url: `/api/attempts/${done.attemptId}/review`,
        headers: open.headers,
      });
      expect(intruder.statusCode).toBe(404);
    });
  });
});
