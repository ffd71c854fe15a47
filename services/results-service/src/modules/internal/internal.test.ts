import { DEADLINE_GRACE_SECONDS } from '@exam/domain/attempt';
import { instantiateQuestion } from '@exam/domain/calculated';
import { QuestionSchema, toPublicQuestion } from '@exam/domain/question';
import { TEST_SECRETS } from '@exam/server-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, startAttempt, type TestApp } from '../../testing/app.ts';
import { makeExam } from '../../testing/exams.ts';
import { fakeClock } from '../../testing/fakes.ts';
import { calculatedKeysOf } from './internal.routes.ts';

describe('internal attempt lookup', () => {
  const clock = fakeClock(new Date('2032-01-01T00:00:00Z'));
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp({ deps: { clock } });
  });
  afterAll(() => app.close());

  const lookup = (id: string, token: string = TEST_SECRETS.INTERNAL_TOKEN) =>
    app.inject({ method: 'GET', url: `/internal/attempts/${id}`, headers: { 'x-internal-token': token } });

  it('reports an attempt open until its deadline plus grace passes', async () => {
    const exam = app.exams.put(makeExam({ timerMinutes: 1 }));
    const attempt = await startAttempt(app, exam.id);
    expect((await lookup(attempt.attemptId)).json()).toEqual({
      attemptId: attempt.attemptId,
      examId: exam.id,
      ownerId: exam.ownerId,
      startedAt: attempt.startedAt,
      deadline: attempt.deadline,
      submittedAt: null,
      isOpen: true,
      questions: exam.questions.map(toPublicQuestion),
      assistant: { available: true, reason: null },
      calculatedKeys: [],
    });
    clock.advance(60_000 + DEADLINE_GRACE_SECONDS * 1000 + 1);
    expect((await lookup(attempt.attemptId)).json().isOpen).toBe(false);
  });

  it("answers the snapshot's questions without answer keys, even after the live exam changed", async () => {
    const exam = app.exams.put(makeExam({ timerEnabled: false }));
    const attempt = await startAttempt(app, exam.id);
    app.exams.put({
      ...exam,
      questions: [...exam.questions].reverse().map((q) => ({ ...q, title: `edited ${q.title}` })),
    });
    const body = (await lookup(attempt.attemptId)).json();
    expect(body.questions.map((q: { title: string }) => q.title)).toEqual(exam.questions.map((q) => q.title));
    const text = JSON.stringify(body);
    for (const q of exam.questions) {
      if (q.correctAnswer) expect(text).not.toContain(`"correctAnswer"`);
      for (const accepted of q.acceptedAnswers ?? []) expect(text).not.toContain(accepted);
    }
  });

  it('reports a submitted attempt closed', async () => {
    const exam = app.exams.put(makeExam({ timerEnabled: false }));
    const attempt = await startAttempt(app, exam.id);
    await app.inject({ method: 'POST', url: `/api/attempts/${attempt.attemptId}/submit`, headers: attempt.headers });
    expect((await lookup(attempt.attemptId)).json()).toMatchObject({ isOpen: false, deadline: null });
  });

  it('refuses a call without the internal token and answers 404 for an unknown attempt', async () => {
    expect((await lookup('whatever', 'wrong-token')).statusCode).toBe(401);
    const anonymous = await app.inject({ method: 'GET', url: '/internal/attempts/whatever' });
    expect(anonymous.statusCode).toBe(401);
    expect((await lookup('no-such-attempt')).statusCode).toBe(404);
  });
});

describe('calculated keys for the answer guard', () => {
  const calculated = QuestionSchema.parse({
    id: 'calc',
    type: 'calculated',
    title: 'Speed over {d} m in {t} s?',
    calculated: {
      formula: 'd / t',
      variables: [
        { name: 'd', min: 100, max: 200, decimals: 0 },
        { name: 't', min: 9, max: 12, decimals: 1 },
      ],
      answerDecimals: 2,
    },
    matching: { numeric: { tolerance: 0.01, mode: 'absolute' } },
    units: { units: [{ symbol: 'm/s', multiplier: 1 }], required: false },
  });
  const short = QuestionSchema.parse({ id: 's', type: 'short-answer', title: 'Name', acceptedAnswers: ['Ohm'] });

  it("answers each instantiated calculated question's key with its tolerance, units and index", () => {
    const mine = instantiateQuestion(calculated, 'attempt-seed');
    expect(calculatedKeysOf([short, mine])).toEqual([
      {
        questionIndex: 1,
        questionId: 'calc',
        key: mine.acceptedAnswers[0],
        tolerance: { tolerance: 0.01, mode: 'absolute' },
        units: { units: [{ symbol: 'm/s', multiplier: 1 }], required: false },
      },
    ]);
    expect(Number(mine.acceptedAnswers[0])).toBeGreaterThan(8);
  });

  it('answers none for a calculated question not instantiated, or whose values gave no key', () => {
    expect(calculatedKeysOf([calculated])).toEqual([]);
    const noKey = { ...calculated, calculated: { ...calculated.calculated!, values: {} }, acceptedAnswers: [] };
    expect(calculatedKeysOf([noKey])).toEqual([]);
  });
});
