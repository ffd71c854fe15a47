import {
  LatestSuggestionBatchSchema,
  SuggestionBatchSchema,
  SuggestionMessages,
  type SuggestionBatch,
} from '@exam/domain/question-grading';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { gradingSuggestions, suggestionBatches } from '../../db/schema.ts';
import { buildTestApp, creatorHeaders, type TestApp } from '../../testing/app.ts';
import {
  startFakeGateway,
  type FakeGateway,
  type FakeSuggestAnswer,
  type SuggestCall,
} from '../../testing/fake-gateway.ts';
import { fakeClock } from '../../testing/fakes.ts';
import { makeQuestionGradingExam, sitByExamIndex } from '../../testing/question-grading.ts';
import { answersInFlight } from './suggestion-batch.runner.ts';
import { createSuggestionBatchesRepository } from './suggestion-batches.repository.ts';
import { createSuggestionsRepository } from './suggestions.repository.ts';

const LEASE_MS = 2000;
const env = { SUGGESTION_BATCH_LEASE_MS: String(LEASE_MS), SUGGESTION_BATCH_HEARTBEAT_MS: '20' };
const ok = (call: SuggestCall): FakeSuggestAnswer => ({
  samples: Array.from({ length: call.request.samples }, () => ({
    points: 1,
    rubric: [],
    rationale: 'Fine.',
    quote: '',
  })),
});

describe('answersInFlight', () => {
  it('keeps the answers asked at once times their samples within the concurrency, and asks at least one', () => {
    expect(answersInFlight(4, 2)).toBe(2);
    expect(answersInFlight(5, 2)).toBe(2);
    expect(answersInFlight(16, 3)).toBe(5);
    expect(answersInFlight(4, 1)).toBe(4);
    expect(answersInFlight(2, 3)).toBe(1);
  });
});

describe('suggestion batches', () => {
  let app: TestApp;
  let gateway: FakeGateway;
  beforeAll(async () => {
    gateway = await startFakeGateway();
    app = await buildTestApp({ env, deps: { gradingSuggester: gateway.suggester() } });
  });
  afterAll(async () => {
    await app.close();
    await gateway.close();
  });
  beforeEach(() => {
    gateway.calls.length = 0;
    gateway.delayMs = 0;
    gateway.answer = ok;
    gateway.resetPeaks();
  });
  // A batch a test left running would be claimed by the next test's pass: every test leaves none behind.
  afterEach(async () => {
    await app.suggestionBatches.idle();
    await app.db
      .update(suggestionBatches)
      .set({ status: 'cancelled', finishedAt: new Date() })
      .where(eq(suggestionBatches.status, 'running'));
  });

  const url = (examId: string, questionIndex = 0) => `/api/exams/${examId}/questions/${questionIndex}/suggestions`;
  const start = (target: TestApp, examId: string, ownerId: string, payload?: object, questionIndex = 0) =>
    target.inject({
      method: 'POST',
      url: url(examId, questionIndex),
      headers: creatorHeaders(target, ownerId),
      ...(payload ? { payload } : {}),
    });
  const latest = async (target: TestApp, examId: string, ownerId: string): Promise<SuggestionBatch | null> => {
    const response = await target.inject({
      method: 'GET',
      url: `${url(examId)}/latest`,
      headers: creatorHeaders(target, ownerId),
    });
    expect(response.statusCode).toBe(200);
    return LatestSuggestionBatchSchema.parse(response.json()).batch;
  };
  const cancel = (target: TestApp, examId: string, ownerId: string, batchId: string) =>
    target.inject({
      method: 'POST',
      url: `${url(examId)}/${batchId}/cancel`,
      headers: creatorHeaders(target, ownerId),
    });
  /** Runs the job's pass on a replica and waits until its runs end. */
  const runPass = async (target: TestApp) => {
    const claimed = await target.suggestionBatches.pass();
    await target.suggestionBatches.idle();
    return claimed;
  };
  /** An exam whose keyless question 0 `count` candidates answered, each differently. */
  async function cohort(count: number) {
    const exam = app.exams.put(makeQuestionGradingExam());
    const resultIds: string[] = [];
    for (let i = 0; i < count; i++)
      resultIds.push((await sitByExamIndex(app, exam.id, { 0: `Answer number ${i}: scattering` })).resultId);
    return { exam, resultIds };
  }
  /** How many suggestions each result has for question 0. */
  async function suggestionsPerResult(resultIds: string[]) {
    const rows = await app.db
      .select({ resultId: gradingSuggestions.resultId, n: sql<number>`count(*)::int` })
      .from(gradingSuggestions)
      .where(eq(gradingSuggestions.questionIndex, 0))
      .groupBy(gradingSuggestions.resultId);
    const byResult = new Map(rows.map((r) => [r.resultId, r.n]));
    return resultIds.map((id) => byResult.get(id) ?? 0);
  }

  it('suggests every answer of the question with at most `concurrency` provider calls at once, and counts them', async () => {
    const { exam, resultIds } = await cohort(12);
    gateway.delayMs = 40;

    const started = await start(app, exam.id, exam.ownerId, { scope: 'all', concurrency: 4, samples: 2 });
    expect(started.statusCode).toBe(202);
    const batch = SuggestionBatchSchema.parse(started.json());
    expect(batch).toMatchObject({
      status: 'running',
      concurrency: 4,
      samples: 2,
      progress: { done: 0, failed: 0, total: 12 },
      cancelRequested: false,
    });

    expect(await runPass(app)).toBe(1);

    expect(await latest(app, exam.id, exam.ownerId)).toMatchObject({
      id: batch.id,
      status: 'completed',
      progress: { done: 12, failed: 0, total: 12 },
      error: null,
    });
    expect(gateway.calls).toHaveLength(12);
    expect(gateway.calls.every((c) => c.request.samples === 2)).toBe(true);
    // Two answers of two samples each at once: the concurrency used, never exceeded.
    expect(gateway.peakProviderCalls()).toBe(4);
    expect(gateway.peak()).toBe(2);
    expect(await suggestionsPerResult(resultIds)).toEqual(resultIds.map(() => 1));
    const rows = await app.db.select().from(gradingSuggestions).where(eq(gradingSuggestions.batchId, batch.id));
    expect(rows).toHaveLength(12);
  });

  it('fixes its answers at start: human-graded, with text, in scope, and without a current suggestion', async () => {
    const { exam, resultIds } = await cohort(4);
    const blank = (await sitByExamIndex(app, exam.id, { 0: '  ' })).resultId;
    const headers = creatorHeaders(app, exam.ownerId);
    // A grader marked the first answer; the second already has a suggestion.
    const marked = await app.inject({
      method: 'PATCH',
      url: `/api/results/${resultIds[0]}`,
      headers,
      payload: { grading: [{ questionIndex: 0, points: 2 }] },
    });
    expect(marked.statusCode).toBe(200);
    const single = await app.inject({
      method: 'POST',
      url: `/api/results/${resultIds[1]}/questions/0/suggestion`,
      headers,
    });
    expect(single.statusCode).toBe(201);

    const unmarked = SuggestionBatchSchema.parse((await start(app, exam.id, exam.ownerId)).json());
    expect(unmarked).toMatchObject({ status: 'running', concurrency: 4, samples: 3, progress: { total: 2 } });
    const [row] = await app.db.select().from(suggestionBatches).where(eq(suggestionBatches.id, unmarked.id));
    expect(row).toMatchObject({ scope: 'unmarked', startedBy: `${exam.ownerId}@example.test` });
    expect(new Set(row!.resultIds)).toEqual(new Set([resultIds[2], resultIds[3]]));
    expect(row!.resultIds).not.toContain(blank);
    await runPass(app);

    // Everything suggested now: `all` finds only the marked answer left.
    const all = SuggestionBatchSchema.parse((await start(app, exam.id, exam.ownerId, { scope: 'all' })).json());
    expect(all.progress.total).toBe(1);
    await runPass(app);
    // Nothing left at all: the batch is complete at once.
    const none = await start(app, exam.id, exam.ownerId, { scope: 'results', resultIds: [resultIds[0]] });
    expect(none.statusCode).toBe(202);
    expect(none.json()).toMatchObject({ status: 'completed', progress: { done: 0, failed: 0, total: 0 } });
    expect(none.json().finishedAt).not.toBeNull();
  });

  it('refuses bad starts with 400 naming the field, another creator with 404, and a second running batch with 409', async () => {
    const { exam, resultIds } = await cohort(2);
    const noIds = await start(app, exam.id, exam.ownerId, { scope: 'results' });
    expect(noIds.statusCode).toBe(400);
    expect(noIds.json().error.issues).toEqual([{ path: 'resultIds', message: expect.any(String) }]);
    const stranger = await start(app, exam.id, exam.ownerId, { scope: 'results', resultIds: [resultIds[0], 'nope'] });
    expect(stranger.statusCode).toBe(400);
    expect(stranger.json().error.issues[0].path).toBe('resultIds.1');
    const keyed = await start(app, exam.id, exam.ownerId, undefined, 1);
    expect(keyed.statusCode).toBe(400);
    expect(keyed.json().error.message).toBe(SuggestionMessages.notHumanGraded);
    expect((await start(app, exam.id, exam.ownerId, { concurrency: 17 })).statusCode).toBe(400);
    expect((await start(app, exam.id, 'someone-else')).statusCode).toBe(404);
    expect((await start(app, exam.id, exam.ownerId, undefined, 9)).statusCode).toBe(404);

    expect((await start(app, exam.id, exam.ownerId)).statusCode).toBe(202);
    const again = await start(app, exam.id, exam.ownerId);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(SuggestionMessages.batchRunning);
    expect(await app.db.select().from(suggestionBatches).where(eq(suggestionBatches.examId, exam.id))).toHaveLength(1);
    const latestOf = await app.inject({
      method: 'GET',
      url: `${url(exam.id)}/latest`,
      headers: creatorHeaders(app, 'someone-else'),
    });
    expect(latestOf.statusCode).toBe(404);
    await runPass(app);
    expect(await latest(app, exam.id, exam.ownerId)).toMatchObject({ status: 'completed' });
    expect((await start(app, exam.id, exam.ownerId, { scope: 'all' })).statusCode).toBe(202);
  });

  it('answers latest with null before any batch', async () => {
    const { exam } = await cohort(1);
    expect(await latest(app, exam.id, exam.ownerId)).toBeNull();
  });

  it('sees a cancel within a heartbeat, keeps the answers in flight, and refuses a second cancel', async () => {
    const { exam, resultIds } = await cohort(10);
    gateway.delayMs = 60;
    const batch = SuggestionBatchSchema.parse(
      (await start(app, exam.id, exam.ownerId, { concurrency: 1, samples: 1 })).json(),
    );
    expect(await app.suggestionBatches.pass()).toBe(1);
    while (gateway.calls.length < 2) await new Promise((r) => setTimeout(r, 5));

    expect((await cancel(app, exam.id, 'someone-else', batch.id)).statusCode).toBe(404);
    const cancelled = await cancel(app, exam.id, exam.ownerId, batch.id);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toMatchObject({ id: batch.id, status: 'running', cancelRequested: true });
    await app.suggestionBatches.idle();

    const ended = await latest(app, exam.id, exam.ownerId);
    expect(ended).toMatchObject({ status: 'cancelled', cancelRequested: true });
    expect(ended!.finishedAt).not.toBeNull();
    // The call in flight when the cancel came finished and was kept; no answer was asked after it.
    expect(ended!.progress.done).toBe(gateway.calls.length);
    expect(gateway.calls.length).toBeLessThan(10);
    expect((await suggestionsPerResult(resultIds)).reduce((a, b) => a + b, 0)).toBe(gateway.calls.length);
    const twice = await cancel(app, exam.id, exam.ownerId, batch.id);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error.message).toBe(SuggestionMessages.batchNotRunning);
    expect((await cancel(app, exam.id, exam.ownerId, 'no-such-batch')).statusCode).toBe(404);
  });

  it('cancels at once a batch no replica holds', async () => {
    const { exam } = await cohort(2);
    const batch = SuggestionBatchSchema.parse((await start(app, exam.id, exam.ownerId)).json());
    const cancelled = await cancel(app, exam.id, exam.ownerId, batch.id);
    expect(cancelled.json()).toMatchObject({ status: 'cancelled', cancelRequested: true });
    expect(await runPass(app)).toBe(0);
    expect(gateway.calls).toHaveLength(0);
  });

  it('stops as budget-exhausted at the gateway’s 429, keeping what it suggested', async () => {
    const { exam } = await cohort(6);
    let answered = 0;
    gateway.answer = (call) =>
      ++answered <= 3 ? ok(call) : { status: 429, message: SuggestionMessages.budgetExhausted };
    await start(app, exam.id, exam.ownerId, { concurrency: 1, samples: 1 });
    await runPass(app);
    expect(await latest(app, exam.id, exam.ownerId)).toMatchObject({
      status: 'budget-exhausted',
      error: SuggestionMessages.budgetExhausted,
      progress: { done: 3, failed: 0, total: 6 },
    });
    expect(gateway.calls).toHaveLength(4);
  });

  it('counts the answers the provider failed apart and goes on; fails the batch when every answer failed', async () => {
    const { exam } = await cohort(5);
    gateway.answer = (call) =>
      call.request.answer.includes('number 1') || call.request.answer.includes('number 3')
        ? { status: 502, message: 'The provider answered 500.' }
        : ok(call);
    await start(app, exam.id, exam.ownerId, { concurrency: 2, samples: 1 });
    await runPass(app);
    expect(await latest(app, exam.id, exam.ownerId)).toMatchObject({
      status: 'completed',
      progress: { done: 3, failed: 2, total: 5 },
    });

    gateway.answer = () => ({ status: 502, message: 'The provider answered 500.' });
    await start(app, exam.id, exam.ownerId, { scope: 'all', concurrency: 2, samples: 1 });
    await runPass(app);
    expect(await latest(app, exam.id, exam.ownerId)).toMatchObject({
      status: 'failed',
      progress: { done: 0, failed: 2, total: 2 },
      error: 'No answer could be suggested: The provider answered 500.',
    });
  });

  it('fails with the gateway’s words when no provider is configured', async () => {
    const { exam } = await cohort(3);
    gateway.answer = () => ({ status: 409, message: SuggestionMessages.noProvider });
    await start(app, exam.id, exam.ownerId, { concurrency: 1, samples: 1 });
    await runPass(app);
    expect(await latest(app, exam.id, exam.ownerId)).toMatchObject({
      status: 'failed',
      error: SuggestionMessages.noProvider,
      progress: { done: 0, failed: 0 },
    });
    expect(gateway.calls).toHaveLength(1);
  });

  it('counts an answer a grader had suggested meanwhile as done without asking again', async () => {
    const { exam, resultIds } = await cohort(3);
    await start(app, exam.id, exam.ownerId, { concurrency: 1, samples: 1 });
    const single = await app.inject({
      method: 'POST',
      url: `/api/results/${resultIds[1]}/questions/0/suggestion`,
      headers: creatorHeaders(app, exam.ownerId),
      payload: { samples: 1 },
    });
    expect(single.statusCode).toBe(201);
    await runPass(app);
    expect(await latest(app, exam.id, exam.ownerId)).toMatchObject({
      status: 'completed',
      progress: { done: 3, failed: 0, total: 3 },
    });
    expect(gateway.calls).toHaveLength(3);
    expect(await suggestionsPerResult(resultIds)).toEqual([1, 1, 1]);
  });

  describe('on two replicas', () => {
    let replica: TestApp;
    let replicaGateway: FakeGateway;
    const clock = fakeClock();
    beforeAll(async () => {
      replicaGateway = await startFakeGateway();
      replica = await buildTestApp({
        env,
        deps: { database: app.database, clock, gradingSuggester: replicaGateway.suggester() },
      });
    });
    afterAll(async () => {
      await replica.close();
      await replicaGateway.close();
    });
    /** Sets the replica's clock `ms` after the real time (the first replica and the database run on it). */
    const inRealTimePlus = (ms: number) => clock.advance(Date.now() + ms - clock.now().getTime());
    beforeEach(() => {
      replicaGateway.calls.length = 0;
      replicaGateway.answer = ok;
      inRealTimePlus(0);
    });
    afterEach(() => replica.suggestionBatches.idle());

    it('goes on where the first stopped when llm-gateway went down, once its lease lapsed, suggesting no answer twice', async () => {
      const { exam, resultIds } = await cohort(6);
      replica.exams.put(exam);
      let answered = 0;
      gateway.answer = (call) => (++answered <= 2 ? ok(call) : { status: 503 });
      const batch = SuggestionBatchSchema.parse(
        (await start(app, exam.id, exam.ownerId, { concurrency: 1, samples: 1 })).json(),
      );
      await runPass(app);
      // The gateway is down: the batch waits, running, for a replica to take it over.
      expect(await latest(app, exam.id, exam.ownerId)).toMatchObject({
        status: 'running',
        error: SuggestionMessages.gatewayDown,
        progress: { done: 2, failed: 0, total: 6 },
      });
      // Its lease still holds: no replica takes it yet.
      inRealTimePlus(0);
      expect(await runPass(replica)).toBe(0);

      inRealTimePlus(LEASE_MS + 1000);
      expect(await runPass(replica)).toBe(1);

      expect(await latest(replica, exam.id, exam.ownerId)).toMatchObject({
        id: batch.id,
        status: 'completed',
        error: null,
        progress: { done: 6, failed: 0, total: 6 },
      });
      expect(replicaGateway.calls).toHaveLength(4);
      expect(await suggestionsPerResult(resultIds)).toEqual(resultIds.map(() => 1));
    });

    it('takes over a batch whose replica died after claiming it, counting what that replica had stored', async () => {
      const { exam, resultIds } = await cohort(4);
      replica.exams.put(exam);
      const batch = SuggestionBatchSchema.parse((await start(app, exam.id, exam.ownerId, { samples: 1 })).json());
      // A replica claims the batch, stores one suggestion, and dies without another word.
      const batches = createSuggestionBatchesRepository(app.database);
      const claimed = await batches.claimNext('dead-replica', new Date(), LEASE_MS);
      expect(claimed?.id).toBe(batch.id);
      await createSuggestionsRepository(app.database).insertForBatch(
        {
          id: `dead-${batch.id}`,
          resultId: resultIds[0]!,
          examId: exam.id,
          ownerId: exam.ownerId,
          questionIndex: 0,
          answerHash: 'any',
          points: 1,
          rubric: [],
          rationale: '',
          quote: '',
          uncertain: false,
          samplePoints: [1],
          provider: 'openai',
          model: 'gpt-test',
          inputTokens: 1,
          outputTokens: 1,
          batchId: batch.id,
          createdAt: new Date(),
        },
        'dead-replica',
      );
      inRealTimePlus(0);
      expect(await runPass(replica)).toBe(0);

      inRealTimePlus(LEASE_MS + 1000);
      expect(await runPass(replica)).toBe(1);

      expect(await latest(app, exam.id, exam.ownerId)).toMatchObject({
        status: 'completed',
        progress: { done: 4, failed: 0, total: 4 },
      });
      expect(replicaGateway.calls).toHaveLength(3);
      expect(await suggestionsPerResult(resultIds)).toEqual([1, 1, 1, 1]);
    });

    it('hands its batch back at shutdown, and another replica finishes it', async () => {
      const { exam, resultIds } = await cohort(5);
      replica.exams.put(exam);
      const leaving = await buildTestApp({
        env,
        deps: { database: app.database, gradingSuggester: gateway.suggester() },
      });
      leaving.exams.put(exam);
      gateway.delayMs = 50;
      await start(leaving, exam.id, exam.ownerId, { concurrency: 1, samples: 1 });
      expect(await leaving.suggestionBatches.pass()).toBe(1);
      while (gateway.calls.length < 1) await new Promise((r) => setTimeout(r, 5));
      await leaving.close();
      const handedBack = await latest(app, exam.id, exam.ownerId);
      expect(handedBack).toMatchObject({ status: 'running' });
      expect(handedBack!.progress.done).toBeGreaterThanOrEqual(1);

      // Released, not lapsed: the other replica takes it at once.
      inRealTimePlus(1);
      expect(await runPass(replica)).toBe(1);
      expect(await latest(app, exam.id, exam.ownerId)).toMatchObject({
        status: 'completed',
        progress: { done: 5, failed: 0, total: 5 },
      });
      expect(gateway.calls.length + replicaGateway.calls.length).toBe(5);
      expect(await suggestionsPerResult(resultIds)).toEqual(resultIds.map(() => 1));
    });
  });
});
