import { DEADLINE_GRACE_SECONDS, SubmitResponseSchema } from '@exam/domain/attempt';
import { AppError, ErrorCode } from '@exam/domain/errors';
import {
  FollowUpForGraderSchema,
  FollowUpMessages,
  FollowUpStateSchema,
  type FollowUpState,
} from '@exam/domain/follow-up';
import type { InternalExam } from '@exam/domain/internal';
import type { AuditEvent } from '@exam/domain/roles';
import { TEST_SECRETS } from '@exam/server-kit/testing';
import { TimelineSchema } from '@exam/domain/timeline';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { followUps } from '../../db/schema.ts';
import { buildTestApp, creatorHeaders, startAttempt, type TestApp } from '../../testing/app.ts';
import { CANARY, makeExam } from '../../testing/exams.ts';
import { fakeClock } from '../../testing/fakes.ts';

const T0 = new Date('2039-03-01T08:00:00.000Z');
const SECONDS = 60;
const GRACE_MS = DEADLINE_GRACE_SECONDS * 1000;

/** The assistant on, with follow-up questions (2 of 60 s each unless said otherwise). */
const aiSettings = (followUp: Record<string, unknown> = {}, enabled = true) => ({
  enabled,
  provider: 'openai',
  model: 'gpt-4o-mini',
  hasApiKey: true,
  apiKeyLast4: '1234',
  courseMaterials: [],
  encryptedApiKey: null,
  followUp: { enabled: true, questions: 2, secondsPerQuestion: SECONDS, ...followUp },
});

type Sitting = Awaited<ReturnType<typeof startAttempt>>;

describe('follow-up questions after submit', () => {
  const clock = fakeClock(T0);
  let app: TestApp;
  let defaultAnswer: TestApp['followUpQuestions']['state']['answer'];
  beforeAll(async () => {
    app = await buildTestApp({ deps: { clock } });
    defaultAnswer = app.followUpQuestions.state.answer;
  });
  afterEach(() => {
    app.followUpQuestions.state.answer = defaultAnswer;
    app.followUpQuestions.calls.length = 0;
  });
  afterAll(() => app.close());

  const putExam = (overrides: Partial<Record<keyof InternalExam, unknown>> = {}) =>
    app.exams.put(makeExam({ aiSettings: aiSettings(), ...overrides }));
  const answer = (s: Sitting, index: number, text: string) =>
    app.inject({
      method: 'PUT',
      url: `/api/attempts/${s.attemptId}/answers/${index}`,
      headers: s.headers,
      payload: { answer: text, seq: 1 },
    });
  const submitExam = async (s: Sitting) => {
    const response = await app.inject({
      method: 'POST',
      url: `/api/attempts/${s.attemptId}/submit`,
      headers: s.headers,
    });
    expect(response.statusCode).toBe(200);
    return SubmitResponseSchema.parse(response.json());
  };
  /** A candidate who answered the MCQ (wrongly), the short answer and the coding question, then submitted. */
  const sitAndSubmit = async (exam: InternalExam, studentId?: string) => {
    const s = await startAttempt(app, exam.id, studentId ? { studentId } : {});
    expect((await answer(s, 0, 'Nucleus')).statusCode).toBe(200);
    expect((await answer(s, 1, 'The organ that covers the body')).statusCode).toBe(200);
    expect((await answer(s, 3, 'def fib(n):\n    return n if n < 2 else fib(n - 1) + fib(n - 2)')).statusCode).toBe(
      200,
    );
    const submitted = await submitExam(s);
    return { ...s, resultId: submitted.resultId, submitted };
  };
  const followUp = (s: Sitting, action = '', method: 'GET' | 'POST' | 'PUT' = 'GET', payload?: object) =>
    app.inject({
      method,
      url: `/api/attempts/${s.attemptId}/follow-up${action}`,
      headers: s.headers,
      ...(payload ? { payload } : {}),
    });
  const stateOf = async (s: Sitting, action = '', method: 'GET' | 'POST' = 'GET', payload?: object) => {
    const response = await followUp(s, action, method, payload);
    expect(response.statusCode).toBe(200);
    return FollowUpStateSchema.parse(response.json());
  };
  const start = (s: Sitting) => stateOf(s, '/start', 'POST');
  const save = (s: Sitting, n: number, text: string, seq: number) =>
    followUp(s, `/${n}/answer`, 'PUT', { answer: text, seq });
  const grader = async (resultId: string, ownerId: string) => {
    const response = await app.inject({
      method: 'GET',
      url: `/api/results/${resultId}/follow-up`,
      headers: creatorHeaders(app, ownerId),
    });
    expect(response.statusCode).toBe(200);
    return FollowUpForGraderSchema.parse(response.json());
  };
  const mark = (resultId: string, ownerId: string, n: number, payload: object) =>
    app.inject({
      method: 'PUT',
      url: `/api/results/${resultId}/follow-up/${n}/mark`,
      headers: creatorHeaders(app, ownerId),
      payload,
    });
  const in1s = (iso: string, ms: number) => expect(Math.abs(Date.parse(iso) - ms)).toBeLessThan(1000);

  it('asks two questions about the candidate’s own answers, one at a time, and closes the second when its time runs out', async () => {
    const exam = putExam();
    const s = await sitAndSubmit(exam);
    expect(s.submitted.followUp).toBe(true);
    // The attempt's view of the exam told the candidate what comes after submit.
    const examView = await app.inject({ method: 'GET', url: `/api/attempts/${s.attemptId}/exam`, headers: s.headers });
    expect(examView.json().aiSettings.followUp).toEqual({ questions: 2, secondsPerQuestion: SECONDS });
    // Submitting again changes nothing and still says a follow-up comes.
    expect((await submitExam(s)).followUp).toBe(true);
    const pending = await stateOf(s);
    expect(pending).toMatchObject({ status: 'pending', total: 2, answered: 0, current: null, secondsPerQuestion: 60 });

    const asking = await start(s);
    expect(app.followUpQuestions.calls).toHaveLength(1);
    const { request } = app.followUpQuestions.calls[0]!;
    expect(request.examId).toBe(exam.id);
    expect(request.count).toBe(2);
    // The answered questions in the exam's order; the file upload and its missing answer left out.
    expect(request.answers.map((a) => [a.questionIndex, a.type, a.answer.slice(0, 7)])).toEqual([
      [0, 'mcq', 'Nucleus'],
      [1, 'short-answer', 'The org'],
      [3, 'coding', 'def fib'],
    ]);
    expect(request.answers[2]!.language).toBe('python');
    const sent = JSON.stringify(request);
    for (const secret of [CANARY, 'The Skin', s.studentId, 'Ada Lovelace']) expect(sent).not.toContain(secret);

    expect(asking).toMatchObject({ status: 'asking', total: 2, answered: 0 });
    const first = asking.current!;
    expect(first).toMatchObject({
      n: 1,
      text: 'Why did you answer question 1 that way?',
      probes: { questionNumber: 1, title: 'Cell powerhouse' },
      answer: '',
      seq: 0,
      askedAt: clock.now().toISOString(),
    });
    in1s(first.deadline, clock.now().getTime() + SECONDS * 1000);

    // Drafts: a stale seq is ignored, a newer one saved; a question not asked yet takes none.
    expect((await save(s, 1, 'Because the nucleus', 1)).json()).toEqual({ seq: 1 });
    expect((await save(s, 1, 'stale text', 1)).json()).toEqual({ seq: 1 });
    expect((await save(s, 1, 'Because the nucleus holds the DNA', 2)).json()).toEqual({ seq: 2 });
    const early = await save(s, 2, 'too early', 1);
    expect(early.statusCode).toBe(409);

    // A reload gives the same question, its draft and the time left.
    clock.advance(20_000);
    const resumed = await stateOf(s);
    expect(resumed.current).toMatchObject({
      n: 1,
      answer: 'Because the nucleus holds the DNA',
      seq: 2,
      deadline: first.deadline,
    });
    expect(Date.parse(resumed.current!.deadline) - Date.parse(resumed.serverNow)).toBe(40_000);

    const next = await stateOf(s, '/1/submit', 'POST', { answer: 'Because the nucleus holds the DNA.' });
    expect(next).toMatchObject({ status: 'asking', answered: 1 });
    expect(next.current).toMatchObject({ n: 2, probes: { questionNumber: 2, title: 'Largest organ' }, answer: '' });
    expect(next.current!.askedAt).toBe(clock.now().toISOString());
    const closed = await save(s, 1, 'changed my mind', 5);
    expect(closed.statusCode).toBe(409);
    expect(closed.json().error.message).toBe(FollowUpMessages.closed);

    expect((await save(s, 2, 'It covers', 1)).statusCode).toBe(200);
    clock.advance(SECONDS * 1000 + 1000);
    const done = await stateOf(s);
    expect(done).toMatchObject({ status: 'done', total: 2, answered: 2, current: null });
    // A save in flight at the deadline is still taken within the grace, then none.
    expect((await save(s, 2, 'It covers the body', 2)).json()).toEqual({ seq: 2 });
    clock.advance(GRACE_MS);
    const late = await save(s, 2, 'It covers the whole body', 3);
    expect(late.statusCode).toBe(409);
    expect(late.json().error.message).toBe(FollowUpMessages.closed);

    const view = await grader(s.resultId, exam.ownerId);
    expect(view.status).toBe('done');
    expect(view.questions).toMatchObject([
      { n: 1, questionIndex: 0, answer: 'Because the nucleus holds the DNA.', timedOut: false, mark: null },
      { n: 2, questionIndex: 1, answer: 'It covers the body', timedOut: true, answeredAt: next.current!.deadline },
    ]);
    expect(view.points).toEqual({ awarded: 0, max: 4, marked: 0 });
  });

  it('gives a candidate with a time factor proportionally more time per question', async () => {
    const exam = putExam();
    const studentId = `S-factor-${Date.now()}`;
    const override = await app.inject({
      method: 'PUT',
      url: `/api/exams/${exam.id}/overrides/${studentId}`,
      headers: creatorHeaders(app, exam.ownerId),
      payload: { timeFactor: 1.5 },
    });
    expect(override.statusCode).toBe(200);
    const s = await sitAndSubmit(exam, studentId);
    const asking = await start(s);
    expect(asking.secondsPerQuestion).toBe(90);
    expect(Date.parse(asking.current!.deadline) - Date.parse(asking.current!.askedAt)).toBe(90_000);
  });

  it('skips the follow-up with a note when llm-gateway cannot be reached, and the submission stands', async () => {
    const exam = putExam();
    const s = await sitAndSubmit(exam);
    app.followUpQuestions.down();
    const skipped = await start(s);
    expect(skipped).toMatchObject({ status: 'skipped', note: FollowUpMessages.skippedProvider, current: null });
    // Once skipped, a new start does not ask again.
    expect((await start(s)).status).toBe('skipped');
    expect(app.followUpQuestions.calls).toHaveLength(1);
    const result = await app.inject({
      method: 'GET',
      url: `/api/results/${s.resultId}`,
      headers: creatorHeaders(app, exam.ownerId),
    });
    expect(result.statusCode).toBe(200);
    expect(result.json()).toMatchObject({ answeredCount: 3, totalQuestions: 4 });
    expect((await grader(s.resultId, exam.ownerId)).note).toBe(FollowUpMessages.skippedProvider);
  });

  it.each([
    [ErrorCode.CONFLICT, FollowUpMessages.skippedNoAssistant],
    [ErrorCode.RATE_LIMITED, FollowUpMessages.skippedBudget],
    [ErrorCode.UPSTREAM, FollowUpMessages.skippedProvider],
  ])('skips with the note of the gateway’s %s', async (code, note) => {
    const exam = putExam();
    const s = await sitAndSubmit(exam);
    app.followUpQuestions.state.answer = async () => {
      throw new AppError(code, 'refused');
    };
    expect(await start(s)).toMatchObject({ status: 'skipped', note });
  });

  it('skips without asking the gateway when the candidate answered nothing it can ask about', async () => {
    const exam = putExam();
    const s = await startAttempt(app, exam.id);
    expect((await submitExam(s)).followUp).toBe(true);
    expect(await start(s)).toMatchObject({ status: 'skipped', note: FollowUpMessages.skippedNothing });
    expect(app.followUpQuestions.calls).toHaveLength(0);
  });

  it('generates once when several starts come at the same time', async () => {
    const exam = putExam();
    const s = await sitAndSubmit(exam);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    app.followUpQuestions.state.answer = async (call) => {
      await held;
      return defaultAnswer(call);
    };
    const starts = Promise.all([start(s), start(s), start(s)]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    release();
    const states: FollowUpState[] = await starts;
    expect(app.followUpQuestions.calls).toHaveLength(1);
    for (const state of states) expect(state.current).toEqual(states[0]!.current);
    expect(states[0]!.status).toBe('asking');
  });

  it('opens no follow-up when the exam has none, or its assistant is off', async () => {
    for (const settings of [aiSettings({ enabled: false }), aiSettings({}, false)]) {
      const exam = putExam({ aiSettings: settings });
      const s = await sitAndSubmit(exam);
      expect(s.submitted.followUp).toBe(false);
      const view = await app.inject({ method: 'GET', url: `/api/attempts/${s.attemptId}/exam`, headers: s.headers });
      expect(view.json().aiSettings.followUp).toBeNull();
      expect(await stateOf(s)).toMatchObject({ status: 'off', total: 0, current: null });
      expect(await start(s)).toMatchObject({ status: 'off' });
      expect(await grader(s.resultId, exam.ownerId)).toMatchObject({ status: 'off', questions: [] });
    }
    expect(app.followUpQuestions.calls).toHaveLength(0);
  });

  it('opens the follow-up when the deadline submits the attempt', async () => {
    const exam = putExam({ timerMinutes: 10 });
    const s = await startAttempt(app, exam.id);
    expect((await answer(s, 1, 'skin, I think')).statusCode).toBe(200);
    clock.advance(10 * 60_000 + GRACE_MS + 1000);
    await app.finalizeExpired();
    const [row] = await app.db.select().from(followUps).where(eq(followUps.attemptId, s.attemptId));
    expect(row).toMatchObject({ status: 'pending', count: 2, secondsPerQuestion: SECONDS, examId: exam.id });
    expect(row!.rubric).toHaveLength(3);
    const asking = await start(s);
    expect(asking.current).toMatchObject({ n: 1, probes: { questionNumber: 2 } });
  });

  it('lets the exam’s creator mark closed questions on the rubric copied at submission, and no one else', async () => {
    const exam = putExam({
      aiSettings: aiSettings({
        rubric: [
          { label: 'Good', points: 3 },
          { label: 'Poor', points: 1 },
        ],
      }),
    });
    const s = await sitAndSubmit(exam);
    await start(s);
    // The rubric is the submission's: a later edit of the exam does not move it.
    putExam({ id: exam.id, ownerId: exam.ownerId, aiSettings: aiSettings() });
    const open = await mark(s.resultId, exam.ownerId, 1, { level: 0 });
    expect(open.statusCode).toBe(409);
    await stateOf(s, '/1/submit', 'POST', { answer: 'Because it makes energy? No: it holds DNA.' });

    const marked = await mark(s.resultId, exam.ownerId, 1, { level: 0, feedback: 'Clear.' });
    expect(marked.statusCode).toBe(200);
    const view = FollowUpForGraderSchema.parse(marked.json());
    expect(view.rubric).toEqual([
      { label: 'Good', points: 3 },
      { label: 'Poor', points: 1 },
    ]);
    expect(view.questions[0]!.mark).toMatchObject({
      level: 0,
      points: 3,
      feedback: 'Clear.',
      markedBy: `${exam.ownerId}@example.test`,
    });
    expect(view.points).toEqual({ awarded: 3, max: 6, marked: 1 });

    const outside = await mark(s.resultId, exam.ownerId, 1, { level: 2 });
    expect(outside.statusCode).toBe(400);
    expect(outside.json().error.issues).toEqual([{ path: 'level', message: expect.stringContaining('0 to 1') }]);
    const bad = await mark(s.resultId, exam.ownerId, 1, { level: 'good' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('level');
    expect((await grader(s.resultId, exam.ownerId)).points.awarded).toBe(3);

    const stranger = 'another-creator';
    expect((await mark(s.resultId, stranger, 1, { level: 1 })).statusCode).toBe(404);
    const peek = await app.inject({
      method: 'GET',
      url: `/api/results/${s.resultId}/follow-up`,
      headers: creatorHeaders(app, stranger),
    });
    expect(peek.statusCode).toBe(404);
    expect(peek.body).not.toContain('nucleus');
    expect((await app.inject({ method: 'GET', url: `/api/results/${s.resultId}/follow-up` })).statusCode).toBe(401);

    const cleared = FollowUpForGraderSchema.parse((await mark(s.resultId, exam.ownerId, 1, { level: null })).json());
    expect(cleared.questions[0]!.mark).toBeNull();
    expect(cleared.points).toEqual({ awarded: 0, max: 6, marked: 0 });
  });

  it('records each change of a follow-up mark in the exam’s audit log, naming the grader who made it', async () => {
    const members = [
      { creatorId: 'fu-grader', email: 'fu-grader@example.test', role: 'grader', mayRelease: false },
      { creatorId: 'fu-proctor', email: 'fu-proctor@example.test', role: 'proctor', mayRelease: false },
    ];
    const exam = putExam({
      members,
      aiSettings: aiSettings({
        rubric: [
          { label: 'Good', points: 3 },
          { label: 'Poor', points: 1 },
        ],
      }),
    });
    const s = await sitAndSubmit(exam);
    await start(s);
    await stateOf(s, '/1/submit', 'POST', { answer: 'It holds the DNA.' });

    expect((await mark(s.resultId, 'fu-proctor', 1, { level: 0 })).statusCode).toBe(403);
    expect((await mark(s.resultId, 'fu-grader', 1, { level: 0, feedback: 'Clear.' })).statusCode).toBe(200);
    // The same mark again changes nothing and records nothing.
    expect((await mark(s.resultId, 'fu-grader', 1, { level: 0, feedback: 'Clear.' })).statusCode).toBe(200);
    expect((await mark(s.resultId, 'fu-grader', 1, { level: 0, feedback: 'Clear, brief.' })).statusCode).toBe(200);
    expect((await mark(s.resultId, exam.ownerId, 1, { level: null })).statusCode).toBe(200);

    const audit = await app.inject({
      method: 'GET',
      url: `/internal/exams/${exam.id}/audit-events`,
      headers: { 'x-internal-token': TEST_SECRETS.INTERNAL_TOKEN },
    });
    const events = audit
      .json<{ events: AuditEvent[] }>()
      .events.filter((e) => e.action === 'result.follow-up-graded')
      .reverse();
    expect(events.map((e) => [e.actorId, e.actorEmail, e.subject, e.detail])).toEqual([
      ['fu-grader', 'fu-grader@example.test', s.resultId, { followUpQuestion: 1, from: null, to: 3 }],
      ['fu-grader', 'fu-grader@example.test', s.resultId, { followUpQuestion: 1, from: 3, to: 3 }],
      [exam.ownerId, `${exam.ownerId}@example.test`, s.resultId, { followUpQuestion: 1, from: 3, to: null }],
    ]);
  });

  it('keeps one candidate out of another’s follow-up and refuses bad input with the field', async () => {
    const exam = putExam();
    const ada = await sitAndSubmit(exam);
    const bob = await sitAndSubmit(exam);
    await start(ada);
    for (const [method, action, payload] of [
      ['GET', '', undefined],
      ['POST', '/start', undefined],
      ['PUT', '/1/answer', { answer: 'mine now', seq: 9 }],
      ['POST', '/1/submit', { answer: 'mine now' }],
    ] as const) {
      const response = await app.inject({
        method,
        url: `/api/attempts/${ada.attemptId}/follow-up${action}`,
        headers: bob.headers,
        ...(payload ? { payload } : {}),
      });
      expect(response.statusCode).toBe(404);
    }
    expect((await stateOf(ada)).current).toMatchObject({ answer: '', seq: 0 });
    const tooLong = await save(ada, 1, 'x'.repeat(5001), 1);
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().error.issues[0].path).toBe('answer');
    const badN = await save(ada, 9, 'x', 1);
    expect(badN.statusCode).toBe(400);
    expect(badN.body).toContain('n');
  });

  it('lists the questions asked and answered on the attempt’s timeline', async () => {
    const exam = putExam();
    const s = await sitAndSubmit(exam);
    const asked = await start(s);
    clock.advance(5000);
    await stateOf(s, '/1/submit', 'POST', { answer: 'My answer.' });
    clock.advance(SECONDS * 1000 + 1000);
    const response = await app.inject({
      method: 'GET',
      url: `/api/results/${s.resultId}/timeline`,
      headers: creatorHeaders(app, exam.ownerId),
    });
    expect(response.statusCode).toBe(200);
    const events = TimelineSchema.parse(response.json()).events.filter((e) => e.kind.startsWith('follow-up'));
    expect(events).toEqual([
      { at: asked.current!.askedAt, kind: 'follow-up-asked', questionIndex: 0, detail: asked.current!.text },
      { at: expect.any(String), kind: 'follow-up-answered', questionIndex: 0, detail: 'answered' },
      { at: expect.any(String), kind: 'follow-up-asked', questionIndex: 1, detail: expect.any(String) },
      { at: expect.any(String), kind: 'follow-up-answered', questionIndex: 1, detail: 'timed-out' },
    ]);
    const kinds = TimelineSchema.parse(response.json()).events.map((e) => e.kind);
    expect(kinds.indexOf('submit')).toBeLessThan(kinds.indexOf('follow-up-asked'));
  });
});
