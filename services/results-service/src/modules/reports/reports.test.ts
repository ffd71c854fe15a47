import { createHash } from 'node:crypto';
import type { CompactOperation } from '@exam/domain/answer-operations';
import {
  CandidateReportSchema,
  CreatedReportLinkSchema,
  ReportLinkListSchema,
  ReportMessages,
} from '@exam/domain/candidate-report';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, reportLinks } from '../../db/schema.ts';
import { buildTestApp, creatorHeaders, startAttempt, type TestApp } from '../../testing/app.ts';
import { CANARY, makeExam } from '../../testing/exams.ts';
import { sitExam } from '../../testing/sitting.ts';
import { REPORT_READS_PER_MINUTE } from './reports.module.ts';

/** Four one-point MCQs on two topics; the key of each is 'right'. */
const mcq = (id: string, topic: string) => ({
  id,
  type: 'mcq',
  title: `Question ${id}`,
  topic,
  options: ['wrong', 'right', CANARY],
  correctAnswer: 'right',
});
const QUESTIONS = [mcq('a1', 'Algebra'), mcq('g1', 'Geometry'), mcq('a2', 'Algebra'), mcq('g2', 'Geometry')];
/** The answers giving `right` correct ones out of four (the first `right` questions). */
const answersWith = (right: number) =>
  Object.fromEntries(QUESTIONS.map((_, i) => [i, i < right ? 'right' : 'wrong'])) as Record<number, string>;

describe('candidate reports', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp();
  });
  afterAll(() => app.close());

  const createLink = (
    resultId: string,
    headers: Record<string, string>,
    payload: Record<string, unknown> = { expiresInDays: 7 },
  ) => app.inject({ method: 'POST', url: `/api/results/${resultId}/report-links`, headers, payload });
  const listLinks = (resultId: string, headers: Record<string, string>) =>
    app.inject({ method: 'GET', url: `/api/results/${resultId}/report-links`, headers });
  const revoke = (resultId: string, linkId: string, headers: Record<string, string>) =>
    app.inject({ method: 'DELETE', url: `/api/results/${resultId}/report-links/${linkId}`, headers });
  /** The public read, from its own address so the suites' reads never share a rate-limit window. */
  const read = (token: string, remoteAddress = '198.51.100.1') =>
    app.inject({ method: 'GET', url: `/api/reports/${token}`, remoteAddress });

  async function examWithResult(opts: { fullScreenEnabled?: boolean } = {}) {
    const exam = app.exams.put(makeExam({ questions: QUESTIONS, timerMinutes: 30, ...opts }));
    const owner = creatorHeaders(app, exam.ownerId);
    const { resultId, attempt } = await sitExam(app, exam.id, answersWith(3), {
      name: 'Grace Hopper',
      studentId: 'H-0001',
    });
    return { exam, owner, resultId, attempt };
  }

  async function share(resultId: string, owner: Record<string, string>, days = 7) {
    const response = await createLink(resultId, owner, { expiresInDays: days });
    expect(response.statusCode).toBe(201);
    return CreatedReportLinkSchema.parse(response.json());
  }

  it('lets the owner make a link valid for the chosen days, lists it without its token and keeps only a hash', async () => {
    const { owner, resultId } = await examWithResult();
    const before = Date.now();
    const link = await share(resultId, owner, 30);
    expect(link).toMatchObject({ resultId, state: 'active', openCount: 0, revokedAt: null, lastOpenedAt: null });
    expect(link.createdBy).toMatch(/@example\.test$/);
    expect(link.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const lasts = new Date(link.expiresAt).getTime() - new Date(link.createdAt).getTime();
    expect(lasts).toBe(30 * 24 * 60 * 60 * 1000);
    expect(new Date(link.createdAt).getTime()).toBeGreaterThanOrEqual(before - 1000);

    const listed = ReportLinkListSchema.parse((await listLinks(resultId, owner)).json());
    expect(listed.links.map((l) => l.id)).toEqual([link.id]);
    expect(JSON.stringify(listed)).not.toContain(link.token);

    const [row] = await app.db.select().from(reportLinks).where(eq(reportLinks.id, link.id));
    expect(row!.tokenHash).toBe(createHash('sha256').update(link.token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(link.token);
  });

  it('answers 404 to another creator making, listing or revoking, 401 without a sign-in, 400 naming the field', async () => {
    const { owner, resultId } = await examWithResult();
    const link = await share(resultId, owner);
    const stranger = creatorHeaders(app, 'someone-else');
    expect((await createLink(resultId, stranger)).statusCode).toBe(404);
    expect((await listLinks(resultId, stranger)).statusCode).toBe(404);
    expect((await revoke(resultId, link.id, stranger)).statusCode).toBe(404);
    expect((await createLink(resultId, {})).statusCode).toBe(401);
    // The stranger's tries changed nothing: the link still opens.
    expect((await read(link.token)).statusCode).toBe(200);
    for (const expiresInDays of [0, 91, 2.5]) {
      const refused = await createLink(resultId, owner, { expiresInDays });
      expect(refused.statusCode).toBe(400);
      expect(JSON.stringify(refused.json())).toContain('expiresInDays');
    }
    expect((await read('short')).statusCode).toBe(400);
  });

  it('serves the report without a session: no answers, no keys, private headers, and counts the open', async () => {
    const { owner, resultId, exam } = await examWithResult();
    const link = await share(resultId, owner);
    const response = await read(link.token);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['x-robots-tag']).toBe('noindex, nofollow');
    const report = CandidateReportSchema.parse(response.json());
    expect(report).toMatchObject({
      candidate: { name: 'Grace Hopper', studentId: 'H-0001' },
      exam: { title: exam.title },
      attemptNo: 1,
      score: { points: 3, maxPoints: 4, percentage: 75, status: 'graded' },
      time: { limitSeconds: 30 * 60 },
      expiresAt: link.expiresAt,
    });
    // The first three right: both Algebra questions and the first Geometry one.
    expect(report.topics).toEqual({
      groupedBy: 'topic',
      rows: [
        { label: 'Algebra', number: 1, points: 2, maxPoints: 2, questions: 2, pending: 0 },
        { label: 'Geometry', number: 2, points: 1, maxPoints: 2, questions: 2, pending: 0 },
      ],
    });
    expect(report.collaboration.state).toBe('not-used');
    expect(response.body).not.toContain(CANARY);
    expect(response.body).not.toContain('"right"');

    await read(link.token);
    const [listed] = ReportLinkListSchema.parse((await listLinks(resultId, owner)).json()).links;
    expect(listed).toMatchObject({ openCount: 2, state: 'active' });
    expect(listed!.lastOpenedAt).not.toBeNull();
  });

  it('answers one 404 for an unknown, a revoked and an expired link, and lists them as such', async () => {
    const { owner, resultId } = await examWithResult();
    const revoked = await share(resultId, owner);
    const expired = await share(resultId, owner, 1);
    const unknown = await read('A'.repeat(43));
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toBe(ReportMessages.notFound);
    expect(unknown.headers['cache-control']).toBe('no-store');

    const revokedResponse = await revoke(resultId, revoked.id, owner);
    expect(revokedResponse.statusCode).toBe(200);
    expect(revokedResponse.json()).toMatchObject({ state: 'revoked' });
    const afterRevoke = await read(revoked.token);
    expect(afterRevoke.statusCode).toBe(404);
    expect(afterRevoke.json().error.message).toBe(ReportMessages.notFound);

    // A day later: the link's expiry has passed.
    await app.db
      .update(reportLinks)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(reportLinks.id, expired.id));
    const afterExpiry = await read(expired.token);
    expect(afterExpiry.statusCode).toBe(404);
    expect(afterExpiry.json().error.message).toBe(ReportMessages.notFound);

    const states = ReportLinkListSchema.parse((await listLinks(resultId, owner)).json()).links.map((l) => [
      l.id,
      l.state,
      l.openCount,
    ]);
    expect(states).toEqual(
      expect.arrayContaining([
        [revoked.id, 'revoked', 0],
        [expired.id, 'expired', 0],
      ]),
    );
  });

  it('places the score by mid-rank percentile among the graded candidates, withheld below five', async () => {
    const exam = app.exams.put(makeExam({ questions: QUESTIONS, attemptsAllowed: 2 }));
    const owner = creatorHeaders(app, exam.ownerId);
    // 25 %, 50 %, 75 % (this candidate), 75 %: four graded candidates.
    await sitExam(app, exam.id, answersWith(1), { studentId: 'P-1' });
    await sitExam(app, exam.id, answersWith(2), { studentId: 'P-2' });
    const { resultId } = await sitExam(app, exam.id, answersWith(3), { studentId: 'P-3' });
    await sitExam(app, exam.id, answersWith(3), { studentId: 'P-4' });
    const link = await share(resultId, owner);
    const small = CandidateReportSchema.parse((await read(link.token)).json());
    expect(small.percentile).toEqual({ value: null, cohortSize: 4, minimumCohort: 5, withheld: 'small-cohort' });

    // A fifth at 100 %: 25, 50, 75, 75, 100. For 75: 2 below, 2 equal → (2 + 2/2) / 5 = 60.
    const fifth = await sitExam(app, exam.id, answersWith(4), { studentId: 'P-5' });
    const placed = CandidateReportSchema.parse((await read(link.token)).json());
    expect(placed.percentile).toEqual({ value: 60, cohortSize: 5, minimumCohort: 5, withheld: null });

    // A second, weaker attempt of another candidate does not count twice: their kept (highest) result stands.
    const again = await startAttempt(app, exam.id, { studentId: 'P-5', resumeSecret: fifth.attempt.resumeSecret! });
    const submitted = await app.inject({
      method: 'POST',
      url: `/api/attempts/${again.attemptId}/submit`,
      headers: again.headers,
    });
    expect(submitted.statusCode).toBe(200);
    expect(CandidateReportSchema.parse((await read(link.token)).json()).percentile.cohortSize).toBe(5);
  });

  it('reports the integrity observations with their durations and the process shares', async () => {
    const exam = app.exams.put(makeExam({ questions: QUESTIONS, fullScreenEnabled: true }));
    const owner = creatorHeaders(app, exam.ownerId);
    const attempt = await startAttempt(app, exam.id, { name: 'Alan Turing', studentId: 'T-1' });
    // Typed "right" (5 characters).
    const ops: CompactOperation[] = [[1_000, 0, 'right', 0]];
    await app.inject({
      method: 'PUT',
      url: `/api/attempts/${attempt.attemptId}/answers/0`,
      headers: attempt.headers,
      payload: { answer: 'right', seq: 1, operations: { start: 0, ops } },
    });
    const t0 = Date.now();
    const at = (seconds: number) => new Date(t0 + seconds * 1000);
    await app.db.insert(events).values([
      { attemptId: attempt.attemptId, type: 'fullscreen-exit', recordedAt: at(1) },
      { attemptId: attempt.attemptId, type: 'fullscreen-enter', recordedAt: at(26) },
      { attemptId: attempt.attemptId, type: 'fullscreen-exit', recordedAt: at(30) },
      { attemptId: attempt.attemptId, type: 'fullscreen-enter', recordedAt: at(45) },
      { attemptId: attempt.attemptId, type: 'focus-lost', recordedAt: at(50) },
      { attemptId: attempt.attemptId, type: 'focus-gained', recordedAt: at(53) },
      { attemptId: attempt.attemptId, type: 'paste-blocked', recordedAt: at(54) },
    ]);
    const submitted = await app.inject({
      method: 'POST',
      url: `/api/attempts/${attempt.attemptId}/submit`,
      headers: attempt.headers,
    });
    const resultId = submitted.json<{ resultId: string }>().resultId;
    await app.processRecords.processOf(resultId);
    const link = await share(resultId, owner);
    const report = CandidateReportSchema.parse((await read(link.token)).json());
    expect(report.integrity).toEqual({
      fullScreenRequired: true,
      fullscreenExits: { count: 2, seconds: 40 },
      focusLost: { count: 1, seconds: 3 },
      pastesBlocked: 1,
    });
    expect(report.process).toMatchObject({ characters: 5, typedPercent: 100, assistantPercent: 0 });
  });

  it('refuses reads past the per-network limit with 429 and Retry-After', async () => {
    const { owner, resultId } = await examWithResult();
    const link = await share(resultId, owner);
    const address = '203.0.113.9';
    // Unknown tokens count as reads too (a guesser's). A window boundary may fall inside the loop: the count then
    // starts again, so the loop goes on until a refusal, at most two windows' worth.
    let refused = await read('B'.repeat(43), address);
    for (let i = 0; i < 2 * REPORT_READS_PER_MINUTE + 1 && refused.statusCode !== 429; i++)
      refused = await read(i % 10 ? 'B'.repeat(43) : link.token, address);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers['cache-control']).toBe('no-store');
    // Another network is not held back.
    expect((await read(link.token, '203.0.113.10')).statusCode).toBe(200);
  });
});
