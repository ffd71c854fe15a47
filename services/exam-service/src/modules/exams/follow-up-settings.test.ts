import { DEFAULT_FOLLOW_UP, DEFAULT_FOLLOW_UP_RUBRIC, type FollowUpSettings } from '@exam/domain/follow-up';
import { InternalExamSchema } from '@exam/domain/internal';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createCreator, createExam, type TestApp } from '../../testing/app.ts';

const INTERNAL = { 'x-internal-token': 'test-internal-token-that-is-long-enough-0123456789' };
const RUBRIC = [
  { label: 'Knows it', points: 4 },
  { label: 'Guesses', points: 1 },
];

/**
 * Follow-up questions after submit (aiSettings.followUp) travel in the exam's stored aiSettings: the creator sets
 * and reads them, results-service reads them from the internal route at each start, and the candidate's public view
 * says how many come and how long each has.
 */
describe("an exam's follow-up questions", () => {
  let app: TestApp;
  let owner: Awaited<ReturnType<typeof createCreator>>;
  beforeAll(async () => {
    app = await buildTestApp();
    owner = await createCreator(app);
  });
  afterAll(() => app.close());

  const settingsOf = async (examId: string) => {
    const mine = await app.inject({ method: 'GET', url: `/api/exams/${examId}`, headers: owner.headers });
    const internal = await app.inject({ method: 'GET', url: `/internal/exams/${examId}`, headers: INTERNAL });
    return {
      creator: (mine.json() as { aiSettings: { followUp: FollowUpSettings } }).aiSettings.followUp,
      internal: InternalExamSchema.parse(internal.json()).aiSettings.followUp,
    };
  };
  const update = (examId: string, aiSettings: Record<string, unknown>) =>
    app.inject({ method: 'PUT', url: `/api/exams/${examId}`, headers: owner.headers, payload: { aiSettings } });
  const publicFollowUp = async (examId: string) =>
    (await app.inject({ method: 'GET', url: `/api/public/exams/${examId}` })).json().aiSettings.followUp;

  it('is stored as the creator sets it, returned to the creator and to the other services, and changed by an update', async () => {
    const followUp = { enabled: true, questions: 3, secondsPerQuestion: 240, rubric: RUBRIC };
    const exam = await createExam(app, owner.headers, { aiSettings: { enabled: true, followUp } });
    expect(await settingsOf(exam.id)).toEqual({ creator: followUp, internal: followUp });

    const changed = { ...followUp, questions: 1, secondsPerQuestion: 60 };
    expect((await update(exam.id, { enabled: true, followUp: changed })).statusCode).toBe(200);
    expect(await settingsOf(exam.id)).toEqual({ creator: changed, internal: changed });
  });

  it('tells the candidate how many questions come and how long each has, only while the assistant is on', async () => {
    const followUp = { enabled: true, questions: 2, secondsPerQuestion: 150 };
    const exam = await createExam(app, owner.headers, {
      isDraft: false,
      aiSettings: { enabled: true, followUp },
    });
    await app.inject({
      method: 'PUT',
      url: `/api/exams/${exam.id}`,
      headers: owner.headers,
      payload: { isLive: true },
    });
    expect(await publicFollowUp(exam.id)).toEqual({ questions: 2, secondsPerQuestion: 150 });
    expect((await update(exam.id, { enabled: false, followUp })).statusCode).toBe(200);
    expect(await publicFollowUp(exam.id)).toBeNull();
    expect((await update(exam.id, { enabled: true, followUp: { ...followUp, enabled: false } })).statusCode).toBe(200);
    expect(await publicFollowUp(exam.id)).toBeNull();
  });

  it('refuses settings outside their bounds with 400 naming the field, and keeps the stored ones', async () => {
    const followUp = { enabled: true, questions: 2, secondsPerQuestion: 120 };
    const exam = await createExam(app, owner.headers, { aiSettings: { enabled: true, followUp } });
    for (const [bad, field] of [
      [{ questions: 6 }, 'aiSettings.followUp.questions'],
      [{ secondsPerQuestion: 10 }, 'aiSettings.followUp.secondsPerQuestion'],
      [{ rubric: [{ label: 'Only one', points: 1 }] }, 'aiSettings.followUp.rubric'],
    ] as const) {
      const response = await update(exam.id, { enabled: true, followUp: { ...followUp, ...bad } });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.issues.map((i: { path: string }) => i.path)).toContain(field);
    }
    expect((await settingsOf(exam.id)).creator).toEqual({ ...followUp, rubric: DEFAULT_FOLLOW_UP_RUBRIC });
  });

  it('reads as off with the defaults for an exam stored before the field existed', async () => {
    const exam = await createExam(app, owner.headers, { aiSettings: { enabled: true } });
    await app.examDatabase.db.execute(
      sql`update exam_service.exams set ai_settings = ai_settings - 'followUp' where id = ${exam.id}`,
    );
    expect(await settingsOf(exam.id)).toEqual({ creator: DEFAULT_FOLLOW_UP, internal: DEFAULT_FOLLOW_UP });
  });
});
