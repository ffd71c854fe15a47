import type { WorkspaceFile } from '@exam/domain/internal';
import type { PrivacyExportFile } from '@exam/domain/privacy';
import {
  eraseCandidateRows,
  exportCandidateRows,
  tablesOfSchema,
  type CandidateIds,
} from '@exam/server-kit/candidate-data';
import type { Db } from '@exam/server-kit/db';
import { and, asc, eq, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { ResultsDatabase } from '../../db/database.ts';
import * as schema from '../../db/schema.ts';
import { RESULTS_CANDIDATE_TABLES } from './candidate-tables.ts';

export const RESULTS_TABLES = tablesOfSchema(schema);
const { attempts, results } = schema;

/** A candidate's rows in results-service: found, erased and exported (modules/privacy). */
export function createPrivacyRepository({ db }: ResultsDatabase) {
  /** The attempts' results and what an audit subject may say of the candidate (their ID as typed, their key). */
  async function resolve(
    d: Db,
    base: Pick<CandidateIds, 'examId' | 'candidateKey' | 'attemptIds'>,
  ): Promise<CandidateIds & { resultIds: string[] }> {
    const attemptIds = [...base.attemptIds];
    const owned =
      attemptIds.length > 0
        ? await d
            .select({ id: attempts.id, studentId: attempts.studentId, key: attempts.candidateKey })
            .from(attempts)
            .where(and(eq(attempts.examId, base.examId), inArray(attempts.id, attemptIds)))
        : [];
    const resultIds =
      attemptIds.length > 0
        ? (await d.select({ id: results.id }).from(results).where(inArray(results.attemptId, attemptIds))).map(
            (r) => r.id,
          )
        : [];
    const subjects = new Set<string>(owned.flatMap((a) => [a.studentId, a.key]));
    if (base.candidateKey) subjects.add(base.candidateKey);
    return { ...base, attemptIds, resultIds, subjects: [...subjects] };
  }

  return {
    /** The candidate's attempts at the exam, oldest first. */
    async attemptsOf(examId: string, candidateKey: string) {
      return db
        .select({ attemptId: attempts.id, candidateKey: attempts.candidateKey })
        .from(attempts)
        .where(and(eq(attempts.examId, examId), eq(attempts.candidateKey, candidateKey)))
        .orderBy(asc(attempts.startedAt));
    },

    /** Attempts submitted before `before`, or never submitted and started before it: past the retention period. */
    async expiredAttempts(examId: string, before: Date, limit: number) {
      return db
        .select({ attemptId: attempts.id, candidateKey: attempts.candidateKey })
        .from(attempts)
        .where(
          and(
            eq(attempts.examId, examId),
            or(
              and(isNotNull(attempts.submittedAt), lt(attempts.submittedAt, before)),
              and(isNull(attempts.submittedAt), lt(attempts.startedAt, before)),
            ),
          ),
        )
        .orderBy(asc(attempts.startedAt))
        .limit(limit);
    },

    /**
     * Deletes everything of the candidate (or, without a key, of the attempts) in one transaction; grade history
     * too, which the trigger allows only while this transaction says so (src/db/functions/grade_history_append_only.sql).
     */
    async erase(request: Pick<CandidateIds, 'examId' | 'candidateKey' | 'attemptIds'>) {
      return db.transaction(async (tx) => {
        await tx.execute(sql`select set_config('results_service.erasing', 'on', true)`);
        const ids = await resolve(tx as unknown as Db, request);
        return eraseCandidateRows(tx as unknown as Db, RESULTS_TABLES, RESULTS_CANDIDATE_TABLES, ids);
      });
    },

    /** Every row of the candidate, with uploaded files and collected workspace files as files. */
    async export(examId: string, candidateKey: string) {
      const attemptIds = (await this.attemptsOf(examId, candidateKey)).map((a) => a.attemptId);
      const ids = await resolve(db as unknown as Db, { examId, candidateKey, attemptIds });
      const out = await exportCandidateRows(
        db as unknown as Db,
        'results-service',
        RESULTS_TABLES,
        RESULTS_CANDIDATE_TABLES,
        ids,
      );
      const files: PrivacyExportFile[] = [...out.files];
      for (const result of out.tables.results ?? []) {
        const collected = (result.workspace_files ?? {}) as Record<string, WorkspaceFile>;
        for (const [path, file] of Object.entries(collected)) {
          const base64 = file.contentBase64 ?? (file.isBinary ? '' : Buffer.from(file.content).toString('base64'));
          if (!base64) continue;
          files.push({
            path: `files/results-service/workspace/${String(result.attempt_id)}/${path.replace(/^\/+/, '')}`,
            base64,
          });
        }
      }
      return { tables: out.tables, files };
    },
  };
}
export type PrivacyRepository = ReturnType<typeof createPrivacyRepository>;
