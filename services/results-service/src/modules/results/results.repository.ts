import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { ResultsDatabase } from '../../db/database.ts';
import { queryRows } from '../../db/rows.ts';
import { answerFiles, attempts, events, results } from '../../db/schema.ts';
import type { StoredGrade } from '../attempts/snapshot.ts';

export type ResultRow = typeof results.$inferSelect;

export function createResultsRepository({ db }: ResultsDatabase) {
  const owned = (id: string, ownerId: string) => and(eq(results.id, id), eq(results.ownerId, ownerId));

  return {
    listForOwner(ownerId: string): Promise<ResultRow[]> {
      return db.select().from(results).where(eq(results.ownerId, ownerId)).orderBy(desc(results.completedAt));
    },

    async findForOwner(id: string, ownerId: string) {
      const [row] = await db
        .select({ result: results, snapshot: attempts.examSnapshot })
        .from(results)
        .innerJoin(attempts, eq(attempts.id, results.attemptId))
        .where(owned(id, ownerId))
        .limit(1);
      return row;
    },

    filesOf(attemptId: string) {
      return db
        .select({ questionIndex: answerFiles.questionIndex, fileName: answerFiles.fileName, size: answerFiles.size })
        .from(answerFiles)
        .where(eq(answerFiles.attemptId, attemptId));
    },

    async file(attemptId: string, questionIndex: number) {
      const [row] = await db
        .select()
        .from(answerFiles)
        .where(and(eq(answerFiles.attemptId, attemptId), eq(answerFiles.questionIndex, questionIndex)));
      return row;
    },

    eventsOf(attemptId: string) {
      return db.select().from(events).where(eq(events.attemptId, attemptId)).orderBy(asc(events.recordedAt), asc(events.id));
    },

    /** Rewrites the grades under a row lock so two graders' saves apply one after the other. */
    async updateGrades(id: string, ownerId: string, apply: (row: ResultRow) => { grades: StoredGrade[] } & Partial<ResultRow>): Promise<boolean> {
      return db.transaction(async (tx) => {
        const [row] = await tx.select().from(results).where(owned(id, ownerId)).for('update');
        if (!row) return false;
        await tx.update(results).set(apply(row)).where(eq(results.id, id));
        return true;
      });
    },

    /** Per exam of the owner: candidates who started, submitted, were graded, and the mean graded score. */
    examSummaries(ownerId: string) {
      return queryRows<{ exam_id: string; exam_title: string; started: number; submitted: number; graded: number; avg_score: string | null }>(
        db,
        sql`select a.exam_id,
                   (array_agg(a.exam_snapshot->>'title' order by a.started_at desc))[1] as exam_title,
                   count(*)::int as started,
                   count(r.id)::int as submitted,
                   (count(r.id) filter (where r.is_graded))::int as graded,
                   round(avg(r.score) filter (where r.is_graded), 1)::text as avg_score
            from results_service.attempts a
            left join results_service.results r on r.attempt_id = a.id
            where a.owner_id = ${ownerId}
            group by a.exam_id
            order by max(a.started_at) desc`,
      );
    },

    /** Submitted results of one exam with each candidate's integrity counts, in submission order. */
    examRows(examId: string, ownerId: string) {
      const count = (type: string) => sql<number>`(count(${events.id}) filter (where ${events.type} = ${type}))::int`;
      return db
        .select({ result: results, focusLost: count('focus-lost'), blockedPastes: count('paste-blocked'), fullscreenExits: count('fullscreen-exit') })
        .from(results)
        .leftJoin(events, eq(events.attemptId, results.attemptId))
        .where(and(eq(results.examId, examId), eq(results.ownerId, ownerId)))
        .groupBy(results.id)
        .orderBy(asc(results.completedAt), asc(results.id));
    },
  };
}
export type ResultsRepository = ReturnType<typeof createResultsRepository>;
