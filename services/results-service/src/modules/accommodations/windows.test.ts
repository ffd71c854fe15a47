import { DEADLINE_GRACE_SECONDS } from '@exam/domain/attempt';
import { WindowMessages } from '@exam/domain/cohort';
import { TEST_SECRETS } from '@exam/server-kit/testing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attempts, results } from '../../db/schema.ts';
import { buildTestApp, creatorHeaders, startAttempt, type TestApp } from '../../testing/app.ts';
import { makeExam } from '../../testing/exams.ts';
import { fakeClock } from '../../testing/fakes.ts';

const MIN = 60_000;

describe('availability windows and accommodations', () => {
  // Later than other suites' clocks: the finalizer here must find only expired attempts of this suite.
  const clock = fakeClock(new Date('2045-03-01T09:00:00Z'));
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp({ deps: { clock } });
    await app.finalizeExpired();
  });
  afterAll(() => app.close());

  const at = (offsetMinutes: number) => new Date(clock.now().getTime() + offsetMinutes * MIN).toISOString();
  const post = (examId: string, studentId: string) =>
    app.inject({ method: 'POST', url: '/api/attempts', payload: { examId, name: 'Ada', studentId } });
  const putOverride = (examId: string, studentId: string, payload: object, ownerId: string) =>
    app.inject({
      method: 'PUT',
      url: `/api/exams/${examId}/overrides/${encodeURIComponent(studentId)}`,
      headers: creatorHeaders(app, ownerId),
      payload,
    });
  const deadlineOf = async (attemptId: string) =>
    (await app.db.select({ d: attempts.deadline }).from(attempts).where(eq(attempts.id, attemptId)))[0]?.d;

  it('refuses a start before the window opens with 409 and the opening instant, and after it closes', async () => {
    const opensAt = at(60);
    const exam = app.exams.put(makeExam({ opensAt, closesAt: at(120) }));
    const early = await post(exam.id, 'S-early');
    expect(early.statusCode).toBe(409);
    const instant = new Date(opensAt).toISOString();
    expect(early.json().error).toEqual({
      code: 'CONFLICT',
      message: WindowMessages.notYetOpen(instant),
      issues: [{ path: 'opensAt', message: instant }],
    });

    const closed = app.exams.put(makeExam({ opensAt: at(-120), closesAt: at(-1) }));
    const late = await post(closed.id, 'S-late');
    expect(late.statusCode).toBe(409);
    expect(late.json().error.message).toBe(WindowMessages.closed);
    // Nothing was created: the candidate may still start once the window opens.
    clock.advance(61 * MIN);
    expect((await post(exam.id, 'S-early')).statusCode).toBe(201);
  });

  it('opens early and closes late for a candidate whose override gives them a window of their own', async () => {
    const exam = app.exams.put(makeExam({ opensAt: at(60), closesAt: at(120) }));
    expect((await putOverride(exam.id, 'S-own', { opensAt: at(-5) }, exam.ownerId)).statusCode).toBe(200);
    expect((await post(exam.id, 'S-own')).statusCode).toBe(201);
    expect((await post(exam.id, 'S-other')).statusCode).toBe(409);
  });

  it('gives the timer times the factor plus the extra minutes, and never past the close', async () => {
    const exam = app.exams.put(makeExam({ timerMinutes: 60, closesAt: at(200) }));
    await putOverride(exam.id, 'S-factor', { timeFactor: 1.5, extraMinutes: 10 }, exam.ownerId);
    const slow = await startAttempt(app, exam.id, { studentId: 's-FACTOR ' });
    expect(slow.deadline).toBe(at(100));
    const plain = await startAttempt(app, exam.id, { studentId: 'S-plain' });
    expect(plain.deadline).toBe(at(60));

    const closing = app.exams.put(makeExam({ timerMinutes: 60, closesAt: at(45) }));
    await putOverride(closing.id, 'S-capped', { extraMinutes: 30 }, closing.ownerId);
    expect((await startAttempt(app, closing.id, { studentId: 'S-capped' })).deadline).toBe(at(45));
    const untimed = app.exams.put(makeExam({ timerEnabled: false, closesAt: at(30) }));
    expect((await startAttempt(app, untimed.id)).deadline).toBe(at(30));
  });

  it('refuses writes after the close as after the deadline', async () => {
    const exam = app.exams.put(makeExam({ timerEnabled: false, closesAt: at(10) }));
    const attempt = await startAttempt(app, exam.id);
    clock.advance(10 * MIN + DEADLINE_GRACE_SECONDS * 1000 + 1000);
    const save = await app.inject({
      method: 'PUT',
      url: `/api/attempts/${attempt.attemptId}/answers/1`,
      headers: attempt.headers,
      payload: { answer: 'skin', seq: 1 },
    });
    expect(save.statusCode).toBe(409);
    expect(save.json().error.code).toBe('ATTEMPT_CLOSED');
    const events = await app.inject({
      method: 'POST',
      url: `/api/attempts/${attempt.attemptId}/events`,
      headers: attempt.headers,
      payload: { events: [{ type: 'focus-lost' }] },
    });
    expect(events.statusCode).toBe(409);
  });

  it("moves the deadline of the candidate's attempt in progress when the creator gives extra time, capped by the close", async () => {
    const exam = app.exams.put(makeExam({ timerMinutes: 30, closesAt: at(50) }));
    const attempt = await startAttempt(app, exam.id, { studentId: 'S-during' });
    expect(attempt.deadline).toBe(at(30));
    clock.advance(10 * MIN);
    const put = await putOverride(exam.id, 'S-during', { extraMinutes: 15 }, exam.ownerId);
    expect(put.statusCode).toBe(200);
    expect(put.json().override).toMatchObject({ studentId: 'S-during', extraMinutes: 15, timeFactor: null });
    expect((await deadlineOf(attempt.attemptId))?.toISOString()).toBe(at(35));
    const state = await app.inject({
      method: 'GET',
      url: `/api/attempts/${attempt.attemptId}`,
      headers: attempt.headers,
    });
    expect(state.json().deadline).toBe(at(35));

    // Omitted fields keep what was set; the close (40 minutes from now) caps a factor of 2.
    const doubled = await putOverride(exam.id, 'S-during', { timeFactor: 2 }, exam.ownerId);
    expect(doubled.json().override).toMatchObject({ extraMinutes: 15, timeFactor: 2 });
    expect((await deadlineOf(attempt.attemptId))?.toISOString()).toBe(at(40));
    // null clears: back to the exam's timer.
    await putOverride(exam.id, 'S-during', { timeFactor: null, extraMinutes: null }, exam.ownerId);
    expect((await deadlineOf(attempt.attemptId))?.toISOString()).toBe(at(20));
  });

  it("moves the deadlines of attempts in progress when exam-service says the exam's close changed", async () => {
    const exam = app.exams.put(makeExam({ timerMinutes: 60, closesAt: at(120) }));
    await putOverride(exam.id, 'S-long', { extraMinutes: 30 }, exam.ownerId);
    const long = await startAttempt(app, exam.id, { studentId: 'S-long' });
    const plain = await startAttempt(app, exam.id, { studentId: 'S-short' });
    expect([long.deadline, plain.deadline]).toEqual([at(90), at(60)]);
    app.exams.put({ ...exam, closesAt: at(75) });
    const recompute = (token: string) =>
      app.inject({
        method: 'POST',
        url: `/internal/exams/${exam.id}/deadlines`,
        headers: { 'x-internal-token': token },
      });
    expect((await recompute('wrong')).statusCode).toBe(401);
    const moved = await recompute(TEST_SECRETS.INTERNAL_TOKEN);
    expect(moved.json()).toEqual({ moved: 1 });
    expect((await deadlineOf(long.attemptId))?.toISOString()).toBe(at(75));
    expect((await deadlineOf(plain.attemptId))?.toISOString()).toBe(at(60));
  });

  it("finalizes an attempt with ×1.5 at its extended deadline, not at the exam's", async () => {
    const exam = app.exams.put(makeExam({ timerMinutes: 20 }));
    await putOverride(exam.id, 'S-slow', { timeFactor: 1.5 }, exam.ownerId);
    const slow = await startAttempt(app, exam.id, { studentId: 'S-slow' });
    const plain = await startAttempt(app, exam.id, { studentId: 'S-base' });
    const resultOf = async (attemptId: string) => app.db.select().from(results).where(eq(results.attemptId, attemptId));

    clock.advance(20 * MIN + DEADLINE_GRACE_SECONDS * 1000 + 1000);
    await app.finalizeExpired();
    expect(await resultOf(plain.attemptId)).toHaveLength(1);
    expect(await resultOf(slow.attemptId)).toHaveLength(0);

    clock.advance(10 * MIN);
    await app.finalizeExpired();
    const [result] = await resultOf(slow.attemptId);
    expect(result?.completedAt.toISOString()).toBe(slow.deadline);
    expect(result?.timeSpent).toBe(30 * 60);
  });

  it('names the field of bad overrides with 400', async () => {
    const exam = app.exams.put(makeExam({ opensAt: at(60) }));
    const negative = await putOverride(exam.id, 'S-bad', { extraMinutes: -5 }, exam.ownerId);
    expect(negative.statusCode).toBe(400);
    expect(negative.json().error.issues[0].path).toBe('extraMinutes');
    const reversed = await putOverride(exam.id, 'S-bad', { opensAt: at(30), closesAt: at(10) }, exam.ownerId);
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().error.issues[0].path).toBe('closesAt');
    // Before the exam's own opening, which the override leaves in place.
    const beforeExam = await putOverride(exam.id, 'S-bad', { closesAt: at(30) }, exam.ownerId);
    expect(beforeExam.statusCode).toBe(400);
    expect(beforeExam.json().error.issues[0].path).toBe('closesAt');
    const list = await app.inject({
      method: 'GET',
      url: `/api/exams/${exam.id}/overrides`,
      headers: creatorHeaders(app, exam.ownerId),
    });
    expect(list.json()).toEqual({ overrides: [] });
  });

  it("answers 404 to another creator, who neither reads nor changes the exam's overrides", async () => {
    const exam = app.exams.put(makeExam());
    await putOverride(exam.id, 'S-mine', { extraMinutes: 5 }, exam.ownerId);
    const write = await putOverride(exam.id, 'S-mine', { extraMinutes: 500 }, 'someone-else');
    expect(write.statusCode).toBe(404);
    const read = await app.inject({
      method: 'GET',
      url: `/api/exams/${exam.id}/overrides`,
      headers: creatorHeaders(app, 'someone-else'),
    });
    expect(read.statusCode).toBe(404);
    const own = await app.inject({
      method: 'GET',
      url: `/api/exams/${exam.id}/overrides`,
      headers: creatorHeaders(app, exam.ownerId),
    });
    expect(own.json().overrides).toEqual([expect.objectContaining({ studentId: 'S-mine', extraMinutes: 5 })]);
    const anonymous = await app.inject({ method: 'PUT', url: `/api/exams/${exam.id}/overrides/S-mine`, payload: {} });
    expect(anonymous.statusCode).toBe(401);
  });

  it('asks for the same admission as a start before briefing a new candidate, and says nothing when refused', async () => {
    const exam = app.exams.put(makeExam({ timerMinutes: 40 }));
    await putOverride(exam.id, 'S-private', { timeFactor: 2 }, exam.ownerId);
    app.access.refuse(exam.id, { message: 'The access code is not right', field: 'accessCode' });
    const refused = await app.inject({
      method: 'POST',
      url: '/api/attempts/briefing',
      payload: { examId: exam.id, name: 'Eve', studentId: 'S-private', accessCode: 'guess' },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.issues[0].path).toBe('accessCode');
    expect(refused.body).not.toContain('80');
  });

  it('briefs a candidate with ×1.5 on their own time and window, creating nothing', async () => {
    const exam = app.exams.put(
      makeExam({ timerMinutes: 40, opensAt: at(30), closesAt: at(300), attemptsAllowed: 2, rules: 'No notes' }),
    );
    await putOverride(exam.id, 'S-brief', { timeFactor: 1.5 }, exam.ownerId);
    const brief = (studentId: string) =>
      app.inject({
        method: 'POST',
        url: '/api/attempts/briefing',
        payload: { examId: exam.id, name: 'Bea', studentId },
      });
    const mine = await brief(' s-brief');
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toMatchObject({
      examId: exam.id,
      rules: 'No notes',
      durationMinutes: 60,
      baseDurationMinutes: 40,
      opensAt: at(30),
      closesAt: at(300),
      windowState: 'not-yet-open',
      questionCount: 4,
      attemptsAllowed: 2,
      attemptsUsed: 0,
      inProgress: false,
      workspaceEnabled: false,
      assistantEnabled: false,
      serverNow: clock.now().toISOString(),
    });
    expect((await brief('S-someone')).json()).toMatchObject({ durationMinutes: 40, windowState: 'not-yet-open' });
    clock.advance(31 * MIN);
    const started = await startAttempt(app, exam.id, { name: 'Bea', studentId: 'S-brief' });
    const during = await brief('S-brief');
    expect(during.json()).toMatchObject({ windowState: 'open', attemptsUsed: 1, inProgress: true });
    expect(during.body).not.toContain(started.attemptId);
    expect(during.body).not.toContain('Bea');
    expect(
      (await app.inject({ method: 'POST', url: '/api/attempts/briefing', payload: { examId: exam.id } })).json().error
        .issues[0].path,
    ).toBe('name');
  });
});
