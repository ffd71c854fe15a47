import { AppError, ErrorCode } from '@exam/domain/errors';
import { eraseCandidateRows, type CandidateTables } from '@exam/server-kit/candidate-data';
import type { Db } from '@exam/server-kit/db';
import { and, eq, sql } from 'drizzle-orm';
import { recordAudit, type AuditActor } from '../../access/audit-log.ts';
import type { ExamScope } from '../../access/exam-ownership.ts';
import type { ResultsDatabase } from '../../db/database.ts';
import { attempts, results } from '../../db/schema.ts';
import type { Deps } from '../../deps.ts';
import { RESULTS_CANDIDATE_TABLES } from './candidate-tables.ts';
import { RESULTS_TABLES } from './privacy.repository.ts';

/**
 * What deleting one result removes: every row hanging off its attempt, as an erasure declares them
 * (candidate-tables.ts), except two kinds. The audit log keeps its events (a deletion is not a data request: who
 * graded and who deleted stays on record, naming only the result id), and rows that belong to the candidate rather
 * than the attempt (accommodations) stay for their next attempt. The exam's cached insights are dropped.
 */
export const RESULT_DELETION_TABLES: CandidateTables = Object.fromEntries(
  Object.entries(RESULTS_CANDIDATE_TABLES).filter(([, link]) => link.by !== 'subject' && link.by !== 'candidate'),
);

/** Deletes one result with its attempt and records `result.deleted` in the same transaction. */
export function createResultDeletion({ database, redis }: Pick<Deps, 'redis'> & { database: ResultsDatabase }) {
  const { db } = database;
  return async function deleteResult(
    resultId: string,
    scope: ExamScope,
    actor: AuditActor,
    at: Date,
  ): Promise<Record<string, number>> {
    const deleted = await db.transaction(async (tx) => {
      const [row] = await tx
        .select({ attemptId: results.attemptId, attemptNo: attempts.attemptNo })
        .from(results)
        .innerJoin(attempts, eq(attempts.id, results.attemptId))
        .where(and(eq(results.id, resultId), eq(results.ownerId, scope.ownerId), eq(results.examId, scope.examId)))
        .for('update');
      if (!row) throw new AppError(ErrorCode.NOT_FOUND, 'Result not found');
      // Grade history is append-only except within this flag (src/db/functions/grade_history_append_only.sql).
      await tx.execute(sql`select set_config('results_service.erasing', 'on', true)`);
      const changed = await eraseCandidateRows(tx as unknown as Db, RESULTS_TABLES, RESULT_DELETION_TABLES, {
        examId: scope.examId,
        candidateKey: null,
        attemptIds: [row.attemptId],
        resultIds: [resultId],
      });
      await recordAudit(tx, actor, at, [
        {
          examId: scope.examId,
          action: 'result.deleted',
          subject: resultId,
          detail: { attemptId: row.attemptId, attemptNo: row.attemptNo },
        },
      ]);
      return { changed, attemptId: row.attemptId };
    });
    // Presence kept in Redis expires by itself, but nothing of a deleted attempt should wait for it.
    if (redis) await redis.client.del(`${redis.keyPrefix}presence:${deleted.attemptId}`);
    return deleted.changed;
  };
}
export type DeleteResult = ReturnType<typeof createResultDeletion>;
