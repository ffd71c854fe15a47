import type { CompactOperation } from '@exam/domain/answer-operations';
import type { ProcessRecord } from '@exam/domain/timeline';
import { and, eq, sql } from 'drizzle-orm';
import type { ResultsDatabase } from '../../db/database.ts';
import { queryRows } from '../../db/rows.ts';
import { results } from '../../db/schema.ts';
import type { ProcessInput } from '../../scoring/process-worker.ts';
import { parseSnapshot } from '../../scoring/snapshot.ts';

const epochMs = (column: string) => sql.raw(`(extract(epoch from ${column}) * 1000)::float8`);

/** How long a job's claim on a pending result lasts: past it (the replica died) another job takes it. */
const LEASE_SECONDS = 120;

/**
 * A result whose process is pending, with everything computing it needs in one read: the attempt's start and
 * snapshot, its saved answers (as submitted: a submitted attempt takes no more saves), its stored operations in
 * chunk order and its refused outside pastes. Each part is an index lookup by attempt. No lock: the job claims the
 * row first (a lease), and writing the record only clears a process still pending.
 */
const pendingInputs = (resultId: string) => sql`
  select r.id, r.attempt_id, ${epochMs('r.completed_at')} as completed_ms, ${epochMs('a.started_at')} as started_ms,
    a.exam_snapshot,
    coalesce((select json_agg(json_build_array(s.question_index, s.answer)) from results_service.answers s
      where s.attempt_id = r.attempt_id), '[]') as saved,
    coalesce((select json_agg(json_build_array(o.question_index, o.start, o.ops) order by o.question_index, o.start)
      from results_service.answer_operations o where o.attempt_id = r.attempt_id), '[]') as operations,
    (select count(*)::int from results_service.events v
      where v.attempt_id = r.attempt_id and v.type = 'paste-blocked') as pastes_blocked
  from results_service.results r join results_service.attempts a on a.id = r.attempt_id
  where r.process_pending and r.id = ${resultId}`;

/**
 * Once an attempt's record is made its operations take no more saves, and each question's chunks (one row per save,
 * about 400 bytes of row and index overhead each: bench/README.md, timeline-storage) become one row holding them
 * all in order; PostgreSQL compresses a value that large (TOAST), so an hour of typing stores in a fraction of the
 * rows' space. Only a question whose chunks are contiguous from its first (every stored log is: appendChunk refuses
 * a gap) is merged; the merged row keeps the first chunk's start, the last one's end and the bytes counted.
 */
export const COMPACT_OPERATIONS = (attemptId: string) => sql`
  with mergeable as (
    select question_index from results_service.answer_operations
    where attempt_id = ${attemptId}
    group by question_index
    having count(*) > 1 and sum("end" - start) = max("end") - min(start)
  ),
  old as (
    delete from results_service.answer_operations o
    using mergeable m
    where o.attempt_id = ${attemptId} and o.question_index = m.question_index
    returning o.question_index, o.start, o."end", o.ops, o.bytes, o.created_at
  ),
  items as (
    select o.question_index, json_agg(x.value order by o.start, x.ord) as ops
    from old o cross join lateral json_array_elements(o.ops) with ordinality as x(value, ord)
    group by o.question_index
  )
  insert into results_service.answer_operations (attempt_id, question_index, start, "end", ops, bytes, created_at)
  select ${attemptId}, g.question_index, g.start, g."end", i.ops, g.bytes, g.created_at
  from (
    select question_index, min(start) as start, max("end") as "end", sum(bytes)::int as bytes, min(created_at) as created_at
    from old group by question_index
  ) g
  join items i using (question_index)`;

/** Claims the oldest pending result no other job holds: one short autocommit statement. */
const CLAIM_NEXT = sql`
  update results_service.results set process_lease_until = now() + make_interval(secs => ${LEASE_SECONDS})
  where id = (
    select id from results_service.results
    where process_pending and (process_lease_until is null or process_lease_until < now())
    order by completed_at
    limit 1
    for update skip locked
  )
  returning id`;

type PendingRow = {
  id: string;
  attempt_id: string;
  completed_ms: number;
  started_ms: number;
  exam_snapshot: unknown;
  saved: [number, string][] | string;
  operations: [number, number, CompactOperation[]][] | string;
  pastes_blocked: number;
};

/** Drivers differ in whether json comes back parsed (db/rows.ts). */
const parsed = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);

/** What the row gives; the transcript's part comes from llm-gateway (process-records.service.ts). */
export type PendingProcess = Omit<ProcessInput, 'trail'> & {
  trail: Omit<ProcessInput['trail'], 'assistantMessages' | 'assistantReplies'>;
};

function inputOf(row: PendingRow): PendingProcess {
  return {
    attemptId: row.attempt_id,
    startedAt: new Date(row.started_ms),
    submittedAt: new Date(row.completed_ms),
    snapshot: parseSnapshot(row.exam_snapshot),
    saved: new Map(parsed(row.saved)),
    trail: {
      chunks: parsed(row.operations).map(([questionIndex, start, ops]) => ({ questionIndex, start, ops })),
      outsidePastesBlocked: Number(row.pastes_blocked),
    },
  };
}

/** results.process and its queue (results.process_pending). */
export function createProcessRecordsRepository({ db }: ResultsDatabase) {
  /**
   * Computes one pending result's process with no transaction open (`compute` asks llm-gateway, which on the
   * embedded database needs the very connection a transaction would hold) and stores it only while still pending,
   * so a result computed twice (an on-demand read racing the job) keeps the first record. Returns the stored
   * record, or undefined when the result was not pending. When `compute` fails nothing is written: the result stays
   * pending.
   */
  async function computeOne(
    resultId: string,
    compute: (input: PendingProcess) => Promise<ProcessRecord>,
  ): Promise<ProcessRecord | undefined> {
    const [row] = await queryRows<PendingRow>(db, pendingInputs(resultId));
    if (!row) return undefined;
    const record = await compute(inputOf(row));
    const stored = await db
      .update(results)
      .set({ process: record, processPending: false, processLeaseUntil: null })
      .where(and(eq(results.id, row.id), eq(results.processPending, true)))
      .returning({ id: results.id });
    if (stored.length === 0) return (await findProcess(resultId))?.process ?? undefined;
    // Storage only: a failure leaves the chunks as they were, which read the same.
    await db.execute(COMPACT_OPERATIONS(row.attempt_id)).catch(() => undefined);
    return record;
  }

  async function findProcess(
    resultId: string,
  ): Promise<{ process: ProcessRecord | null; pending: boolean } | undefined> {
    const [row] = await db
      .select({ process: results.process, pending: results.processPending })
      .from(results)
      .where(eq(results.id, resultId));
    return row;
  }

  return {
    /** The oldest pending result not locked by another job, computed; undefined when none is waiting. */
    async computeNext(compute: (input: PendingProcess) => Promise<ProcessRecord>): Promise<ProcessRecord | undefined> {
      const [claimed] = await queryRows<{ id: string }>(db, CLAIM_NEXT);
      if (!claimed) return undefined;
      try {
        return await computeOne(claimed.id, compute);
      } catch (err) {
        // Given back at once, so the next pass (or another replica) tries again without waiting out the lease.
        await db.update(results).set({ processLeaseUntil: null }).where(eq(results.id, claimed.id));
        throw err;
      }
    },
    /** This result's process, computed now when it is still pending (waiting for a job that holds it). */
    computePendingResult: (resultId: string, compute: (input: PendingProcess) => Promise<ProcessRecord>) =>
      computeOne(resultId, compute),
    findProcess,
  };
}
export type ProcessRecordsRepository = ReturnType<typeof createProcessRecordsRepository>;
