import { AttemptMessages, AttemptStateSchema, DEADLINE_GRACE_SECONDS } from '@exam/domain/attempt';
import type { InternalExam } from '@exam/domain/internal';
import { PublicExamSchema } from '@exam/domain/public-exam';
import { SectionMessages, SectionStateSchema } from '@exam/domain/sections';
import { TimelineSchema } from '@exam/domain/timeline';
import { TEST_SECRETS } from '@exam/server-kit/testing';
import { buildInternalExam } from '@exam/domain/testing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attempts } from '../../db/schema.ts';
import { buildTestApp, creatorHeaders, startAttempt, type TestApp } from '../../testing/app.ts';
import { fakeClock } from '../../testing/fakes.ts';
import { multipart } from '../../testing/multipart.ts';

type Attempt = Awaited<ReturnType<typeof startAttempt>>;
const MINUTE = 60_000;
const GRACE = DEADLINE_GRACE_SECONDS * 1000;

/**
 * An unaided section of 10 minutes, then one with the assistant. Written interleaved: the candidate's list puts
 * the unaided questions (u1, u-file) first.
 */
function sectionedExam(overrides: Partial<Record<keyof InternalExam, unknown>> = {}): InternalExam {
  return buildInternalExam({
    timerEnabled: true,
    timerMinutes: 60,
    sections: [
      { id: 'alone', title: 'On your own', assistant: false, timeLimitMinutes: 10 },
      { id: 'aided', title: 'With the assistant', assistant: true },
    ],
    questions: [
      { id: 'a1', type: 'short-answer', title: 'Aided one', acceptedAnswers: ['x'], sectionId: 'aided' },
      { id: 'u1', type: 'short-answer', title: 'Unaided one', acceptedAnswers: ['y'], sectionId: 'alone' },
      { id: 'u-file', type: 'file-upload', title: 'Unaided upload', sectionId: 'alone' },
      { id: 'a2', type: 'short-answer', title: 'Aided two', acceptedAnswers: ['z'], sectionId: 'aided' },
    ],
    ...overrides,
  });
}

describe('sections', () => {
  const clock = fakeClock(new Date('2033-03-01T09:00:00Z'));
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp({ deps: { clock } });
  });
  afterAll(() => app.close());

  const state = async (attempt: Attempt) => {
    const response = await app.inject({
      method: 'GET',
      url: `/api/attempts/${attempt.attemptId}`,
      headers: attempt.headers,
    });
    expect(response.statusCode).toBe(200);
    return AttemptStateSchema.parse(response.json());
  };
  const examView = async (attempt: Attempt) => {
    const response = await app.inject({
      method: 'GET',
      url: `/api/attempts/${attempt.attemptId}/exam`,
      headers: attempt.headers,
    });
    expect(response.statusCode).toBe(200);
    return PublicExamSchema.parse(response.json());
  };
  const internal = async (attempt: Attempt) =>
    (
      await app.inject({
        method: 'GET',
        url: `/internal/attempts/${attempt.attemptId}`,
        headers: { 'x-internal-token': TEST_SECRETS.INTERNAL_TOKEN },
      })
    ).json();
  const save = (attempt: Attempt, index: number, answer: string, seq: number) =>
    app.inject({
      method: 'PUT',
      url: `/api/attempts/${attempt.attemptId}/answers/${index}`,
      headers: attempt.headers,
      payload: { answer, seq },
    });
  const upload = (attempt: Attempt, index: number) => {
    const body = multipart('report.pdf', Buffer.from('%PDF-1.4 report'), 'application/pdf');
    return app.inject({
      method: 'POST',
      url: `/api/attempts/${attempt.attemptId}/files/${index}`,
      headers: { ...attempt.headers, ...body.headers },
      payload: body.payload,
    });
  };
  const advance = (attempt: Attempt, payload: unknown) =>
    app.inject({
      method: 'POST',
      url: `/api/attempts/${attempt.attemptId}/sections/advance`,
      headers: attempt.headers,
      payload: payload as object,
    });
  const errorOf = (response: { json(): unknown }) =>
    (response.json() as { error: { code: string; message: string } }).error;

  it('hands out one section at a time, moves on when asked (once), and locks the unaided section for good', async () => {
    const exam = app.exams.put(sectionedExam());
    const attempt = await startAttempt(app, exam.id);
    const started = new Date(attempt.startedAt);

    expect((await state(attempt)).section).toEqual({
      current: 0,
      startedAt: started.toISOString(),
      deadline: new Date(started.getTime() + 10 * MINUTE).toISOString(),
      locked: [],
      assistant: false,
    });
    const first = await examView(attempt);
    expect(first.questions.map((q) => q.id)).toEqual(['u1', 'u-file']);
    expect(first.questionCount).toBe(4);
    expect(first.sections).toEqual([
      { id: 'alone', title: 'On your own', assistant: false, timeLimitMinutes: 10, questionCount: 2 },
      { id: 'aided', title: 'With the assistant', assistant: true, timeLimitMinutes: null, questionCount: 2 },
    ]);
    expect(await internal(attempt)).toMatchObject({
      assistant: { available: false, reason: SectionMessages.assistantOff },
    });
    expect((await internal(attempt)).questions.map((q: { id: string }) => q.id)).toEqual(['u1', 'u-file']);

    expect((await save(attempt, 0, 'my own answer', 1)).statusCode).toBe(200);
    const ahead = await save(attempt, 2, 'peeking', 1);
    expect(ahead.statusCode).toBe(409);
    expect(errorOf(ahead)).toEqual({ code: 'SECTION_NOT_REACHED', message: SectionMessages.notReached });

    clock.advance(2 * MINUTE);
    const moved = await advance(attempt, { from: 0 });
    expect(moved.statusCode).toBe(200);
    const movedAt = clock.now().toISOString();
    expect(SectionStateSchema.parse(moved.json())).toEqual({
      current: 1,
      startedAt: movedAt,
      deadline: null,
      locked: [0],
      assistant: true,
    });
    // A retry after the move (the page lost the reply) does not move twice; the last section stays.
    clock.advance(1000);
    expect((await advance(attempt, { from: 0 })).json()).toEqual(moved.json());
    expect((await advance(attempt, { from: 1 })).json()).toEqual(moved.json());

    // Section locking holds against a direct API write: the saved unaided answer stays as it was.
    const back = await save(attempt, 0, 'fixed with help', 2);
    expect(back.statusCode).toBe(409);
    expect(errorOf(back)).toEqual({ code: 'SECTION_LOCKED', message: SectionMessages.locked });
    const file = await upload(attempt, 1);
    expect(file.statusCode).toBe(409);
    expect(errorOf(file).code).toBe('SECTION_LOCKED');
    const after = await state(attempt);
    expect(after.answers['0']).toMatchObject({ answer: 'my own answer', seq: 1 });
    expect(after.answers['1']).toBeUndefined();
    expect(after.section).toMatchObject({ current: 1, locked: [0], assistant: true });

    expect((await save(attempt, 2, 'aided answer', 1)).statusCode).toBe(200);
    expect((await examView(attempt)).questions.map((q) => q.id)).toEqual(['u1', 'u-file', 'a1', 'a2']);
    expect(await internal(attempt)).toMatchObject({ assistant: { available: true, reason: null } });
    expect((await internal(attempt)).questions).toHaveLength(4);

    // The grader's timeline shows when each section began.
    const submitted = await app.inject({
      method: 'POST',
      url: `/api/attempts/${attempt.attemptId}/submit`,
      headers: attempt.headers,
    });
    expect(submitted.statusCode).toBe(200);
    const timeline = await app.inject({
      method: 'GET',
      url: `/api/results/${submitted.json().resultId}/timeline`,
      headers: creatorHeaders(app, exam.ownerId),
    });
    expect(timeline.statusCode).toBe(200);
    const starts = TimelineSchema.parse(timeline.json()).events.filter((e) => e.kind === 'section-start');
    expect(starts).toEqual([
      { at: started.toISOString(), kind: 'section-start', detail: 'Section 1: On your own' },
      { at: movedAt, kind: 'section-start', detail: 'Section 2: With the assistant' },
    ]);
    // Not a proctoring incident: the result's own events leave it out.
    const result = await app.inject({
      method: 'GET',
      url: `/api/results/${submitted.json().resultId}`,
      headers: creatorHeaders(app, exam.ownerId),
    });
    expect(JSON.stringify(result.json())).not.toContain('section-start');

    const closed = await advance(attempt, { from: 1 });
    expect(closed.statusCode).toBe(409);
    expect(errorOf(closed)).toEqual({ code: 'ATTEMPT_CLOSED', message: AttemptMessages.submitted });
  });

  it('refuses a bad advance body with 400, a section not reached with 409, and an exam without sections', async () => {
    const attempt = await startAttempt(app, app.exams.put(sectionedExam()).id);
    for (const payload of [{}, { from: -1 }, { from: 'next' }]) {
      const response = await advance(attempt, payload);
      expect(response.statusCode).toBe(400);
      expect(errorOf(response).code).toBe('VALIDATION');
    }
    const early = await advance(attempt, { from: 1 });
    expect(early.statusCode).toBe(409);
    expect(errorOf(early).code).toBe('SECTION_NOT_REACHED');
    expect((await state(attempt)).section?.current).toBe(0);

    const plain = await startAttempt(
      app,
      app.exams.put(buildInternalExam({ questions: sectionedExam().questions.map((q) => ({ ...q, sectionId: null })) }))
        .id,
    );
    expect((await state(plain)).section).toBeUndefined();
    expect((await advance(plain, { from: 0 })).statusCode).toBe(409);
    expect((await examView(plain)).questions).toHaveLength(4);
    expect(await internal(plain)).toMatchObject({ assistant: { available: true, reason: null } });
  });

  it('moves on by itself when a section’s time runs out, takes saves in flight for the grace, then locks', async () => {
    const exam = app.exams.put(sectionedExam());
    const attempt = await startAttempt(app, exam.id);
    const started = new Date(attempt.startedAt).getTime();
    expect((await save(attempt, 0, 'draft', 1)).statusCode).toBe(200);

    clock.advance(10 * MINUTE + 5000);
    expect((await state(attempt)).section).toEqual({
      current: 1,
      startedAt: new Date(started + 10 * MINUTE).toISOString(),
      deadline: null,
      locked: [0],
      assistant: true,
    });
    expect((await examView(attempt)).questions).toHaveLength(4);
    expect(await internal(attempt)).toMatchObject({ assistant: { available: true } });
    // Typed before the time ran out, arriving just after: kept.
    expect((await save(attempt, 0, 'draft, finished', 2)).statusCode).toBe(200);

    clock.advance(GRACE);
    const late = await save(attempt, 0, 'too late', 3);
    expect(late.statusCode).toBe(409);
    expect(errorOf(late).code).toBe('SECTION_LOCKED');
    expect((await state(attempt)).answers['0']).toMatchObject({ answer: 'draft, finished', seq: 2 });
    // Stored once the grace passed, so every replica (and a later change of accommodation) agrees.
    const [row] = await app.db.select().from(attempts).where(eq(attempts.id, attempt.attemptId));
    expect(row).toMatchObject({ sectionIndex: 1, sectionStartedAt: new Date(started + 10 * MINUTE) });
    // The advance from the section already left answers where the candidate is, without moving.
    expect((await advance(attempt, { from: 0 })).json()).toMatchObject({ current: 1, locked: [0] });
  });

  it('scales section limits by the candidate’s time factor', async () => {
    const exam = app.exams.put(sectionedExam());
    const studentId = `S-slow-${Date.now()}`;
    const put = await app.inject({
      method: 'PUT',
      url: `/api/exams/${exam.id}/overrides/${studentId}`,
      headers: creatorHeaders(app, exam.ownerId),
      payload: { timeFactor: 1.5, extraMinutes: 20 },
    });
    expect(put.statusCode).toBe(200);
    const attempt = await startAttempt(app, exam.id, { studentId });
    const started = new Date(attempt.startedAt).getTime();
    const section = (await state(attempt)).section!;
    // 10 minutes × 1.5; the extra minutes go to the exam's deadline only.
    expect(section.deadline).toBe(new Date(started + 15 * MINUTE).toISOString());
    expect(attempt.deadline).toBe(new Date(started + (60 * 1.5 + 20) * MINUTE).toISOString());
    clock.advance(12 * MINUTE);
    expect((await state(attempt)).section?.current).toBe(0);
    clock.advance(3 * MINUTE);
    expect((await state(attempt)).section?.current).toBe(1);
  });

  it('closes the last section when its own limit and the grace are over, and leaves open what no assistant follows', async () => {
    const exam = app.exams.put(
      sectionedExam({
        sections: [
          { id: 'aided', title: 'With the assistant', assistant: true },
          { id: 'alone', title: 'On your own', assistant: false, timeLimitMinutes: 5 },
        ],
      }),
    );
    const attempt = await startAttempt(app, exam.id);
    // The aided section comes first now: a1, a2, then u1, u-file.
    expect((await examView(attempt)).questions.map((q) => q.id)).toEqual(['a1', 'a2']);
    expect((await advance(attempt, { from: 0 })).json()).toMatchObject({ current: 1, locked: [], assistant: false });
    expect(await internal(attempt)).toMatchObject({ assistant: { available: false } });
    // Nothing after the aided section has the assistant: going back to it is allowed.
    expect((await save(attempt, 0, 'revised', 1)).statusCode).toBe(200);
    clock.advance(5 * MINUTE + GRACE + 1000);
    const over = await save(attempt, 2, 'after time', 1);
    expect(over.statusCode).toBe(409);
    expect(errorOf(over)).toEqual({ code: 'ATTEMPT_CLOSED', message: AttemptMessages.expired });
  });
});
