import { randomUUID } from 'node:crypto';
import type { AttemptLtiLink } from '@exam/domain/lti-ags';
import { MAX_BULK_RESULTS, type ResultDetail } from '@exam/domain/result';
import { buildInternalExam } from '@exam/domain/testing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attempts, ltiScoreSyncs } from '../../db/schema.ts';
import { buildTestApp, creatorHeaders, type TestApp } from '../../testing/app.ts';
import { fakeClock } from '../../testing/fakes.ts';
import { multipart } from '../../testing/multipart.ts';
import { sitExam } from '../../testing/sitting.ts';
import { startAttempt } from '../../testing/app.ts';
import { BULK_UNANSWERED_REASON } from './bulk.service.ts';

/** A keyed MCQ (2 points) and a file upload (3 points) no key can score. */
const questions = [
  { id: 'pick', type: 'mcq', title: 'Pick one', options: ['a', 'b'], correctAnswer: 'a', points: 2 },
  { id: 'notebook', type: 'file-upload', title: 'Upload your notebook', points: 3 },
];

describe('unanswered questions', () => {
  const clock = fakeClock(new Date('2035-02-01T09:00:00Z'));
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp({ deps: { clock } });
  });
  afterAll(() => app.close());

  const examOf = (overrides: Record<string, unknown> = {}) =>
    app.exams.put(buildInternalExam({ questions, ...overrides }));
  const read = async (resultId: string, headers: Record<string, string>) =>
    (await app.inject({ method: 'GET', url: `/api/results/${resultId}`, headers })).json<ResultDetail>();
  const bulk = (headers: Record<string, string>, payload: unknown) =>
    app.inject({ method: 'POST', url: '/api/results/bulk', headers, payload: payload as object });

  describe('at submission', () => {
    it('scores a blank file upload 0 under the default policy, marked, so the result is graded, not pending', async () => {
      const exam = examOf();
      expect(exam.unansweredPolicy).toBe('zero');
      const owner = creatorHeaders(app, exam.ownerId);
      const { resultId } = await sitExam(app, exam.id, { 0: 'a' });
      const result = await read(resultId, owner);
      expect(result).toMatchObject({ status: 'graded', score: 2, maxScore: 5, pendingCount: 0, isGraded: true });
      expect(result.gradedAt).toBe(clock.now().toISOString());
      expect(result.questionAnswers[1]).toMatchObject({
        points: 0,
        autoScored: true,
        unanswered: true,
        isGraded: true,
      });
      expect(result.questionAnswers[0]?.unanswered).toBeUndefined();
    });

    it('leaves an uploaded file to the grader', async () => {
      const exam = examOf();
      const owner = creatorHeaders(app, exam.ownerId);
      const attempt = await startAttempt(app, exam.id);
      const body = multipart('notebook.ipynb', Buffer.from('{"cells": []}'), 'application/json');
      const uploaded = await app.inject({
        method: 'POST',
        url: `/api/attempts/${attempt.attemptId}/files/1`,
        headers: { ...attempt.headers, ...body.headers },
        payload: body.payload,
      });
      expect(uploaded.statusCode).toBe(200);
      const submitted = await app.inject({
        method: 'POST',
        url: `/api/attempts/${attempt.attemptId}/submit`,
        headers: attempt.headers,
      });
      const result = await read(submitted.json<{ resultId: string }>().resultId, owner);
      expect(result).toMatchObject({ status: 'pending', pendingCount: 1 });
      expect(result.questionAnswers[1]).toMatchObject({ points: null, isGraded: false });
    });

    it("keeps it waiting for a grader under the 'grader' policy", async () => {
      const exam = examOf({ unansweredPolicy: 'grader' });
      const owner = creatorHeaders(app, exam.ownerId);
      const { resultId } = await sitExam(app, exam.id, { 0: 'a' });
      const result = await read(resultId, owner);
      expect(result).toMatchObject({ status: 'pending', pendingCount: 1, gradedAt: null });
      expect(result.questionAnswers[1]).toMatchObject({ points: null });
    });

    it("shows an 'immediately' exam's result to its candidate at once when only blanks were left", async () => {
      const exam = examOf({ releasePolicy: 'immediately' });
      const { attempt } = await sitExam(app, exam.id, { 0: 'b' });
      const shown = await app.inject({
        method: 'GET',
        url: `/api/attempts/${attempt.attemptId}/result`,
        headers: attempt.headers,
      });
      expect(shown.statusCode).toBe(200);
      expect(shown.json()).toMatchObject({ status: 'graded', score: 0, maxScore: 5 });
    });

    it('lets a grader override the automatic 0', async () => {
      const exam = examOf();
      const owner = creatorHeaders(app, exam.ownerId);
      const { resultId } = await sitExam(app, exam.id, { 0: 'a' });
      const marked = await app.inject({
        method: 'PATCH',
        url: `/api/results/${resultId}`,
        headers: owner,
        payload: { grading: [{ questionIndex: 1, points: 2, feedback: 'Sent by e-mail' }] },
      });
      expect(marked.statusCode).toBe(200);
      expect(marked.json<ResultDetail>().questionAnswers[1]).toMatchObject({ points: 2, autoScored: false });
      expect(marked.json<ResultDetail>().questionAnswers[1]?.unanswered).toBeUndefined();
      expect(marked.json()).toMatchObject({ score: 4, status: 'graded' });
    });
  });

  describe('POST /api/results/bulk', () => {
    /** Two blank candidates and one who uploaded, on a 'grader' exam: all three pending. */
    async function pendingExam() {
      const exam = examOf({ unansweredPolicy: 'grader' });
      const owner = creatorHeaders(app, exam.ownerId);
      const blankA = await sitExam(app, exam.id, { 0: 'a' }, { name: 'Ada' });
      const blankB = await sitExam(app, exam.id, { 0: 'b' }, { name: 'Ben' });
      const uploaded = await sitExam(app, exam.id, { 0: 'a', 1: 'File: notebook.ipynb' }, { name: 'Cy' });
      return { exam, owner, blankA, blankB, uploaded };
    }

    it('scores the unanswered questions of the chosen results 0, with history, leaving answered ones pending', async () => {
      const { owner, blankA, blankB, uploaded, exam } = await pendingExam();
      const ids = [blankA.resultId, blankB.resultId, uploaded.resultId];
      const response = await bulk(owner, { action: 'score-unanswered', resultIds: [...ids, blankA.resultId] });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        action: 'score-unanswered',
        results: 3,
        changed: 2,
        pending: 1,
        questionsScored: 2,
      });
      const a = await read(blankA.resultId, owner);
      expect(a).toMatchObject({ status: 'graded', score: 2, pendingCount: 0 });
      expect(a.questionAnswers[1]).toMatchObject({ points: 0, unanswered: true, autoScored: false });
      expect(a.history.at(-1)).toMatchObject({
        kind: 'grade',
        by: `${exam.ownerId}@example.test`,
        questionIndex: 1,
        before: { points: null },
        after: { points: 0 },
        reason: BULK_UNANSWERED_REASON,
      });
      expect(await read(uploaded.resultId, owner)).toMatchObject({ status: 'pending', pendingCount: 1 });
      // Again: nothing left to score, nothing written.
      const again = await bulk(owner, { action: 'score-unanswered', resultIds: ids });
      expect(again.json()).toMatchObject({ changed: 0, questionsScored: 0, pending: 1 });
      expect((await read(blankA.resultId, owner)).history).toHaveLength(a.history.length);
    });

    it('releases the chosen graded results and leaves pending ones, then hides them again', async () => {
      const { owner, blankA, blankB, uploaded } = await pendingExam();
      await bulk(owner, { action: 'score-unanswered', resultIds: [blankA.resultId] });
      const released = await bulk(owner, {
        action: 'release',
        resultIds: [blankA.resultId, blankB.resultId, uploaded.resultId],
      });
      expect(released.json()).toEqual({ action: 'release', results: 3, changed: 1, pending: 2, questionsScored: 0 });
      const a = await read(blankA.resultId, owner);
      expect(a).toMatchObject({ status: 'released', releasedAt: clock.now().toISOString() });
      expect(a.history.at(-1)).toMatchObject({ kind: 'release', questionIndex: null });
      expect(await read(blankB.resultId, owner)).toMatchObject({ status: 'pending', releasedAt: null });
      const hidden = await bulk(owner, { action: 'unrelease', resultIds: [blankA.resultId] });
      expect(hidden.json()).toMatchObject({ changed: 1 });
      expect(await read(blankA.resultId, owner)).toMatchObject({ status: 'graded', releasedAt: null });
    });

    it('sends the LMS the score of a result released in bulk, as for one released alone', async () => {
      const exam = examOf();
      const owner = creatorHeaders(app, exam.ownerId);
      const sub = `lms-user-${randomUUID()}`;
      const lti: AttemptLtiLink = {
        platformId: 'platform-1',
        deploymentId: 'deployment-1',
        resourceLinkId: `link-${randomUUID()}`,
        lineItemUrl: 'https://lms.example.test/line_items/9',
        sub,
      };
      const learner = await sitExam(app, exam.id, { 0: 'a' }, { studentId: sub });
      await app.db.update(attempts).set({ lti }).where(eq(attempts.id, learner.attempt.attemptId));
      await bulk(owner, { action: 'release', resultIds: [learner.resultId] });
      const [outbox] = await app.db.select().from(ltiScoreSyncs).where(eq(ltiScoreSyncs.resultId, learner.resultId));
      expect(outbox).toMatchObject({ state: 'pending', scoreGiven: 2, scoreMaximum: 5 });
    });

    it("changes nothing and answers 404 when any result is another creator's", async () => {
      const { owner, blankA } = await pendingExam();
      const other = await pendingExam();
      const response = await bulk(owner, {
        action: 'score-unanswered',
        resultIds: [blankA.resultId, other.blankA.resultId],
      });
      expect(response.statusCode).toBe(404);
      expect(await read(blankA.resultId, owner)).toMatchObject({ status: 'pending' });
      expect(await read(other.blankA.resultId, other.owner)).toMatchObject({ status: 'pending' });
      // Without a creator's session: 401.
      expect((await bulk({}, { action: 'release', resultIds: [blankA.resultId] })).statusCode).toBe(401);
    });

    it('answers 400 naming the field for a bad action or list', async () => {
      const { owner, blankA } = await pendingExam();
      const cases: Array<[unknown, string]> = [
        [{ action: 'delete', resultIds: [blankA.resultId] }, 'action'],
        [{ action: 'release', resultIds: [] }, 'resultIds'],
        [{ action: 'release', resultIds: 'all' }, 'resultIds'],
        [
          { action: 'release', resultIds: Array.from({ length: MAX_BULK_RESULTS + 1 }, (_, i) => `r${i}`) },
          'resultIds',
        ],
        [{ action: 'release', resultIds: [''] }, 'resultIds'],
      ];
      for (const [payload, field] of cases) {
        const response = await bulk(owner, payload);
        expect(response.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
        expect(JSON.stringify(response.json())).toContain(field);
      }
    });
  });
});
