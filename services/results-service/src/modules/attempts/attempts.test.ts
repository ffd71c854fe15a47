import { WindowMessages } from '@exam/domain/cohort';
import { AttemptMessages, DEADLINE_GRACE_SECONDS } from '@exam/domain/attempt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAttemptsRepository } from './attempts.repository.ts';
import { buildTestApp, creatorHeaders, startAttempt, type TestApp } from '../../testing/app.ts';
import { CANARY, makeExam } from '../../testing/exams.ts';
import { fakeClock } from '../../testing/fakes.ts';

describe('attempts', () => {
  const clock = fakeClock(new Date('2030-01-01T09:00:00Z'));
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp({ deps: { clock } });
  });
  afterAll(() => app.close());

  const save = (
    attempt: { attemptId: string; headers: Record<string, string> },
    index: number,
    answer: string,
    seq: number,
  ) =>
    app.inject({
      method: 'PUT',
      url: `/api/attempts/${attempt.attemptId}/answers/${index}`,
      headers: attempt.headers,
      payload: { answer, seq },
    });
  const submit = (attempt: { attemptId: string; headers: Record<string, string> }, payload?: unknown) =>
    app.inject({
      method: 'POST',
      url: `/api/attempts/${attempt.attemptId}/submit`,
      headers: attempt.headers,
      ...(payload ? { payload } : {}),
    });

  it('starts an attempt with a deadline computed from the server clock when the exam is live', async () => {
    const exam = app.exams.put(makeExam({ timerMinutes: 45 }));
    const attempt = await startAttempt(app, exam.id);
    expect(attempt.resumed).toBe(false);
    expect(attempt.startedAt).toBe(clock.now().toISOString());
    expect(attempt.deadline).toBe(new Date(clock.now().getTime() + 45 * 60_000).toISOString());
    const claims = app.jwt.decode<Record<string, unknown>>(attempt.token)!;
    expect(claims).toMatchObject({
      kind: 'attempt',
      sub: attempt.attemptId,
      examId: exam.id,
      ownerId: exam.ownerId,
      name: 'Ada Lovelace',
      studentId: attempt.studentId,
    });
    // Valid for the time left plus a day, so the final submit and an examiner's extension still authenticate.
    expect(Number(claims.exp) - Number(claims.iat)).toBe(45 * 60 + 24 * 3600);
  });

  it('has no deadline when the exam has no timer', async () => {
    const exam = app.exams.put(makeExam({ timerEnabled: false }));
    const attempt = await startAttempt(app, exam.id);
    expect(attempt.deadline).toBeNull();
  });

  it('resumes the same attempt with the same deadline and a fresh token when the candidate starts again on the same browser', async () => {
    const exam = app.exams.put(makeExam());
    const first = await startAttempt(app, exam.id, { studentId: 'S-resume' });
    clock.advance(5 * 60_000);
    const again = await startAttempt(app, exam.id, { studentId: 'S-resume', resumeSecret: first.resumeSecret });
    expect(again.attemptId).toBe(first.attemptId);
    expect(again.resumed).toBe(true);
    expect(again.deadline).toBe(first.deadline);
    expect(again.token).not.toBe(first.token);
  });

  it('refuses drafts and unknown exams with 404 and offline exams with 403 EXAM_OFFLINE', async () => {
    const draft = app.exams.put(makeExam({ isDraft: true, isLive: false }));
    const offline = app.exams.put(makeExam({ isLive: false }));
    for (const examId of [draft.id, 'no-such-exam']) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/attempts',
        payload: { examId, name: 'A', studentId: 'B' },
      });
      expect(response.statusCode).toBe(404);
      expect(response.json().error.message).toBe(AttemptMessages.notFound);
    }
    const response = await app.inject({
      method: 'POST',
      url: '/api/attempts',
      payload: { examId: offline.id, name: 'A', studentId: 'B' },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toMatchObject({ code: 'EXAM_OFFLINE', message: AttemptMessages.offline });
  });

  it('rejects a start without a name with 400 naming the field', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/attempts',
      payload: { examId: 'x', name: '  ', studentId: 'B' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.issues[0].path).toBe('name');
  });

  it('refuses to start again with 409 after the candidate submitted', async () => {
    const exam = app.exams.put(makeExam());
    const attempt = await startAttempt(app, exam.id, { studentId: 'S-done' });
    expect((await submit(attempt)).statusCode).toBe(200);
    const again = await app.inject({
      method: 'POST',
      url: '/api/attempts',
      payload: { examId: exam.id, name: 'Ada', studentId: 'S-done', resumeSecret: attempt.resumeSecret },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(WindowMessages.noAttemptsLeft);
  });

  it('returns the saved answers and the server time in the attempt state', async () => {
    const exam = app.exams.put(makeExam());
    const attempt = await startAttempt(app, exam.id);
    expect((await save(attempt, 1, 'skin', 3)).json()).toEqual({ questionIndex: 1, seq: 3, applied: true });
    const state = await app.inject({
      method: 'GET',
      url: `/api/attempts/${attempt.attemptId}`,
      headers: attempt.headers,
    });
    expect(state.statusCode).toBe(200);
    expect(state.json()).toMatchObject({
      attemptId: attempt.attemptId,
      examId: exam.id,
      serverNow: clock.now().toISOString(),
      submittedAt: null,
      answers: { '1': { answer: 'skin', seq: 3 } },
    });
  });

  it('ignores a save whose seq is older than the stored one', async () => {
    const exam = app.exams.put(makeExam());
    const attempt = await startAttempt(app, exam.id);
    await save(attempt, 0, 'Nucleus', 5);
    const stale = await save(attempt, 0, 'Ribosome', 4);
    expect(stale.statusCode).toBe(200);
    expect(stale.json()).toEqual({ questionIndex: 0, seq: 5, applied: false });
    const repeat = await save(attempt, 0, 'Ribosome', 5);
    expect(repeat.json().applied).toBe(false);
    const state = await app.inject({
      method: 'GET',
      url: `/api/attempts/${attempt.attemptId}`,
      headers: attempt.headers,
    });
    expect(state.json().answers['0']).toEqual({ answer: 'Nucleus', seq: 5, operations: 0 });
  });

  it('answers 400 when the question index is beyond the exam', async () => {
    const exam = app.exams.put(makeExam());
    const attempt = await startAttempt(app, exam.id);
    const response = await save(attempt, 4, 'x', 1);
    expect(response.statusCode).toBe(400);
  });

  it('answers 400 naming the field for an answer holding U+0000, which PostgreSQL cannot store, and keeps the saved one', async () => {
    const attempt = await startAttempt(app, app.exams.put(makeExam()).id);
    await save(attempt, 0, 'Nucleus', 1);
    const response = await save(attempt, 0, 'Nuc\u0000leus', 2);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.issues).toEqual([
      { path: 'answer', message: 'must not contain the NUL character (U+0000)' },
    ]);
    const state = await app.inject({ url: `/api/attempts/${attempt.attemptId}`, headers: attempt.headers });
    expect(state.json().answers['0']).toEqual({ answer: 'Nucleus', seq: 1, operations: 0 });
  });

  it('refuses writes after submit with 409 ATTEMPT_CLOSED', async () => {
    const exam = app.exams.put(makeExam());
    const attempt = await startAttempt(app, exam.id);
    await submit(attempt);
    const response = await save(attempt, 0, 'Nucleus', 1);
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toMatchObject({ code: 'ATTEMPT_CLOSED', message: AttemptMessages.submitted });
  });

  it('accepts a save within the grace after the deadline and refuses one after it', async () => {
    const exam = app.exams.put(makeExam({ timerMinutes: 10 }));
    const attempt = await startAttempt(app, exam.id);
    clock.advance(10 * 60_000 + (DEADLINE_GRACE_SECONDS - 1) * 1000);
    expect((await save(attempt, 0, 'Nucleus', 1)).json().applied).toBe(true);
    clock.advance(2000);
    const late = await save(attempt, 0, 'Ribosome', 2);
    expect(late.statusCode).toBe(409);
    expect(late.json().error).toMatchObject({ code: 'ATTEMPT_CLOSED', message: AttemptMessages.expired });
  });

  it('returns the same result on a second submit and stores only one result', async () => {
    const exam = app.exams.put(makeExam());
    const attempt = await startAttempt(app, exam.id);
    await save(attempt, 0, CANARY, 1);
    const [first, second] = await Promise.all([submit(attempt), submit(attempt)]);
    const third = await submit(attempt);
    expect(first.statusCode).toBe(200);
    expect(second.json()).toEqual(first.json());
    expect(third.json()).toEqual(first.json());
    expect(first.json()).toMatchObject({ answered: 1, total: 4 });
    const list = await app.inject({ method: 'GET', url: '/api/results', headers: creatorHeaders(app, exam.ownerId) });
    expect(list.json().results.filter((r: { examId: string }) => r.examId === exam.id)).toHaveLength(1);
  });

  it('keeps every acknowledged save in the result when saves race the submit', async () => {
    const exam = app.exams.put(makeExam());
    const attempt = await startAttempt(app, exam.id);
    const saves = Array.from({ length: 20 }, (_v, i) => save(attempt, 1, `answer ${i + 1}`, i + 1));
    const [submitted, ...responses] = await Promise.all([submit(attempt), ...saves]);
    const acknowledged = responses.map((r, i) => ({
      status: r.statusCode,
      applied: r.statusCode === 200 && r.json().applied,
      seq: i + 1,
    }));
    expect(acknowledged.every((r) => r.status === 200 || r.status === 409)).toBe(true);
    const detail = (
      await app.inject({
        method: 'GET',
        url: `/api/results/${submitted!.json().resultId}`,
        headers: creatorHeaders(app, exam.ownerId),
      })
    ).json();
    const lastApplied = Math.max(0, ...acknowledged.filter((r) => r.applied).map((r) => r.seq));
    expect(detail.questionAnswers[1].answer).toBe(lastApplied ? `answer ${lastApplied}` : 'No answer provided');
    const state = (
      await app.inject({ method: 'GET', url: `/api/attempts/${attempt.attemptId}`, headers: attempt.headers })
    ).json();
    expect(state.answers['1']?.seq ?? 0).toBe(lastApplied);
  });

  it('refuses to store a result scored from answers that a later save changed, and the retry includes the save', async () => {
    const exam = app.exams.put(makeExam());
    const attempt = await startAttempt(app, exam.id);
    await save(attempt, 0, 'Nucleus', 1);
    const repo = createAttemptsRepository(app.database);
    const read = (await repo.readForSubmit(attempt.attemptId))!;
    expect(read.saved.get(0)).toBe('Nucleus');
    await save(attempt, 0, CANARY, 2);
    const stale = {
      attemptId: attempt.attemptId,
      examId: exam.id,
      ownerId: exam.ownerId,
      examTitle: 't',
      userName: 'n',
      studentId: 's',
      totalQuestions: 4,
      answeredCount: 1,
      score: 0,
      maxScore: 4,
      status: 'pending' as const,
      pendingCount: 2,
      gradedAt: null,
      timeSpent: 1,
      startedAt: clock.now(),
      completedAt: clock.now(),
      grades: [],
      workspaceFiles: {},
      testGradings: [],
      followUp: null,
    };
    expect(
      await repo.commitSubmission({ ...stale, id: `stale-${attempt.attemptId}` }, read.attempt.answersVersion),
    ).toBe(false);
    const { resultId } = (await submit(attempt)).json();
    const detail = (
      await app.inject({ method: 'GET', url: `/api/results/${resultId}`, headers: creatorHeaders(app, exam.ownerId) })
    ).json();
    expect(detail.questionAnswers[0]).toMatchObject({ answer: CANARY, points: 1, autoScored: true });
  });

  it('ignores a score forged in the submit body and scores on the server', async () => {
    const exam = app.exams.put(makeExam());
    const attempt = await startAttempt(app, exam.id);
    await save(attempt, 0, 'Nucleus', 1);
    const response = await submit(attempt, { score: 100, correctCount: 4, isGraded: true, answers: { 0: CANARY } });
    expect(response.statusCode).toBe(200);
    const detail = await app.inject({
      method: 'GET',
      url: `/api/results/${response.json().resultId}`,
      headers: creatorHeaders(app, exam.ownerId),
    });
    expect(detail.json()).toMatchObject({ score: 0, maxScore: 4, status: 'pending', isGraded: false });
    expect(detail.json().questionAnswers[0]).toMatchObject({ answer: 'Nucleus', points: 0, isGraded: true });
  });

  it('scores MCQ by exact option and short answers case-insensitively with spaces collapsed', async () => {
    const exam = app.exams.put(makeExam());
    const attempt = await startAttempt(app, exam.id);
    await save(attempt, 0, CANARY, 1);
    await save(attempt, 1, '  the   SKIN ', 1);
    const { resultId } = (await submit(attempt)).json();
    const detail = (
      await app.inject({ method: 'GET', url: `/api/results/${resultId}`, headers: creatorHeaders(app, exam.ownerId) })
    ).json();
    expect(detail.questionAnswers.map((q: { points: number | null }) => q.points)).toEqual([1, 1, null, null]);
    expect(detail.questionAnswers[2].answer).toBe('No answer provided');
    expect(detail).toMatchObject({
      score: 2,
      maxScore: 4,
      percentage: 50,
      status: 'pending',
      pendingCount: 2,
      answeredCount: 2,
      totalQuestions: 4,
      isGraded: false,
    });
  });

  it('grades with the snapshot taken at start even when the exam changes later', async () => {
    const exam = app.exams.put(makeExam());
    const attempt = await startAttempt(app, exam.id);
    app.exams.put({
      ...exam,
      questions: exam.questions.map((q, i) => (i === 0 ? { ...q, correctAnswer: 'Nucleus' } : q)),
    });
    await save(attempt, 0, CANARY, 1);
    const { resultId } = (await submit(attempt)).json();
    const detail = (
      await app.inject({ method: 'GET', url: `/api/results/${resultId}`, headers: creatorHeaders(app, exam.ownerId) })
    ).json();
    expect(detail.questionAnswers[0].points).toBe(1);
  });

  it('records events with the server time and the client time', async () => {
    const exam = app.exams.put(makeExam());
    const attempt = await startAttempt(app, exam.id);
    const events = [
      { type: 'focus-lost', clientAt: '2030-01-01T08:59:58Z', questionIndex: 1 },
      { type: 'paste-blocked', detail: 'len=40' },
    ];
    const response = await app.inject({
      method: 'POST',
      url: `/api/attempts/${attempt.attemptId}/events`,
      headers: attempt.headers,
      payload: { events },
    });
    expect(response.statusCode).toBe(202);
    expect(response.json()).toEqual({ recorded: 2, dropped: 0 });
    const bad = await app.inject({
      method: 'POST',
      url: `/api/attempts/${attempt.attemptId}/events`,
      headers: attempt.headers,
      payload: { events: [{ type: 'teleport' }] },
    });
    expect(bad.statusCode).toBe(400);
    const { resultId } = (await submit(attempt)).json();
    const detail = (
      await app.inject({ method: 'GET', url: `/api/results/${resultId}`, headers: creatorHeaders(app, exam.ownerId) })
    ).json();
    expect(detail.events).toEqual([
      {
        type: 'focus-lost',
        at: clock.now().toISOString(),
        clientAt: '2030-01-01T08:59:58Z',
        questionIndex: 1,
        detail: null,
      },
      { type: 'paste-blocked', at: clock.now().toISOString(), clientAt: null, questionIndex: null, detail: 'len=40' },
    ]);
  });
});
