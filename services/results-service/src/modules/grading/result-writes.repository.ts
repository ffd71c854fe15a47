import { and, asc, eq, inArray } from 'drizzle-orm';
import type { ResultsDatabase } from '../../db/database.ts';
import { attempts, gradeHistory, results } from '../../db/schema.ts';
import type { ExamSnapshot } from '../../scoring/snapshot.ts';
import { recordScoreChanges } from '../lti/score-sync.repository.ts';
import type { ResultRow } from '../results/results.repository.ts';
import { recordAudit, type AuditActor, type AuditEntry } from '../../access/audit-log.ts';
import { auditActorOf } from '../../access/exam-ownership.ts';

export type HistoryRow = Omit<typeof gradeHistory.$inferInsert, 'id'>;
export type LockedResult = { result: ResultRow; snapshot: ExamSnapshot };
/** What a change writes: result columns, the attempt's new snapshot (regrade), and history rows. */
export type ResultWrite = {
  resultId: string;
  attemptId: string;
  result?: Partial<Omit<ResultRow, 'id'>>;
  snapshot?: ExamSnapshot;
};
/** `actor`: the creator who made the change, named in the exam's audit log (one event per history row). */
export type Writes = { writes: ResultWrite[]; history: HistoryRow[]; actor?: AuditActor };

/** The change, named in the audit log as made by `who` (a Grader, possibly acting for the exam's owner). */
export function withActor<W extends Writes>(writes: W, who: { sub: string; email: string; actorId?: string }): W {
  return { ...writes, actor: auditActorOf(who) };
}

/** The audit log's events of a change's history rows (access/audit-log.ts); test runs are the platform's own. */
export function auditOfHistory(history: readonly HistoryRow[], examOf: ReadonlyMap<string, string>): AuditEntry[] {
  const regraded = new Map<string, { questionIndex: number | null; from: unknown; to: unknown }[]>();
  const entries: AuditEntry[] = [];
  for (const h of history) {
    const examId = examOf.get(h.resultId);
    if (!examId) continue;
    const points = {
      questionIndex: h.questionIndex ?? null,
      from: h.before?.points ?? null,
      to: h.after?.points ?? null,
    };
    if (h.kind === 'grade') entries.push({ examId, action: 'result.graded', subject: h.resultId, detail: points });
    else if (h.kind === 'release') entries.push({ examId, action: 'result.released', subject: h.resultId });
    else if (h.kind === 'unrelease') entries.push({ examId, action: 'result.unreleased', subject: h.resultId });
    else if (h.kind === 'regrade') regraded.set(h.resultId, [...(regraded.get(h.resultId) ?? []), points]);
  }
  for (const [resultId, changes] of regraded)
    entries.push({
      examId: examOf.get(resultId) ?? '',
      action: 'result.regraded',
      subject: resultId,
      detail: { changes },
    });
  return entries;
}

/** Independent statements of one transaction go out together (postgres.js pipelines them). */
const BATCH = 50;

/**
 * Changes of grades, scores and releases. Each runs in one transaction over rows locked FOR UPDATE, so two
 * graders (or a grader and a regrade) apply one after the other, and a change and its history rows are
 * written together or not at all.
 */
export function createResultWritesRepository({ db }: ResultsDatabase) {
  type Tx = Parameters<Parameters<typeof db.transaction>[0]>[0];

  async function write(tx: Tx, { writes, history, actor }: Writes, locked: readonly LockedResult[]) {
    for (let i = 0; i < writes.length; i += BATCH) {
      await Promise.all(
        writes
          .slice(i, i + BATCH)
          .flatMap((w) => [
            ...(w.result ? [tx.update(results).set(w.result).where(eq(results.id, w.resultId))] : []),
            ...(w.snapshot
              ? [tx.update(attempts).set({ examSnapshot: w.snapshot }).where(eq(attempts.id, w.attemptId))]
              : []),
          ]),
      );
    }
    for (let i = 0; i < history.length; i += 500) await tx.insert(gradeHistory).values(history.slice(i, i + 500));
    // The LMS score passback outbox, in the same transaction (ARCHITECTURE.md, "LTI Advantage: score passback and course rosters").
    const changed = writes.filter((w) => w.result?.updatedAt);
    const at = changed[0]?.result?.updatedAt;
    if (at) await recordScoreChanges(tx, [...new Set(changed.map((w) => w.resultId))], at);
    if (actor && history[0]) {
      const examOf = new Map(locked.map((l) => [l.result.id, l.result.examId]));
      await recordAudit(tx, actor, history[0].at, auditOfHistory(history, examOf));
    }
  }

  const lockedSelect = (tx: Tx) =>
    tx
      .select({ result: results, snapshot: attempts.examSnapshot })
      .from(results)
      .innerJoin(attempts, eq(attempts.id, results.attemptId));

  return {
    /**
     * Locks one of the owner's results and lets `change` decide what to write (nothing: undefined).
     * Returns false when the owner has no such result. An error thrown by `change` writes nothing.
     */
    async changeResult(
      id: string,
      ownerId: string,
      change: (locked: LockedResult) => Writes | undefined,
    ): Promise<boolean> {
      return db.transaction(async (tx) => {
        const [locked] = await lockedSelect(tx)
          .where(and(eq(results.id, id), eq(results.ownerId, ownerId)))
          .for('update');
        if (!locked) return false;
        const writes = change(locked);
        if (writes) await write(tx, writes, [locked]);
        return true;
      });
    },

    /**
     * Locks the listed results of the owner's exam in id order (two graders marking overlapping groups then take
     * the locks in the same order and never deadlock) and lets `change` decide what to write. Undefined, with
     * nothing written, when any id is not a result of that exam and owner. An error thrown by `change` writes nothing.
     */
    async changeResults<T>(
      examId: string,
      ownerId: string,
      ids: readonly string[],
      change: (locked: LockedResult[]) => Writes & { value: T },
    ): Promise<T | undefined> {
      const wanted = [...new Set(ids)];
      return db.transaction(async (tx) => {
        const locked = await lockedSelect(tx)
          .where(and(inArray(results.id, wanted), eq(results.examId, examId), eq(results.ownerId, ownerId)))
          .orderBy(asc(results.id))
          .for('update');
        if (locked.length !== wanted.length) return undefined;
        const { value, ...writes } = change(locked);
        await write(tx, writes, locked);
        return value;
      });
    },

    /**
     * Locks the listed results of the allowed exams (access/exam-ownership.ts allowedExamsOf), whatever their exam, in
     * id order (as changeResults, so no deadlock with a grader's group marks) and lets `change` decide what to write.
     * Undefined, with nothing written, when any id is not a result of those exams. An error thrown by `change` writes nothing.
     */
    async changeOwnedResults<T>(
      examIds: readonly string[],
      ids: readonly string[],
      change: (locked: LockedResult[]) => Writes & { value: T },
    ): Promise<T | undefined> {
      const wanted = [...new Set(ids)];
      return db.transaction(async (tx) => {
        const locked = await lockedSelect(tx)
          .where(and(inArray(results.id, wanted), inArray(results.examId, [...examIds])))
          .orderBy(asc(results.id))
          .for('update');
        if (locked.length !== wanted.length) return undefined;
        const { value, ...writes } = change(locked);
        await write(tx, writes, locked);
        return value;
      });
    },

    /**
     * Every result of the owner's exam with its attempt's snapshot, in submission order; `change` returns
     * what to write and a value for the caller. With `apply: false` the rows are read unlocked and nothing
     * is written (a dry run).
     */
    async changeExamResults<T>(
      examId: string,
      ownerId: string,
      opts: { apply: boolean },
      change: (locked: LockedResult[]) => Writes & { value: T },
    ): Promise<T> {
      return db.transaction(async (tx) => {
        const query = lockedSelect(tx)
          .where(and(eq(results.examId, examId), eq(results.ownerId, ownerId)))
          .orderBy(asc(results.completedAt), asc(results.id));
        const rows = await (opts.apply ? query.for('update') : query);
        const { value, ...writes } = change(rows);
        if (opts.apply) await write(tx, writes, rows);
        return value;
      });
    },
  };
}
export type ResultWritesRepository = ReturnType<typeof createResultWritesRepository>;
