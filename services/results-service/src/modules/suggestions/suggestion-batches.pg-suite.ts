// Suggestion batches on a real PostgreSQL server (the local one named by TEST_DATABASE_URL, in a database of its own
// that the suite creates and drops): replicas are separate connection pools claiming at the same moment, which
// PGlite (one connection) cannot show. Claims must never hand one batch to two replicas, a held lease must hold, a
// lapsed one must pass to the other replica, and no transaction may stay open while llm-gateway is asked.
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openResultsDatabase, type ResultsDatabase } from '../../db/database.ts';
import { queryRows } from '../../db/rows.ts';
import { gradingSuggestions, suggestionBatches } from '../../db/schema.ts';
import { buildTestApp, creatorHeaders, type TestApp } from '../../testing/app.ts';
import { startFakeGateway, type FakeGateway } from '../../testing/fake-gateway.ts';
import { makeQuestionGradingExam, sitByExamIndex } from '../../testing/question-grading.ts';
import { createSuggestionBatchesRepository } from './suggestion-batches.repository.ts';
import { createSuggestionsRepository } from './suggestions.repository.ts';

const base = process.env.TEST_DATABASE_URL;
if (!base) console.warn('[suggestion-batches] TEST_DATABASE_URL is not set: the PostgreSQL claim suite did not run');

const LEASE_MS = 5000;
const name = `results_suggestion_claims_${process.pid}_${Date.now()}`;

const batchRow = (i: number, examId = `exam-claims-${i}`) => ({
  id: `batch-${i}-${examId}`,
  examId,
  ownerId: 'owner-claims',
  questionIndex: 0,
  status: 'running' as const,
  scope: 'all',
  resultIds: [`result-${i}`],
  concurrency: 4,
  samples: 3,
  startedBy: 'grader@example.test',
  startedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)),
  finishedAt: null,
});

describe.skipIf(!base)('suggestion batch claims on PostgreSQL', () => {
  let url: string;
  /** A connection to the server's own database, outside the suite's: creates, watches and drops it. */
  let admin: ResultsDatabase;
  const replicas: ResultsDatabase[] = [];
  beforeAll(async () => {
    admin = await openResultsDatabase({ databaseUrl: base!, poolSize: 1, migrate: false });
    await admin.db.execute(sql.raw(`create database "${name}"`));
    const target = new URL(base!);
    target.pathname = `/${name}`;
    url = target.toString();
    // Two replicas starting together: each migrates under the migration lock, as deployments do.
    replicas.push(...(await Promise.all([0, 1].map(() => openResultsDatabase({ databaseUrl: url, poolSize: 6 })))));
  });
  // Each test's batches end with it, so no later claim meets them.
  afterEach(async () => {
    await replicas[0]!.db
      .update(suggestionBatches)
      .set({ status: 'cancelled', finishedAt: new Date() })
      .where(eq(suggestionBatches.status, 'running'));
  });
  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.close()));
    await admin.db.execute(sql.raw(`drop database if exists "${name}" with (force)`));
    await admin.close();
  });

  it('hands each batch no replica holds to exactly one of many claimers racing on two replicas', async () => {
    const [a, b] = replicas.map(createSuggestionBatchesRepository);
    await replicas[0]!.db.insert(suggestionBatches).values(Array.from({ length: 40 }, (_, i) => batchRow(i)));
    const claims: string[] = [];
    const claimer = async (repo: typeof a, who: string) => {
      for (;;) {
        const batch = await repo!.claimNext(who, new Date(), LEASE_MS);
        if (!batch) return;
        claims.push(batch.id);
        expect(batch.leaseOwner).toBe(who);
      }
    };
    await Promise.all(Array.from({ length: 8 }, (_, i) => claimer(i % 2 ? a : b, `replica-${i % 2}-claimer-${i}`)));
    expect(claims).toHaveLength(40);
    expect(new Set(claims).size).toBe(40);
    const owners = await replicas[1]!.db
      .select({ owner: suggestionBatches.leaseOwner })
      .from(suggestionBatches)
      .where(sql`${suggestionBatches.examId} like 'exam-claims-%'`);
    expect(owners.every((o) => o.owner?.startsWith('replica-'))).toBe(true);
  });

  it('keeps a held lease, passes a lapsed one to the other replica with what the first stored, and fences the first', async () => {
    const [a, b] = replicas.map(createSuggestionBatchesRepository);
    const row = batchRow(100, 'exam-lease');
    await replicas[0]!.db.insert(suggestionBatches).values(row);
    const now = new Date();
    expect((await a!.claimNext('replica-a', now, LEASE_MS))?.id).toBe(row.id);
    await createSuggestionsRepository(replicas[0]!).insertForBatch(
      {
        id: 'suggestion-lease',
        resultId: 'result-100',
        examId: row.examId,
        ownerId: row.ownerId,
        questionIndex: 0,
        answerHash: 'h',
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
        batchId: row.id,
        createdAt: now,
      },
      'replica-a',
    );
    expect(await b!.claimNext('replica-b', new Date(now.getTime() + LEASE_MS - 100), LEASE_MS)).toBeUndefined();

    const taken = await b!.claimNext('replica-b', new Date(now.getTime() + LEASE_MS + 1), LEASE_MS);
    expect(taken).toMatchObject({ id: row.id, leaseOwner: 'replica-b', progressDone: 1, progressFailed: 0 });
    // The first replica, come back, finds the batch is no longer its own: none of its writes land.
    expect(await a!.renewLease(row.id, 'replica-a', new Date(now.getTime() + 2 * LEASE_MS))).toEqual({ kind: 'lost' });
    expect(await a!.count(row.id, 'replica-a', { done: 1 })).toEqual({ kind: 'lost' });
    await a!.finish(row.id, 'replica-a', { status: 'completed', error: null }, new Date());
    const [after] = await replicas[1]!.db.select().from(suggestionBatches).where(eq(suggestionBatches.id, row.id));
    expect(after).toMatchObject({ status: 'running', leaseOwner: 'replica-b', progressDone: 1 });
  });

  it('lets only one of two replicas start a batch of the same question at the same moment', async () => {
    const [a, b] = replicas.map(createSuggestionBatchesRepository);
    const started = await Promise.all([
      a!.insert({ ...batchRow(200, 'exam-race'), id: 'race-a' }),
      b!.insert({ ...batchRow(200, 'exam-race'), id: 'race-b' }),
    ]);
    expect(started.filter(Boolean)).toHaveLength(1);
    const running = await replicas[0]!.db
      .select()
      .from(suggestionBatches)
      .where(and(eq(suggestionBatches.examId, 'exam-race'), eq(suggestionBatches.status, 'running')));
    expect(running).toHaveLength(1);
  });

  describe('whole replicas', () => {
    let first: TestApp;
    let second: TestApp;
    let gateway: FakeGateway;
    beforeAll(async () => {
      // buildTestApp opens the test database named by TEST_DB_URL: this suite's own.
      process.env.TEST_DB_URL = url;
      gateway = await startFakeGateway();
      const env = { SUGGESTION_BATCH_LEASE_MS: String(LEASE_MS), SUGGESTION_BATCH_HEARTBEAT_MS: '50' };
      first = await buildTestApp({ env, deps: { gradingSuggester: gateway.suggester() } });
      second = await buildTestApp({ env, deps: { database: first.database, gradingSuggester: gateway.suggester() } });
    });
    afterAll(async () => {
      await Promise.all([first.close(), second.close()]);
      await first.database.close();
      await gateway.close();
      delete process.env.TEST_DB_URL;
    });

    it('runs a batch on one replica only, with no transaction open while the gateway answers', async () => {
      const exam = first.exams.put(makeQuestionGradingExam());
      second.exams.put(exam);
      const resultIds: string[] = [];
      for (let i = 0; i < 8; i++) resultIds.push((await sitByExamIndex(first, exam.id, { 0: `Answer ${i}` })).resultId);
      gateway.delayMs = 150;
      const started = await first.inject({
        method: 'POST',
        url: `/api/exams/${exam.id}/questions/0/suggestions`,
        headers: creatorHeaders(first, exam.ownerId),
        payload: { concurrency: 2, samples: 1 },
      });
      expect(started.statusCode).toBe(202);

      const claimed = await Promise.all([first.suggestionBatches.pass(), second.suggestionBatches.pass()]);
      expect(claimed.sort()).toEqual([0, 1]);
      while (gateway.inFlight() < 2) await new Promise((r) => setTimeout(r, 5));
      const open = await queryRows<{ n: number }>(
        admin.db,
        sql`select count(*)::int as n from pg_stat_activity
          where datname = ${name} and state in ('idle in transaction', 'idle in transaction (aborted)')`,
      );
      expect(open[0]!.n).toBe(0);
      await Promise.all([first.suggestionBatches.idle(), second.suggestionBatches.idle()]);

      const [batch] = await first.db.select().from(suggestionBatches).where(eq(suggestionBatches.examId, exam.id));
      expect(batch).toMatchObject({ status: 'completed', progressDone: 8, progressFailed: 0 });
      const rows = await first.db
        .select({ resultId: gradingSuggestions.resultId })
        .from(gradingSuggestions)
        .where(eq(gradingSuggestions.batchId, batch!.id));
      expect(rows.map((r) => r.resultId).sort()).toEqual([...resultIds].sort());
      expect(gateway.peak()).toBe(2);
    });
  });
});
