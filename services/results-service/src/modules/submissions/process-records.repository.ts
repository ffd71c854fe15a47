import type { CompactOperation } from '@exam/domain/answer-operations';
import type { ProcessRecord } from '@exam/domain/timeline';
import { eq, sql, type SQL } from 'drizzle-orm';
import type { ResultsDatabase } from '../../db/database.ts';
import { queryRows } from '../../db/rows.ts';
import { results } from '../../db/schema.ts';
import type { ProcessInput } from '../../scoring/process-worker.ts';
import { parseSnapshot } from '../../scoring/snapshot.ts';

const epochMs = (column: string) => sql.raw(`(extract(epoch from ${column}) * 1000)::float8`);

/**
 * A result whose process is pending, locked, with everything computing it needs in one read: the attempt's start
 * and snapshot, its saved answers (as submitted: a submitted attempt takes no more saves), its stored operations in
 * chunk order and its refused outside pastes. Each part is an index lookup by attempt.
 */
const pendingWith = (where: SQL, lock: SQL) => sql`
  select r.id, r.attempt_id, ${epochMs('r.completed_at')} as completed_ms, ${epochMs('a.started_at')} as started_ms,
    a.exam_snapshot,
    coalesce((select json_agg(json_build_array(s.question_index, s.answer)) from results_service.answers s
      where s.attempt_id = r.attempt_id), '[]') as saved,
    coalesce((select json_agg(json_build_array(o.question_index, o.start, o.ops) order by o.question_index, o.start)
      from results_service.answer_operations o where o.attempt_id = r.attempt_id), '[]') as operations,
    (select count(*)::int from results_service.events v
      where v.attempt_id = r.attempt_id and v.type = 'paste-blocked') as pastes_blocked
  from results_service.results r join results_service.attempts a on a.id = r.attempt_id
  where r.process_pending and ${where}
  order by r.completed_at
  limit 1
  for update of r ${lock}`;

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
   * Locks one pending result (the oldest unless `resultId` names one), lets `compute` make its process and stores
   * it, in one transaction: another replica's job skips the locked row, and a result is computed once. Returns the
   * stored record, or undefined when nothing (or not that result) was pending. When `compute` fails (llm-gateway
   * unreachable) nothing is written and the result stays pending.
   */
  async function computeOne(
    compute: (input: PendingProcess) => Promise<ProcessRecord>,
    resultId?: string,
  ): Promise<ProcessRecord | undefined> {
    return db.transaction(async (tx) => {
      const [row] = await queryRows<PendingRow>(
        tx as unknown as ResultsDatabase['db'],
        resultId ? pendingWith(sql`r.id = ${resultId}`, sql``) : pendingWith(sql`true`, sql`skip locked`),
      );
      if (!row) return undefined;
      const record = await compute(inputOf(row));
      await tx.update(results).set({ process: record, processPending: false }).where(eq(results.id, row.id));
      return record;
    });
  }

  return {
    /** The oldest pending result not locked by another job, computed; undefined when none is waiting. */
    computeNext: (compute: (input: PendingProcess) => Promise<ProcessRecord>) => computeOne(compute),
    /** This result's process, computed now when it is still pending (waiting for a job that holds it). */
    computePendingResult: (resultId: string, compute: (input: PendingProcess) => Promise<ProcessRecord>) =>
      computeOne(compute, resultId),
    async findProcess(resultId: string): Promise<{ process: ProcessRecord | null; pending: boolean } | undefined> {
      const [row] = await db
        .select({ process: results.process, pending: results.processPending })
        .from(results)
        .where(eq(results.id, resultId));
      return row;
    },
  };
}
export type ProcessRecordsRepository = ReturnType<typeof createProcessRecordsRepository>;
