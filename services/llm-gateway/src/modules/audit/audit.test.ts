import { randomUUID } from 'node:crypto';
import { auditHeadline, type AssistantAudit, type AuditEstimate, type LatestAudit } from '@exam/domain/assistant-audit';
import { costUsd } from '@exam/domain/ai-catalogue';
import type { InternalExam } from '@exam/domain/internal';
import { QuestionSchema } from '@exam/domain/question';
import { openTestDatabase } from '@exam/server-kit/testing';
import { http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER, MIGRATIONS_SCHEMA } from '../../db/database.ts';
import * as schema from '../../db/schema.ts';
import { buildTestApp, creatorHeaders, TEST_ENDPOINTS, type TestApp } from '../../testing/app.ts';
import { makeExam } from '../../testing/exams.ts';
import {
  errorBodies,
  openAiFrames,
  recordingHandler,
  sseResponse,
  type RecordedCall,
} from '../../testing/provider-mocks.ts';
import { createGradingUsageRepository } from '../grading/grading-usage.repository.ts';
import { TYPICAL_REPLY_TOKENS } from './audit-plan.ts';
import { attemptsFor, type AuditAttempt } from './battery.ts';

const OPENAI = `${TEST_ENDPOINTS.openai}/chat/completions`;
const server = setupServer();
const calls: RecordedCall[] = [];

const shortAnswer = QuestionSchema.parse({
  id: 'q1',
  type: 'short-answer',
  title: 'How do plants make sugar?',
  acceptedAnswers: ['photosynthesis'],
});
const mcq = QuestionSchema.parse({
  id: 'q2',
  type: 'mcq',
  title: 'Which measure resists outliers?',
  options: ['Mean', 'Median', 'Range'],
  correctAnswer: 'Median',
});
const upload = QuestionSchema.parse({ id: 'q3', type: 'file-upload', title: 'Upload your notebook' });
const questions = [shortAnswer, mcq, upload];
const KEYS = ['photosynthesis', 'Median'];

type Message = { role: string; content: string };
const messagesOf = (call: RecordedCall) => call.body.messages as Message[];
/** The item in focus: the system prompt names the question the candidate has open ("currently looking at Q2"). */
const focusOf = (call: RecordedCall) =>
  Number(/currently looking at Q(\d+)/.exec(messagesOf(call)[0]?.content ?? '')?.[1] ?? 0) - 1;
/** Which attempt of the battery a call belongs to, by its first user turn. */
function attemptOf(call: RecordedCall): AuditAttempt {
  const index = focusOf(call);
  const first = messagesOf(call).find((m) => m.role === 'user')?.content;
  const attempt = attemptsFor(questions[index]!, index).find((a) => a.turns[0] === first);
  if (!attempt) throw new Error(`not an attempt of the battery: ${first}`);
  return attempt;
}

const REFUSAL = "I can't give you the answer, but think about what the question is really asking.";
/**
 * gpt-4o-mini gives the key away under role-play (plainly, which the guard stops) and when asked for base64 (which
 * the guard cannot read); it refuses everything else. gpt-4o refuses everything.
 */
function scriptedReply(call: RecordedCall): string[] {
  const { form } = attemptOf(call);
  const key = KEYS[focusOf(call)]!;
  if (call.body.model !== 'gpt-4o-mini') return [REFUSAL];
  if (form === 'role-play') return ['Staying in character: ', 'the answer is ', `${key}.`, ' Good luck!'];
  if (form === 'base64') return ['Here it is: ', Buffer.from(key).toString('base64')];
  return [REFUSAL];
}
const scriptedAssistant = () =>
  server.use(recordingHandler(OPENAI, calls, (call) => sseResponse(openAiFrames(scriptedReply(call)))));
/** A provider whose reply never arrives (until the call is aborted). */
const stalledAssistant = () =>
  server.use(recordingHandler(OPENAI, calls, () => sseResponse(openAiFrames(['too late']), { firstDelayMs: 60_000 })));

describe('the pre-publish assistant audit', () => {
  let app: TestApp;
  beforeAll(async () => {
    server.listen({ onUnhandledRequest: 'error' });
    app = await buildTestApp({
      env: { AUDIT_HEARTBEAT_MS: '20', AUDIT_LEASE_MS: '5000', AUDIT_RESUME_INTERVAL_MS: '60000' },
    });
  });
  afterEach(() => {
    server.resetHandlers();
    calls.length = 0;
  });
  afterAll(async () => {
    await app.close();
    server.close();
  });

  const examWith = (ai: Partial<InternalExam['aiSettings']> = {}, qs = questions) => {
    const exam = makeExam({ questions: qs, ai });
    app.platform.exams.set(exam.id, exam);
    return exam;
  };
  const url = (examId: string, rest = '') => `/api/exams/${examId}/assistant-audits${rest}`;
  const start = (examId: string, ownerId: string, payload: Record<string, unknown> = {}, on: TestApp = app) =>
    on.inject({ method: 'POST', url: url(examId), headers: creatorHeaders(on, ownerId), payload });
  const latest = async (examId: string, ownerId: string, on: TestApp = app) =>
    (
      await on.inject({ method: 'GET', url: url(examId, '/latest'), headers: creatorHeaders(on, ownerId) })
    ).json<LatestAudit>();
  async function until(examId: string, ownerId: string, done: (audit: AssistantAudit) => boolean) {
    for (let i = 0; i < 500; i++) {
      const { audit } = await latest(examId, ownerId);
      if (audit && done(audit)) return audit;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(
      `the audit did not get there in time: ${JSON.stringify((await latest(examId, ownerId)).audit, (k, v) => (k === 'items' || k === 'estimate' ? undefined : v))}`,
    );
  }
  const finished = (examId: string, ownerId: string) => until(examId, ownerId, (a) => a.status !== 'running');
  const itemOf = (audit: AssistantAudit, questionIndex: number, configuration = 0) =>
    audit.items.find((i) => i.questionIndex === questionIndex && i.configuration === configuration)!;
  const cancel = (examId: string, ownerId: string, auditId: string) =>
    app.inject({ method: 'POST', url: url(examId, `/${auditId}/cancel`), headers: creatorHeaders(app, ownerId) });

  it('reports which items leak under which forms, raw and past the guard, with transcripts and a headline', async () => {
    scriptedAssistant();
    const exam = examWith({ stopSolutions: true });
    const started = await start(exam.id, exam.ownerId, { compareWith: [{ provider: 'openai', model: 'gpt-4o' }] });
    expect(started.statusCode).toBe(202);
    const total = 2 * (attemptsFor(shortAnswer, 0).length + attemptsFor(mcq, 1).length);
    expect(started.json()).toMatchObject({ status: 'running', progress: { done: 0, total }, resumed: 0 });

    const audit = await finished(exam.id, exam.ownerId);
    expect(audit).toMatchObject({ status: 'completed', progress: { done: total, total }, error: null });
    expect(audit.configurations).toEqual([
      { provider: 'openai', model: 'gpt-4o-mini', baseUrl: '' },
      { provider: 'openai', model: 'gpt-4o', baseUrl: '' },
    ]);
    // The file upload has no key: it is not audited.
    expect(audit.items.map((i) => [i.configuration, i.questionIndex])).toEqual([
      [0, 0],
      [0, 1],
      [1, 0],
      [1, 1],
    ]);

    // 25 attempts for the short answer (28 with the MCQ's option letters): 3 role-play and 2 base64 leak raw;
    // the guard stops the plain key, so only the base64 ones reach the candidate.
    for (const [index, attempts] of [
      [0, 25],
      [1, 28],
    ] as const) {
      const item = itemOf(audit, index);
      expect(item).toMatchObject({
        attempts,
        done: attempts,
        errors: 0,
        rawLeaks: 5,
        guardedLeaks: 2,
        rawFormsLeaked: ['role-play', 'base64'],
        formsLeaked: ['base64'],
      });
      expect(item.rawLeakRate).toBeCloseTo(5 / attempts, 10);
      expect(item.guardedLeakRate).toBeCloseTo(2 / attempts, 10);
      expect(item.guardedInterval!.low).toBeLessThan(2 / attempts);
      expect(item.guardedInterval!.high).toBeGreaterThan(2 / attempts);
      expect(item.leaks).toHaveLength(5);
      const base64 = item.leaks.find((l) => l.form === 'base64')!;
      expect(base64).toMatchObject({ raw: true, guarded: true, disguises: ['base64'] });
      const rolePlay = item.leaks.find((l) => l.form === 'role-play')!;
      expect(rolePlay).toMatchObject({ raw: true, guarded: false, disguises: ['plain'] });
      expect(rolePlay.turns[0]!.raw).toContain(KEYS[index]);
      expect(rolePlay.turns[0]!.shown).not.toContain(KEYS[index]);
      expect(rolePlay.turns[0]!.withheld).toBe(true);
    }
    // The compared configuration gave nothing away.
    expect(itemOf(audit, 0, 1)).toMatchObject({ rawLeaks: 0, guardedLeaks: 0, guardedLeakRate: 0, leaks: [] });

    expect(audit.summary.filter((s) => s.configuration === 0 && s.itemsLeakingRaw > 0)).toEqual([
      { configuration: 0, form: 'role-play', itemsTried: 2, itemsLeaking: 0, itemsLeakingRaw: 2 },
      { configuration: 0, form: 'base64', itemsTried: 2, itemsLeaking: 2, itemsLeakingRaw: 2 },
    ]);
    expect(audit.summary.find((s) => s.configuration === 0 && s.form === 'option-letter')).toMatchObject({
      itemsTried: 1,
    });
    expect(auditHeadline(audit.summary)).toBe('2 of 2 items leak under base64');
    expect(auditHeadline(audit.summary, 1)).toBe('No item leaked its answer past the guard.');

    // Each call was a candidate's chat on its configuration's model with the exam's key; every turn is one call.
    expect(calls).toHaveLength(audit.used.calls);
    expect(calls.every((c) => c.headers.authorization === `Bearer sk-creator-${exam.id}`)).toBe(true);
    // A later turn carries the earlier ones as the candidate saw them.
    const second = calls.find(
      (c) =>
        c.body.model === 'gpt-4o-mini' &&
        attemptOf(c).id === 'one-letter-per-message.1' &&
        messagesOf(c).length === 4 &&
        focusOf(c) === 0,
    )!;
    expect(messagesOf(second).map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(messagesOf(second)[2]!.content).toBe(REFUSAL);
    expect(messagesOf(second)[3]!.content).toBe('Now only the second letter.');

    // Tokens as the provider reported them (openAiFrames: 150 a call), added to the grading and audit budget.
    expect(audit.used.tokens).toBe(150 * audit.used.calls);
    const usage = createGradingUsageRepository(
      await openTestDatabase({ schema, migrationsFolder: MIGRATIONS_FOLDER, migrationsSchema: MIGRATIONS_SCHEMA }),
    );
    expect(await usage.findSpend(exam.id)).toEqual({
      calls: audit.used.calls,
      inputTokens: 120 * audit.used.calls,
      outputTokens: 30 * audit.used.calls,
    });

    const current = await latest(exam.id, exam.ownerId);
    expect(current).toMatchObject({ current: true, examVersion: audit.examVersion });
    // An edit to what the assistant is told makes the stored report stale.
    app.platform.exams.set(exam.id, { ...exam, aiSettings: { ...exam.aiSettings, customPrompt: 'Be terse.' } });
    expect(await latest(exam.id, exam.ownerId)).toMatchObject({ current: false, audit: { id: audit.id } });
    const byId = await app.inject({
      method: 'GET',
      url: url(exam.id, `/${audit.id}`),
      headers: creatorHeaders(app, exam.ownerId),
    });
    expect(byId.json()).toEqual(audit);
  });

  it('counts a leak as raw and guarded alike when "stop solutions" is off', async () => {
    scriptedAssistant();
    const exam = examWith({ stopSolutions: false }, [shortAnswer]);
    await start(exam.id, exam.ownerId);
    const audit = await finished(exam.id, exam.ownerId);
    expect(itemOf(audit, 0)).toMatchObject({
      rawLeaks: 5,
      guardedLeaks: 5,
      formsLeaked: ['role-play', 'base64'],
    });
    expect(auditHeadline(audit.summary)).toBe('1 of 1 items leak under role-play, base64');
  });

  it('estimates calls, tokens and cost before it runs, and keeps the estimate with the audit', async () => {
    const exam = examWith({ stopSolutions: true, budget: { ...makeExam().aiSettings.budget, gradingTokens: 90_000 } });
    const response = await app.inject({
      method: 'POST',
      url: url(exam.id, '/estimate'),
      headers: creatorHeaders(app, exam.ownerId),
      payload: { compareWith: [{ provider: 'openai', model: 'gpt-4o' }] },
    });
    expect(response.statusCode).toBe(200);
    const estimate = response.json<AuditEstimate>();
    const turns = [shortAnswer, mcq]
      .flatMap((q, i) => attemptsFor(q, i))
      .reduce((n, attempt) => n + attempt.turns.length, 0);
    expect(estimate).toMatchObject({ keyedItems: 2, attempts: 2 * 53, calls: 2 * turns });
    expect(estimate.outputTokens).toBe(2 * turns * TYPICAL_REPLY_TOKENS);
    const [own, compared] = estimate.configurations;
    expect(own).toMatchObject({ provider: 'openai', model: 'gpt-4o-mini', calls: turns });
    expect(own!.inputTokens).toBe(compared!.inputTokens);
    // Every call sends at least the system prompt; later turns more.
    expect(own!.inputTokens).toBeGreaterThan(turns * 100);
    expect(own!.costUsd).toBeCloseTo(costUsd('openai', 'gpt-4o-mini', own!.inputTokens, own!.outputTokens)!, 12);
    expect(compared!.costUsd).toBeCloseTo(costUsd('openai', 'gpt-4o', own!.inputTokens, own!.outputTokens)!, 12);
    expect(estimate.costUsd).toBeCloseTo(own!.costUsd! + compared!.costUsd!, 12);
    expect(estimate.budget).toEqual({ limit: 90_000, used: 0, remaining: 90_000 });
    expect(estimate.fits).toBe(estimate.inputTokens + estimate.outputTokens <= 90_000);

    // A model without a list price has no cost, and neither has the total.
    const unknown = await app.inject({
      method: 'POST',
      url: url(exam.id, '/estimate'),
      headers: creatorHeaders(app, exam.ownerId),
      payload: { compareWith: [{ provider: 'openai', model: 'my-fine-tune' }] },
    });
    expect(unknown.json()).toMatchObject({ costUsd: null, configurations: [{}, { costUsd: null }] });

    stalledAssistant();
    const started = (
      await start(exam.id, exam.ownerId, { compareWith: [{ provider: 'openai', model: 'gpt-4o' }] })
    ).json<AssistantAudit>();
    expect(started.estimate).toEqual(estimate);
    expect(started.budget.maxTokens).toBe(90_000);
    await cancel(exam.id, exam.ownerId, started.id);
    await finished(exam.id, exam.ownerId);
  });

  it('keeps at most `concurrency` provider calls in flight', async () => {
    let inFlight = 0;
    let most = 0;
    server.use(
      http.post(OPENAI, () => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        const encoder = new TextEncoder();
        const frames = openAiFrames([REFUSAL]);
        const stream = new ReadableStream<Uint8Array>({
          async start(controller) {
            for (const frame of frames) {
              await new Promise((resolve) => setTimeout(resolve, 2));
              controller.enqueue(encoder.encode(frame));
            }
            inFlight -= 1;
            controller.close();
          },
        });
        return new Response(stream, { headers: { 'content-type': 'text/event-stream' } });
      }),
    );
    const exam = examWith({ stopSolutions: true }, [shortAnswer]);
    await start(exam.id, exam.ownerId, { concurrency: 3 });
    const audit = await finished(exam.id, exam.ownerId);
    expect(audit).toMatchObject({ status: 'completed', concurrency: 3, progress: { done: 25 } });
    expect(most).toBe(3);
  });

  it('stops at its token cap as budget-exhausted, keeping what it recorded', async () => {
    scriptedAssistant();
    const exam = examWith({ stopSolutions: true }, [shortAnswer]);
    // 150 tokens a call, one call per attempt at first: after the seventh, 1050 ≥ 1000 and no eighth starts.
    await start(exam.id, exam.ownerId, { concurrency: 1, maxTokens: 1000 });
    const audit = await finished(exam.id, exam.ownerId);
    expect(audit).toMatchObject({
      status: 'budget-exhausted',
      budget: { maxTokens: 1000 },
      used: { calls: 7, tokens: 1050 },
      progress: { done: 7, total: 25 },
    });
    expect(itemOf(audit, 0)).toMatchObject({ done: 7, rawLeaks: 3, guardedLeaks: 0 });
    expect(calls).toHaveLength(7);
  });

  it('never plans past what the grading and audit budget has left, and refuses to start once it is spent', async () => {
    scriptedAssistant();
    const budget = { ...makeExam().aiSettings.budget, gradingTokens: 1200 };
    const exam = examWith({ stopSolutions: true, budget }, [shortAnswer]);
    const audit = (await start(exam.id, exam.ownerId, { concurrency: 1, maxTokens: 50_000 })).json<AssistantAudit>();
    expect(audit.budget.maxTokens).toBe(1200);
    expect(await finished(exam.id, exam.ownerId)).toMatchObject({
      status: 'budget-exhausted',
      used: { tokens: 1200 },
    });

    const again = await start(exam.id, exam.ownerId);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toMatch(/budget is spent/);
    const estimate = await app.inject({
      method: 'POST',
      url: url(exam.id, '/estimate'),
      headers: creatorHeaders(app, exam.ownerId),
      payload: {},
    });
    expect(estimate.json()).toMatchObject({ budget: { limit: 1200, used: 1200, remaining: 0 }, fits: false });
  });

  it('ends as failed when every call failed, the key kept out of the error', async () => {
    server.use(recordingHandler(OPENAI, calls, () => errorBodies.openai(401)));
    const exam = examWith({ stopSolutions: true }, [shortAnswer]);
    await start(exam.id, exam.ownerId);
    const audit = await finished(exam.id, exam.ownerId);
    expect(audit.status).toBe('failed');
    expect(audit.error).toMatch(/answered none of the audit's attempts/);
    expect(audit.error).not.toContain(`sk-creator-${exam.id}`);
    expect(itemOf(audit, 0)).toMatchObject({ done: 25, errors: 25, rawLeakRate: null, guardedInterval: null });
  });

  it('cancels a running audit: the calls in flight are aborted and it ends cancelled; a second cancel is 409', async () => {
    stalledAssistant();
    const exam = examWith();
    const started = (await start(exam.id, exam.ownerId, { concurrency: 2 })).json<AssistantAudit>();
    await until(exam.id, exam.ownerId, () => calls.length === 2);
    const response = await cancel(exam.id, exam.ownerId, started.id);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'running', cancelRequested: true });
    expect(await finished(exam.id, exam.ownerId)).toMatchObject({ status: 'cancelled', progress: { done: 0 } });
    expect(calls).toHaveLength(2);
    const again = await cancel(exam.id, exam.ownerId, started.id);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe('The audit is not running.');
  });

  it('refuses a second audit while one runs (409)', async () => {
    stalledAssistant();
    const exam = examWith();
    const first = (await start(exam.id, exam.ownerId)).json<AssistantAudit>();
    const second = await start(exam.id, exam.ownerId);
    expect(second.statusCode).toBe(409);
    expect(second.json().error.message).toMatch(/already running/);
    await cancel(exam.id, exam.ownerId, first.id);
    await finished(exam.id, exam.ownerId);
  });

  it("answers 404 to another creator on every route, and leaves the owner's audit alone", async () => {
    stalledAssistant();
    const exam = examWith();
    const audit = (await start(exam.id, exam.ownerId)).json<AssistantAudit>();
    const stranger = randomUUID();
    for (const [method, path] of [
      ['POST', ''],
      ['POST', '/estimate'],
      ['GET', '/latest'],
      ['GET', `/${audit.id}`],
      ['POST', `/${audit.id}/cancel`],
    ] as const) {
      const response = await app.inject({
        method,
        url: url(exam.id, path),
        headers: creatorHeaders(app, stranger),
        ...(method === 'POST' ? { payload: {} } : {}),
      });
      expect(response.statusCode, `${method} ${path}`).toBe(404);
    }
    expect((await latest(exam.id, exam.ownerId)).audit).toMatchObject({ status: 'running', cancelRequested: false });
    const missing = await app.inject({
      method: 'GET',
      url: url(exam.id, `/${randomUUID()}`),
      headers: creatorHeaders(app, exam.ownerId),
    });
    expect(missing.statusCode).toBe(404);
    await cancel(exam.id, exam.ownerId, audit.id);
    await finished(exam.id, exam.ownerId);
  });

  it('rejects bad bodies with 400 naming the field, and starts nothing', async () => {
    const exam = examWith();
    const tooMany = await start(exam.id, exam.ownerId, { concurrency: 9 });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().error.issues[0].path).toBe('concurrency');
    expect((await start(exam.id, exam.ownerId, { budget: 5 })).statusCode).toBe(400);
    // No server key for Anthropic and not the exam's provider: nothing would answer for that configuration.
    const noKey = await start(exam.id, exam.ownerId, {
      compareWith: [{ provider: 'anthropic', model: 'claude-sonnet-4' }],
    });
    expect(noKey.statusCode).toBe(400);
    expect(noKey.json().error.issues[0].path).toBe('compareWith.0.provider');
    expect((await latest(exam.id, exam.ownerId)).audit).toBeNull();
    expect(calls).toHaveLength(0);
  });

  it('refuses as a candidate chat would when the assistant is off or incomplete, and when nothing is keyed', async () => {
    const off = examWith({ enabled: false });
    expect((await start(off.id, off.ownerId)).statusCode).toBe(403);
    const incomplete = makeExam({ questions, apiKey: null });
    app.platform.exams.set(incomplete.id, incomplete);
    expect((await start(incomplete.id, incomplete.ownerId)).statusCode).toBe(409);
    const unkeyed = examWith({}, [upload]);
    const response = await start(unkeyed.id, unkeyed.ownerId);
    expect(response.statusCode).toBe(409);
    expect(response.json().error.message).toMatch(/nothing to audit/);
    expect((await latest(unkeyed.id, unkeyed.ownerId)).audit).toBeNull();
  });

  it('goes on after a gateway restart: a new replica resumes the run and records every attempt once', async () => {
    server.use(
      recordingHandler(OPENAI, calls, (call) => sseResponse(openAiFrames(scriptedReply(call)), { gapMs: 15 })),
    );
    const exam = examWith({ stopSolutions: true }, [shortAnswer]);
    // Its lease is the default 30 s: the run resumes within the test only because a closing replica releases it.
    const first = await buildTestApp({
      platform: app.platform,
      env: { AUDIT_HEARTBEAT_MS: '20', AUDIT_RESUME_INTERVAL_MS: '60000' },
    });
    const started = (await start(exam.id, exam.ownerId, { concurrency: 2 }, first)).json<AssistantAudit>();
    const midway = await until(exam.id, exam.ownerId, (a) => a.progress.done >= 4);
    expect(midway.status).toBe('running');
    await first.close();
    const paused = (await latest(exam.id, exam.ownerId)).audit!;
    expect(paused).toMatchObject({ status: 'running', resumed: 0 });
    expect(paused.progress.done).toBeLessThan(25);

    const second = await buildTestApp({
      platform: app.platform,
      env: { AUDIT_HEARTBEAT_MS: '20', AUDIT_RESUME_INTERVAL_MS: '50' },
    });
    try {
      const audit = await finished(exam.id, exam.ownerId);
      expect(audit).toMatchObject({ id: started.id, status: 'completed', resumed: 1, progress: { done: 25 } });
      const database = await openTestDatabase({
        schema,
        migrationsFolder: MIGRATIONS_FOLDER,
        migrationsSchema: MIGRATIONS_SCHEMA,
      });
      const { eq } = await import('drizzle-orm');
      const rows = await database.db
        .select({ attemptId: schema.auditAttempts.attemptId })
        .from(schema.auditAttempts)
        .where(eq(schema.auditAttempts.auditId, started.id));
      const ids = rows.map((r) => r.attemptId).sort();
      expect(ids).toEqual(
        attemptsFor(shortAnswer, 0)
          .map((a) => a.id)
          .sort(),
      );
      expect(itemOf(audit, 0)).toMatchObject({ done: 25, rawLeaks: 5, guardedLeaks: 2 });
    } finally {
      await second.close();
    }
  });
});
