import type { InternalExam, TranscriptMessage } from '@exam/domain/internal';
import { InsightsReportSchema } from '@exam/domain/insights';
import { gunzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, creatorHeaders, startAttempt, type TestApp } from '../../testing/app.ts';
import { makeExam } from '../../testing/exams.ts';
import { fakeExamSource, fakeTranscripts } from '../../testing/fakes.ts';
import { acceptsGzip } from './insights.routes.ts';

const questions = [
  { id: 'q1', type: 'mcq', title: 'Powerhouse', topic: 'Cells', options: ['a', 'b', 'c'], correctAnswer: 'a' },
  { id: 'q2', type: 'short-answer', title: 'Largest organ', topic: 'Organs', acceptedAnswers: ['skin'] },
  { id: 'q3', type: 'file-upload', title: 'Lab report', topic: 'Cells' },
];

const message = (id: string, role: 'user' | 'assistant', content: string): TranscriptMessage => ({
  id,
  role,
  content,
  questionIndex: 1,
  isError: false,
  files: [],
  createdAt: '2032-05-01T09:00:00.000Z',
});

/**
 * The insights cache (insights-cache.ts): two replicas on one database, each with Server-Timing on, so a
 * response computed afresh is told apart from a cached one by its `db` phase.
 */
describe('insights cache', () => {
  const examSource = fakeExamSource();
  const transcripts = fakeTranscripts();
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    const env = { INSIGHTS_SERVER_TIMING: '1' };
    a = await buildTestApp({ env, deps: { examSource, transcripts } });
    b = await buildTestApp({ env, deps: { examSource, transcripts } });
  });
  afterAll(async () => {
    await a.close();
    await b.close();
  });

  async function insights(app: TestApp, examId: string, ownerId: string) {
    const response = await app.inject({
      method: 'GET',
      url: `/api/exams/${examId}/insights`,
      headers: creatorHeaders(app, ownerId),
    });
    expect(response.statusCode).toBe(200);
    const computed = /(^|, )db;dur=/.test(String(response.headers['server-timing']));
    return { body: response.body, computed, report: InsightsReportSchema.parse(response.json()) };
  }

  /** What a computation from scratch gives now: the exam's cached reports dropped first. */
  async function fresh(examId: string, ownerId: string) {
    await a.db.execute(sql`delete from results_service.insights_reports where exam_id = ${examId}`);
    const got = await insights(a, examId, ownerId);
    expect(got.computed).toBe(true);
    return got.body;
  }

  async function sit(exam: InternalExam, name: string, answers: string[], submit = true) {
    const attempt = await startAttempt(a, exam.id, { name, studentId: `${name}-${exam.id}` });
    for (const [index, answer] of answers.entries()) {
      const saved = await a.inject({
        method: 'PUT',
        url: `/api/attempts/${attempt.attemptId}/answers/${index}`,
        headers: attempt.headers,
        payload: { answer, seq: 1 },
      });
      expect(saved.statusCode).toBeLessThan(300);
    }
    if (!submit) return { attempt, resultId: '' };
    const submitted = await a.inject({
      method: 'POST',
      url: `/api/attempts/${attempt.attemptId}/submit`,
      headers: attempt.headers,
    });
    expect(submitted.statusCode).toBe(200);
    return { attempt, resultId: submitted.json().resultId as string };
  }

  async function cohort() {
    const exam = examSource.put(makeExam({ questions }));
    const ada = await sit(exam, 'Ada', ['a', 'skin']);
    const bob = await sit(exam, 'Bob', ['b', 'liver']);
    return { exam, owner: exam.ownerId, ada, bob };
  }

  /**
   * After `change`, the next request is computed afresh (on replica `by`'s neighbour too), its body is the
   * one a computation from scratch gives, and the one after it is served from the cache again.
   */
  async function expectRecomputedAfter(examId: string, owner: string, change: () => Promise<unknown>) {
    const before = await insights(a, examId, owner);
    expect((await insights(b, examId, owner)).computed).toBe(false);
    await change();
    const after = await insights(b, examId, owner);
    expect(after.computed).toBe(true);
    const again = await insights(a, examId, owner);
    expect(again.computed).toBe(false);
    expect(again.body).toBe(after.body);
    expect(await fresh(examId, owner)).toBe(after.body);
    return { before, after };
  }

  it('serves the same bytes as a fresh computation, from either replica, until something changes', async () => {
    const { exam, owner } = await cohort();
    const first = await insights(a, exam.id, owner);
    expect(first.computed).toBe(true);
    const hit = await insights(a, exam.id, owner);
    expect(hit.computed).toBe(false);
    expect(hit.body).toBe(first.body);
    const otherReplica = await insights(b, exam.id, owner);
    expect(otherReplica.computed).toBe(false);
    expect(otherReplica.body).toBe(first.body);
    expect(await fresh(exam.id, owner)).toBe(first.body);
    expect(first.report.cohort.submitted).toBe(2);
  });

  it('sends the stored gzip to a client that accepts it, the same JSON once unpacked, computed or cached', async () => {
    const { exam, owner } = await cohort();
    const get = () =>
      a.inject({
        method: 'GET',
        url: `/api/exams/${exam.id}/insights`,
        headers: { ...creatorHeaders(a, owner), 'accept-encoding': 'br;q=1, gzip;q=0.8' },
      });
    const computed = await get();
    const cached = await get();
    const plain = await insights(b, exam.id, owner);
    for (const response of [computed, cached]) {
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBe('gzip');
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(gunzipSync(response.rawPayload).toString('utf8')).toBe(plain.body);
    }
    expect(plain.computed).toBe(false);
  });

  it('reads Accept-Encoding as RFC 9110 does: gzip or * with a weight above 0', () => {
    expect(acceptsGzip('gzip, deflate, br')).toBe(true);
    expect(acceptsGzip('*')).toBe(true);
    expect(acceptsGzip('GZIP;q=0.5')).toBe(true);
    expect(acceptsGzip('gzip;q=0')).toBe(false);
    expect(acceptsGzip('br, deflate')).toBe(false);
    expect(acceptsGzip(undefined)).toBe(false);
  });

  it('keeps one entry per model and per owner: another creator never gets the owner’s report', async () => {
    const { exam, owner } = await cohort();
    const auto = await insights(a, exam.id, owner);
    const rasch = await a.inject({
      method: 'GET',
      url: `/api/exams/${exam.id}/insights?model=rasch`,
      headers: creatorHeaders(a, owner),
    });
    expect(rasch.statusCode).toBe(200);
    expect(/(^|, )db;dur=/.test(String(rasch.headers['server-timing']))).toBe(true);
    expect((await insights(a, exam.id, owner)).body).toBe(auto.body);
    const stranger = await a.inject({
      method: 'GET',
      url: `/api/exams/${exam.id}/insights`,
      headers: creatorHeaders(a, 'someone-else'),
    });
    expect(stranger.statusCode).toBe(404);
  });

  it('recomputes after a grade, on the replica that did not write it, with the new mark', async () => {
    const { exam, owner, ada } = await cohort();
    const { before, after } = await expectRecomputedAfter(exam.id, owner, async () => {
      const graded = await a.inject({
        method: 'PATCH',
        url: `/api/results/${ada.resultId}`,
        headers: creatorHeaders(a, owner),
        payload: { grading: [{ questionIndex: 2, points: 1 }] },
      });
      expect(graded.statusCode).toBe(200);
    });
    const pendingOf = (r: typeof before) => r.report.cohort.pending;
    expect(pendingOf(before)).toBe(2);
    expect(pendingOf(after)).toBe(1);
  });

  it('recomputes after a release, a submission and a start, each showing in the report', async () => {
    const { exam, owner, ada } = await cohort();
    await a.inject({
      method: 'PATCH',
      url: `/api/results/${ada.resultId}`,
      headers: creatorHeaders(a, owner),
      payload: { grading: [{ questionIndex: 2, points: 1 }] },
    });
    const released = await expectRecomputedAfter(exam.id, owner, async () => {
      const res = await b.inject({
        method: 'POST',
        url: `/api/results/${ada.resultId}/release`,
        headers: creatorHeaders(b, owner),
        payload: { released: true },
      });
      expect(res.statusCode).toBe(200);
    });
    const statusOf = (r: typeof released.after) => r.report.candidates.find((c) => c.resultId === ada.resultId)?.result;
    expect(statusOf(released.before)?.status).toBe('graded');
    expect(statusOf(released.after)?.status).toBe('released');

    let open: Awaited<ReturnType<typeof sit>> | undefined;
    const started = await expectRecomputedAfter(exam.id, owner, async () => {
      open = await sit(exam, 'Cy', [], false);
    });
    expect(started.after.report.cohort.started).toBe(started.before.report.cohort.started + 1);

    // An answer saved during the sitting is not something the report reads: the cache still holds.
    const saved = await a.inject({
      method: 'PUT',
      url: `/api/attempts/${open!.attempt.attemptId}/answers/0`,
      headers: open!.attempt.headers,
      payload: { answer: 'a', seq: 1 },
    });
    expect(saved.statusCode).toBeLessThan(300);
    expect((await insights(b, exam.id, owner)).computed).toBe(false);

    const submitted = await expectRecomputedAfter(exam.id, owner, async () => {
      const res = await a.inject({
        method: 'POST',
        url: `/api/attempts/${open!.attempt.attemptId}/submit`,
        headers: open!.attempt.headers,
      });
      expect(res.statusCode).toBe(200);
    });
    expect(submitted.after.report.cohort.submitted).toBe(3);
  });

  it('recomputes after a regrade with a changed key, and after a keepGrade change', async () => {
    const { exam, owner, bob } = await cohort();
    const regraded = await expectRecomputedAfter(exam.id, owner, async () => {
      examSource.put({
        ...exam,
        questions: exam.questions.map((q, i) => (i === 0 ? { ...q, correctAnswer: 'b' } : q)),
      });
      const res = await a.inject({
        method: 'POST',
        url: `/api/exams/${exam.id}/regrade?dryRun=false`,
        headers: creatorHeaders(a, owner),
      });
      expect(res.statusCode).toBe(200);
    });
    const scoreOf = (r: typeof regraded.after) => r.report.candidates.find((c) => c.resultId === bob.resultId)?.result;
    expect(scoreOf(regraded.after)!.score).toBe(scoreOf(regraded.before)!.score + 1);

    const current = (await examSource.findExam(exam.id))!;
    const next = current.keepGrade === 'first' ? 'last' : 'first';
    await expectRecomputedAfter(exam.id, owner, async () => {
      examSource.put({ ...current, keepGrade: next });
    });
  });

  it('recomputes when the exam’s questions change in exam-service, and when a transcript changes', async () => {
    const { exam, owner, bob } = await cohort();
    await expectRecomputedAfter(exam.id, owner, async () => {
      examSource.put({ ...exam, questions: exam.questions.map((q, i) => (i === 1 ? { ...q, points: 3 } : q)) });
    });

    const chatted = await expectRecomputedAfter(exam.id, owner, async () => {
      transcripts.put(exam.id, {
        attemptId: bob.attempt.attemptId,
        messages: [message('m1', 'user', 'What is the largest organ?'), message('m2', 'assistant', 'The liver.')],
      });
    });
    expect(chatted.after.body).not.toBe(chatted.before.body);

    // llm-gateway down: the report without the assistant's figures, never the cached one with them.
    transcripts.down = true;
    try {
      const down = await insights(a, exam.id, owner);
      expect(down.computed).toBe(true);
      expect(down.report.integrity.copyWritingPercent).toBeNull();
    } finally {
      transcripts.down = false;
    }
    const back = await insights(b, exam.id, owner);
    expect(back.computed).toBe(true);
    expect(back.body).toBe(chatted.after.body);
  });

  it('recomputes after any write to the exam’s results or attempts, whatever code path made it', async () => {
    const { exam, owner, bob } = await cohort();
    await expectRecomputedAfter(exam.id, owner, () =>
      a.db.execute(sql`update results_service.results set updated_at = now() where id = ${bob.resultId}`),
    );
    const deleted = await expectRecomputedAfter(exam.id, owner, () =>
      a.db.execute(sql`delete from results_service.results where id = ${bob.resultId}`),
    );
    expect(deleted.after.report.cohort.submitted).toBe(1);
  });
});
