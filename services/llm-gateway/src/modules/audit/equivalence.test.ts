import { randomUUID } from 'node:crypto';
import {
  EquivalenceReportSchema,
  type AuditConfiguration,
  type AuditEstimate,
  type AuditItem,
  type EquivalenceReport,
} from '@exam/domain/assistant-audit';
import type { InternalExam } from '@exam/domain/internal';
import { QuestionSchema } from '@exam/domain/question';
import type { SolvabilityCheck, SolvabilityItem, SolvabilityStatus } from '@exam/domain/solvability';
import { openTestDatabase } from '@exam/server-kit/testing';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER, MIGRATIONS_SCHEMA } from '../../db/database.ts';
import * as schema from '../../db/schema.ts';
import { assistantAudits, solvabilityChecks } from '../../db/schema.ts';
import { buildTestApp, creatorHeaders, TEST_ENDPOINTS, type TestApp } from '../../testing/app.ts';
import { makeExam } from '../../testing/exams.ts';
import { openAiFrames, recordingHandler, sseResponse, type RecordedCall } from '../../testing/provider-mocks.ts';
import { EquivalenceMessages } from './equivalence.service.ts';

const OPENAI = `${TEST_ENDPOINTS.openai}/chat/completions`;
const server = setupServer();
const calls: RecordedCall[] = [];

const questions = [
  QuestionSchema.parse({
    id: 'q1',
    type: 'mcq',
    title: 'Which measure resists outliers?',
    options: ['Mean', 'Median', 'Range'],
    correctAnswer: 'Median',
  }),
  QuestionSchema.parse({
    id: 'q2',
    type: 'short-answer',
    title: 'What shrinks as n grows?',
    acceptedAnswers: ['Standard Error'],
  }),
];
const MINI: AuditConfiguration = { provider: 'openai', model: 'gpt-4o-mini', baseUrl: '' };
const GPT4O: AuditConfiguration = { provider: 'openai', model: 'gpt-4o', baseUrl: '' };

/** gpt-4o names every key; gpt-4o-mini never does (OpenAI's real stream frames). */
const twoModels = () =>
  server.use(
    recordingHandler(OPENAI, calls, (call) => {
      const system = (call.body.messages as Array<{ content: string }>)[0]?.content ?? '';
      const texts =
        call.body.model !== 'gpt-4o'
          ? ['I cannot give you the answer. ', 'Think about each measure.']
          : /currently looking at Q1/.test(system)
            ? ['The correct answer is B: ', 'the Median.']
            : ['It is the standard ', 'error.'];
      return sseResponse(openAiFrames(texts, undefined, String(call.body.model)));
    }),
  );

const ESTIMATE: AuditEstimate = {
  batteryVersion: 'test',
  keyedItems: 2,
  attempts: 50,
  calls: 50,
  inputTokens: 0,
  outputTokens: 0,
  costUsd: null,
  configurations: [],
  budget: { limit: 0, used: 0, remaining: 0 },
  fits: true,
};

function auditItem(configuration: number, questionIndex: number, guardedLeaks: number, done = 25): AuditItem {
  return {
    configuration,
    questionIndex,
    questionId: `q${questionIndex + 1}`,
    title: questions[questionIndex]?.title ?? '',
    type: questions[questionIndex]?.type ?? 'mcq',
    attempts: done,
    done,
    errors: 0,
    rawLeaks: guardedLeaks,
    guardedLeaks,
    rawLeakRate: guardedLeaks / done,
    guardedLeakRate: guardedLeaks / done,
    guardedInterval: null,
    formsLeaked: [],
    rawFormsLeaked: [],
    leaks: [],
  };
}

describe('provider equivalence of an assistant audit', () => {
  let app: TestApp;
  let db: Awaited<ReturnType<typeof openTestDatabase<typeof schema>>>['db'];
  beforeAll(async () => {
    server.listen({ onUnhandledRequest: 'error' });
    app = await buildTestApp({ env: { SOLVABILITY_HEARTBEAT_MS: '20' } });
    db = (await openTestDatabase({ schema, migrationsFolder: MIGRATIONS_FOLDER, migrationsSchema: MIGRATIONS_SCHEMA }))
      .db;
  });
  afterEach(() => {
    server.resetHandlers();
    calls.length = 0;
  });
  afterAll(async () => {
    await app.close();
    server.close();
  });

  const examWith = (ai: Partial<InternalExam['aiSettings']> = {}) => {
    const exam = makeExam({ questions, ai });
    app.platform.exams.set(exam.id, exam);
    return exam;
  };
  async function insertAudit(
    exam: InternalExam,
    opts: { configurations?: AuditConfiguration[]; examVersion?: string; items?: AuditItem[] } = {},
  ) {
    const id = randomUUID();
    const now = new Date();
    await db.insert(assistantAudits).values({
      id,
      examId: exam.id,
      ownerId: exam.ownerId,
      examVersion: opts.examVersion ?? 'v1',
      batteryVersion: 'test',
      status: 'completed',
      configurations: opts.configurations ?? [MINI, GPT4O],
      concurrency: 2,
      maxTokens: 100_000,
      estimate: ESTIMATE,
      items: opts.items ?? [],
      leaseOwner: 'test',
      leaseExpiresAt: now,
      startedAt: now,
      finishedAt: now,
    });
    return id;
  }
  async function insertCheck(
    exam: InternalExam,
    opts: {
      status?: SolvabilityStatus;
      examVersion?: string;
      configurations?: AuditConfiguration[];
      startedAt: Date;
      items?: SolvabilityItem[];
    },
  ) {
    const id = randomUUID();
    await db.insert(solvabilityChecks).values({
      id,
      examId: exam.id,
      ownerId: exam.ownerId,
      status: opts.status ?? 'completed',
      phrasingsPerQuestion: 1,
      maxCalls: 10,
      maxTokens: 10_000,
      items: opts.items ?? [],
      leaseOwner: 'test',
      leaseExpiresAt: opts.startedAt,
      startedAt: opts.startedAt,
      finishedAt: opts.status === 'running' ? null : opts.startedAt,
      examVersion: opts.examVersion ?? 'v1',
      configurations: opts.configurations ?? [MINI, GPT4O],
    });
    return id;
  }
  const equivalence = (examId: string, auditId: string, ownerId: string) =>
    app.inject({
      method: 'GET',
      url: `/api/exams/${examId}/assistant-audits/${auditId}/equivalence`,
      headers: creatorHeaders(app, ownerId),
    });

  it('reports per item the leak and solvability of each model, the differences and their verdicts', async () => {
    twoModels();
    const exam = examWith({ stopSolutions: false });
    const started = await app.inject({
      method: 'POST',
      url: `/api/exams/${exam.id}/solvability-checks`,
      headers: creatorHeaders(app, exam.ownerId),
      payload: { phrasingsPerQuestion: 5, compareWith: [{ provider: 'openai', model: 'gpt-4o' }] },
    });
    expect(started.statusCode).toBe(202);
    let check = started.json<SolvabilityCheck>();
    for (let i = 0; i < 250 && check.status === 'running'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      check = (
        await app.inject({
          method: 'GET',
          url: `/api/exams/${exam.id}/solvability-checks/${check.id}`,
          headers: creatorHeaders(app, exam.ownerId),
        })
      ).json<SolvabilityCheck>();
    }
    expect(check.status).toBe('completed');
    // The audit of the same exam version over the same configurations: gpt-4o leaks the MCQ past the guard in 20
    // of 25 attempts against 1 of 25 for gpt-4o-mini; neither leaks the short answer.
    const auditId = await insertAudit(exam, {
      examVersion: check.examVersion,
      configurations: check.configurations,
      items: [auditItem(0, 0, 1), auditItem(0, 1, 0), auditItem(1, 0, 20), auditItem(1, 1, 0)],
    });

    const response = await equivalence(exam.id, auditId, exam.ownerId);
    expect(response.statusCode).toBe(200);
    const report: EquivalenceReport = EquivalenceReportSchema.parse(response.json());
    expect(report).toMatchObject({ auditId, solvabilityCheckId: check.id, margin: 0.2, verdict: 'differs' });
    expect(report.configurations).toEqual([MINI, GPT4O]);
    const [mcq, short] = report.items;
    expect(mcq).toMatchObject({ questionIndex: 0, questionId: 'q1', title: 'Which measure resists outliers?' });
    expect(mcq?.leak.map((p) => [p.k, p.n])).toEqual([
      [1, 25],
      [20, 25],
    ]);
    expect(mcq?.leak[0]?.low).toBeGreaterThan(0);
    expect(mcq?.leakDifference).toMatchObject([{ configuration: 1, verdict: 'differs' }]);
    expect(mcq?.leakDifference[0]?.estimate).toBeCloseTo(0.76, 12);
    // Five phrasings asked of each model: gpt-4o gave both answers away every time, gpt-4o-mini never.
    for (const item of [mcq, short]) {
      expect(item?.solvability.map((p) => [p.k, p.n])).toEqual([
        [0, 5],
        [5, 5],
      ]);
      expect(item?.solvabilityDifference).toMatchObject([{ configuration: 1, estimate: 1, verdict: 'differs' }]);
    }
    expect(short?.leakDifference).toMatchObject([{ configuration: 1, estimate: 0, verdict: 'equivalent' }]);
    expect(report.summary).toBe(
      'gpt-4o leaks past the guard more than gpt-4o-mini on 1 of 2 items; gpt-4o gives the answer away more often than gpt-4o-mini on 2 of 2 items.',
    );
  });

  it('uses the newest finished check of the same exam version and configurations, and none otherwise', async () => {
    const exam = examWith();
    const other = examWith();
    const at = (minutes: number) => new Date(Date.UTC(2026, 10, 1, 9, minutes));
    const gaveAway: SolvabilityItem = {
      configuration: 1,
      questionIndex: 0,
      questionId: 'q1',
      title: 'Which measure resists outliers?',
      type: 'mcq',
      verdict: 'gives-away',
      reason: null,
      replies: [{ phrasing: 'p', text: 'B', truncated: false, outcome: 'answer', hasCode: false }],
    };
    await insertCheck(exam, { startedAt: at(1) });
    const chosen = await insertCheck(exam, { status: 'budget-exhausted', startedAt: at(2), items: [gaveAway] });
    // Newer, but not usable: still running, cancelled, another version, the configurations the other way round,
    // fewer configurations, another exam.
    await insertCheck(exam, { status: 'running', startedAt: at(3) });
    await insertCheck(exam, { status: 'cancelled', startedAt: at(4) });
    await insertCheck(exam, { examVersion: 'v0', startedAt: at(5) });
    await insertCheck(exam, { configurations: [GPT4O, MINI], startedAt: at(6) });
    await insertCheck(exam, { configurations: [MINI], startedAt: at(7) });
    await insertCheck(other, { startedAt: at(8) });

    const auditId = await insertAudit(exam, { items: [auditItem(0, 0, 3), auditItem(1, 0, 4)] });
    const report = (await equivalence(exam.id, auditId, exam.ownerId)).json<EquivalenceReport>();
    expect(report.solvabilityCheckId).toBe(chosen);
    expect(report.items[0]?.solvability.map((p) => [p.k, p.n])).toEqual([
      [0, 0],
      [1, 1],
    ]);
    expect(report.items[0]?.solvabilityDifference[0]?.verdict).toBe('not-measured');

    const newer = await insertAudit(exam, { examVersion: 'v2', items: [auditItem(0, 0, 3), auditItem(1, 0, 4)] });
    const alone = await equivalence(exam.id, newer, exam.ownerId);
    expect(alone.statusCode).toBe(200);
    const unmatched = alone.json<EquivalenceReport>();
    expect(unmatched.solvabilityCheckId).toBeNull();
    expect(unmatched.items[0]?.solvability.every((p) => p.n === 0 && p.rate === null)).toBe(true);
    // 3/25 against 4/25: no difference shown, and too few attempts to show equivalence within ±0.2.
    expect(unmatched.verdict).toBe('inconclusive');
  });

  it('answers 409 for an audit of a single configuration', async () => {
    const exam = examWith();
    const auditId = await insertAudit(exam, { configurations: [MINI], items: [auditItem(0, 0, 3)] });
    const response = await equivalence(exam.id, auditId, exam.ownerId);
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toMatchObject({ code: 'CONFLICT', message: EquivalenceMessages.singleConfiguration });
    expect(EquivalenceMessages.singleConfiguration).toMatch(/^Compare at least two configurations/);
  });

  it('answers 404 to another creator, for an unknown audit, an unknown exam and an audit of another exam', async () => {
    const exam = examWith();
    const other = examWith();
    const auditId = await insertAudit(exam, { items: [auditItem(0, 0, 1), auditItem(1, 0, 2)] });
    const cases = [
      [exam.id, auditId, randomUUID()],
      [exam.id, randomUUID(), exam.ownerId],
      [randomUUID(), auditId, exam.ownerId],
      [other.id, auditId, other.ownerId],
    ] as const;
    for (const [examId, audit, asker] of cases) {
      const response = await equivalence(examId, audit, asker);
      expect(response.statusCode).toBe(404);
      expect(response.json().error.code).toBe('NOT_FOUND');
    }
    expect((await equivalence(exam.id, auditId, exam.ownerId)).statusCode).toBe(200);
  });

  it('answers 400 naming the parameter for a malformed audit id, and 401 without a creator token', async () => {
    const exam = examWith();
    const response = await equivalence(exam.id, 'x'.repeat(65), exam.ownerId);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.issues[0].path).toBe('auditId');
    const anonymous = await app.inject({
      method: 'GET',
      url: `/api/exams/${exam.id}/assistant-audits/${randomUUID()}/equivalence`,
    });
    expect(anonymous.statusCode).toBe(401);
  });
});
