import type { MarkDecision } from '@exam/domain/question-grading';
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { ResultsDatabase } from '../../db/database.ts';
import { answerGroupDetachments, gradeHistory, gradingSuggestions } from '../../db/schema.ts';
import { findLatestSuggestions, type SuggestionRow } from './latest-suggestions.ts';

/** Result ids per statement: well under PostgreSQL's 65,535 bind parameters. */
const CHUNK = 5000;

/**
 * Grading by question's own rows: answers taken out of their groups, who decided each mark (grade_history), and
 * the AI suggestions a mark may take. Callers have checked the exam is the owner's.
 */
export function createQuestionGradingRepository({ db }: ResultsDatabase) {
  return {
    /** The results of the exam's question (exam numbering) a grader took out of their groups. */
    async detachedResults(examId: string, examQuestionIndex: number): Promise<Set<string>> {
      const rows = await db
        .select({ resultId: answerGroupDetachments.resultId })
        .from(answerGroupDetachments)
        .where(
          and(eq(answerGroupDetachments.examId, examId), eq(answerGroupDetachments.questionIndex, examQuestionIndex)),
        );
      return new Set(rows.map((r) => r.resultId));
    },

    /** Takes the answer out of its group (or puts it back); the same request twice changes nothing. */
    async setDetached(examId: string, examQuestionIndex: number, resultId: string, detached: boolean, at: Date) {
      const row = { examId, questionIndex: examQuestionIndex, resultId };
      if (detached)
        await db
          .insert(answerGroupDetachments)
          .values({ ...row, at })
          .onConflictDoNothing();
      else
        await db
          .delete(answerGroupDetachments)
          .where(
            and(
              eq(answerGroupDetachments.examId, examId),
              eq(answerGroupDetachments.questionIndex, examQuestionIndex),
              eq(answerGroupDetachments.resultId, resultId),
            ),
          );
    },

    /**
     * The newest 'grade' history entry of each listed (result, candidate's question index): who decided the mark,
     * when, and whether it took an AI suggestion. Keyed `${resultId}:${questionIndex}`.
     */
    async latestDecisions(resultIds: readonly string[]): Promise<Map<string, MarkDecision>> {
      const decisions = new Map<string, MarkDecision>();
      for (let i = 0; i < resultIds.length; i += CHUNK) {
        const rows = await db
          .selectDistinctOn([gradeHistory.resultId, gradeHistory.questionIndex], {
            resultId: gradeHistory.resultId,
            questionIndex: gradeHistory.questionIndex,
            by: gradeHistory.by,
            at: gradeHistory.at,
            suggestion: gradeHistory.suggestion,
          })
          .from(gradeHistory)
          .where(and(inArray(gradeHistory.resultId, resultIds.slice(i, i + CHUNK)), eq(gradeHistory.kind, 'grade')))
          .orderBy(gradeHistory.resultId, gradeHistory.questionIndex, desc(gradeHistory.id));
        for (const row of rows)
          decisions.set(`${row.resultId}:${row.questionIndex}`, {
            by: row.by,
            at: row.at.toISOString(),
            suggestion: row.suggestion ?? null,
          });
      }
      return decisions;
    },

    /** The newest suggestion per result for the exam's question (latest-suggestions.ts). */
    latestSuggestions(examQuestionIndex: number, resultIds: readonly string[]) {
      return findLatestSuggestions(db, examQuestionIndex, resultIds);
    },

    /** One of the owner's suggestions, by id. */
    async findSuggestion(id: string, ownerId: string): Promise<SuggestionRow | undefined> {
      const [row] = await db
        .select()
        .from(gradingSuggestions)
        .where(and(eq(gradingSuggestions.id, id), eq(gradingSuggestions.ownerId, ownerId)))
        .limit(1);
      return row;
    },
  };
}
export type QuestionGradingRepository = ReturnType<typeof createQuestionGradingRepository>;
