import type { JudgedDimension } from '@exam/domain/collaboration';
import { and, eq, sql } from 'drizzle-orm';
import type { ResultsDatabase } from '../../db/database.ts';
import { queryRows } from '../../db/rows.ts';
import { attempts, collaborationJudgements, results } from '../../db/schema.ts';

export type JudgementRow = typeof collaborationJudgements.$inferSelect;
export type NewSuggestion = Omit<JudgementRow, 'status' | 'finalLevel' | 'decidedBy' | 'decidedAt'>;

/** What insights read of one judgement: the pair the agreement figures rest on. */
export type CohortJudgement = Pick<JudgementRow, 'resultId' | 'dimension' | 'suggestedLevel' | 'status' | 'finalLevel'>;

/** What insights read of one result's process record for the integration level (no replay: results.process). */
export type ProcessTotals = { messagesSent: number | null; inserted: number | null; kept: number };

/** collaboration_judgements, and the reads of results the profile needs. */
export function createCollaborationRepository({ db }: ResultsDatabase) {
  return {
    /** The result, its exam and the candidate's questions, only for its owner (undefined otherwise). */
    async findOwned(resultId: string, ownerId: string) {
      const [row] = await db
        .select({
          examId: results.examId,
          userName: results.userName,
          studentId: results.studentId,
          snapshot: attempts.examSnapshot,
        })
        .from(results)
        .innerJoin(attempts, eq(attempts.id, results.attemptId))
        .where(and(eq(results.id, resultId), eq(results.ownerId, ownerId)))
        .limit(1);
      return row;
    },

    judgementsOf(resultId: string): Promise<JudgementRow[]> {
      return db.select().from(collaborationJudgements).where(eq(collaborationJudgements.resultId, resultId));
    },

    /**
     * Stores a suggestion: a new one replaces the stored suggestion, and a decided dimension keeps its final level
     * (and who decided), its status saying again whether that level equals the suggestion now stored. One
     * statement, so two suggestions landing at once leave one row.
     */
    async storeSuggestion(row: NewSuggestion): Promise<JudgementRow> {
      const t = collaborationJudgements;
      const [stored] = await db
        .insert(t)
        .values({ ...row, status: 'suggested', finalLevel: null, decidedBy: null, decidedAt: null })
        .onConflictDoUpdate({
          target: [t.resultId, t.dimension],
          set: {
            suggestedLevel: sql`excluded.suggested_level`,
            rationale: sql`excluded.rationale`,
            quotes: sql`excluded.quotes`,
            provider: sql`excluded.provider`,
            model: sql`excluded.model`,
            inputTokens: sql`excluded.input_tokens`,
            outputTokens: sql`excluded.output_tokens`,
            suggestedAt: sql`excluded.suggested_at`,
            status: sql`case when ${t.finalLevel} is null then 'suggested' when ${t.finalLevel} = excluded.suggested_level then 'accepted' else 'edited' end`,
          },
        })
        .returning();
      return stored!;
    },

    /** The grader's level: accepted when it equals the suggestion, edited otherwise; undefined without a suggestion. */
    async decide(
      resultId: string,
      dimension: JudgedDimension,
      level: number,
      decidedBy: string,
      decidedAt: Date,
    ): Promise<JudgementRow | undefined> {
      const t = collaborationJudgements;
      const [row] = await db
        .update(t)
        .set({
          finalLevel: level,
          status: sql`case when ${t.suggestedLevel} = ${level} then 'accepted' else 'edited' end`,
          decidedBy,
          decidedAt,
        })
        .where(and(eq(t.resultId, resultId), eq(t.dimension, dimension)))
        .returning();
      return row;
    },

    /** Every judgement of the owner's exam, for insights (the exam index finds them). */
    examJudgements(examId: string, ownerId: string): Promise<CohortJudgement[]> {
      const t = collaborationJudgements;
      return db
        .select({
          resultId: t.resultId,
          dimension: t.dimension,
          suggestedLevel: t.suggestedLevel,
          status: t.status,
          finalLevel: t.finalLevel,
        })
        .from(t)
        .where(and(eq(t.examId, examId), eq(t.ownerId, ownerId)));
    },

    /**
     * Per result of the owner's exam with a process record: the messages sent, and the characters inserted from the
     * assistant and kept of them, summed in the database so only three numbers a result leave it. `inserted` is null
     * for a record made before it was computed.
     */
    async processTotals(examId: string, ownerId: string): Promise<Map<string, ProcessTotals>> {
      const rows = await queryRows<{
        id: string;
        sent: number | string | null;
        inserted: number | string | null;
        kept: number | string | null;
      }>(
        db,
        sql`select r.id,
              (r.process -> 'summary' ->> 'assistantMessages')::int as sent,
              (select case when coalesce(bool_and((a -> 'assistantInserted') is not null), true)
                   then coalesce(sum((a ->> 'assistantInserted')::int), 0) end
                 from jsonb_array_elements(r.process -> 'answers') a) as inserted,
              (select coalesce(sum((a -> 'sources' ->> 'assistant')::int), 0)
                 from jsonb_array_elements(r.process -> 'answers') a) as kept
            from ${results} r
            where r.exam_id = ${examId} and r.owner_id = ${ownerId} and r.process is not null`,
      );
      const num = (v: number | string | null) => (v === null ? null : Number(v));
      return new Map(
        rows.map((r) => [r.id, { messagesSent: num(r.sent), inserted: num(r.inserted), kept: num(r.kept) ?? 0 }]),
      );
    },
  };
}
export type CollaborationRepository = ReturnType<typeof createCollaborationRepository>;
