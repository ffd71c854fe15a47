import { DEFAULT_AI_BUDGET, DEFAULT_GRADING_TOKENS } from '@exam/domain/exam-ai';
import { InternalExamSchema } from '@exam/domain/internal';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createCreator, createExam, type TestApp } from '../../testing/app.ts';

const INTERNAL = { 'x-internal-token': 'test-internal-token-that-is-long-enough-0123456789' };

/**
 * The grading budget (aiSettings.budget.gradingTokens) travels in the exam's stored aiSettings json: the creator
 * sets it, reads it back, and llm-gateway reads it from the internal route to bound AI-suggested marks.
 */
describe("an exam's grading budget", () => {
  let app: TestApp;
  let owner: Awaited<ReturnType<typeof createCreator>>;
  beforeAll(async () => {
    app = await buildTestApp();
    owner = await createCreator(app);
  });
  afterAll(() => app.close());

  const budgetOf = async (examId: string) => {
    const mine = await app.inject({ method: 'GET', url: `/api/exams/${examId}`, headers: owner.headers });
    const internal = await app.inject({ method: 'GET', url: `/internal/exams/${examId}`, headers: INTERNAL });
    return {
      creator: (mine.json() as { aiSettings: { budget: Record<string, number> } }).aiSettings.budget,
      gateway: InternalExamSchema.parse(internal.json()).aiSettings.budget,
    };
  };

  it('is stored as the creator sets it and returned to the creator and to the gateway', async () => {
    const exam = await createExam(app, owner.headers, {
      aiSettings: { budget: { ...DEFAULT_AI_BUDGET, gradingTokens: 750_000 } },
    });
    expect(await budgetOf(exam.id)).toEqual({
      creator: expect.objectContaining({ gradingTokens: 750_000 }),
      gateway: expect.objectContaining({ gradingTokens: 750_000 }),
    });
    const updated = await app.inject({
      method: 'PUT',
      url: `/api/exams/${exam.id}`,
      headers: owner.headers,
      payload: { aiSettings: { budget: { ...DEFAULT_AI_BUDGET, gradingTokens: 0 } } },
    });
    expect(updated.statusCode).toBe(200);
    expect((await budgetOf(exam.id)).gateway.gradingTokens).toBe(0);
  });

  it('starts at the default when the creator leaves it out', async () => {
    const exam = await createExam(app, owner.headers, { aiSettings: { enabled: true } });
    expect((await budgetOf(exam.id)).creator.gradingTokens).toBe(DEFAULT_GRADING_TOKENS);
  });

  it('refuses a budget that is negative or not whole with 400 naming the field, and keeps the stored one', async () => {
    const exam = await createExam(app, owner.headers, {
      aiSettings: { budget: { ...DEFAULT_AI_BUDGET, gradingTokens: 5000 } },
    });
    for (const gradingTokens of [-1, 2.5, 100_000_001]) {
      const response = await app.inject({
        method: 'PUT',
        url: `/api/exams/${exam.id}`,
        headers: owner.headers,
        payload: { aiSettings: { budget: { ...DEFAULT_AI_BUDGET, gradingTokens } } },
      });
      expect(response.statusCode).toBe(400);
      expect(JSON.stringify(response.json())).toContain('gradingTokens');
    }
    expect((await budgetOf(exam.id)).creator.gradingTokens).toBe(5000);
  });

  it('reads as the default for an exam stored before the field existed', async () => {
    const exam = await createExam(app, owner.headers);
    await app.examDatabase.db.execute(
      sql`update exam_service.exams set ai_settings = jsonb_set(ai_settings, '{budget}', (ai_settings->'budget') - 'gradingTokens') where id = ${exam.id}`,
    );
    const { creator, gateway } = await budgetOf(exam.id);
    expect(creator.gradingTokens).toBe(DEFAULT_GRADING_TOKENS);
    expect(gateway.gradingTokens).toBe(DEFAULT_GRADING_TOKENS);
  });

  it("answers 404 to another creator asking for or changing the exam's budget", async () => {
    const exam = await createExam(app, owner.headers, {
      aiSettings: { budget: { ...DEFAULT_AI_BUDGET, gradingTokens: 9000 } },
    });
    const other = await createCreator(app);
    const read = await app.inject({ method: 'GET', url: `/api/exams/${exam.id}`, headers: other.headers });
    expect(read.statusCode).toBe(404);
    const write = await app.inject({
      method: 'PUT',
      url: `/api/exams/${exam.id}`,
      headers: other.headers,
      payload: { aiSettings: { budget: { ...DEFAULT_AI_BUDGET, gradingTokens: 1 } } },
    });
    expect(write.statusCode).toBe(404);
    expect((await budgetOf(exam.id)).creator.gradingTokens).toBe(9000);
  });
});
