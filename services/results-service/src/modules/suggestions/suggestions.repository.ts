import { and, eq, inArray } from 'drizzle-orm';
import type { ResultsDatabase } from '../../db/database.ts';
import { gradingSuggestions, suggestionBatches } from '../../db/schema.ts';
import type { SuggestionRow } from '../question-grading/latest-suggestions.ts';

export type { SuggestionRow };
export type NewSuggestion = typeof gradingSuggestions.$inferInsert;

/** The suggestions already made for some answers of one question: which answer text each was made for, and by whom. */
export type MadeSuggestion = Pick<SuggestionRow, 'resultId' | 'answerHash' | 'batchId'>;

/** grading_suggestions: rows are only inserted; a changed answer makes the old ones not current, never deleted. */
export function createSuggestionsRepository({ db }: ResultsDatabase) {
  return {
    async insert(row: NewSuggestion): Promise<SuggestionRow> {
      const [stored] = await db.insert(gradingSuggestions).values(row).returning();
      return stored!;
    },

    /**
     * Stores a batch's suggestion and counts it done in one short transaction (after the gateway answered, never
     * around the call), so a batch taken over after a crash counts each answer once. The count moves only while
     * `leaseOwner` still holds the running batch; the suggestion is kept either way (its tokens are spent).
     */
    async insertForBatch(row: NewSuggestion & { batchId: string }, leaseOwner: string): Promise<SuggestionRow> {
      return db.transaction(async (tx) => {
        const [stored] = await tx.insert(gradingSuggestions).values(row).returning();
        const [batch] = await tx
          .select({ done: suggestionBatches.progressDone })
          .from(suggestionBatches)
          .where(
            and(
              eq(suggestionBatches.id, row.batchId),
              eq(suggestionBatches.leaseOwner, leaseOwner),
              eq(suggestionBatches.status, 'running'),
            ),
          )
          .for('update');
        if (batch)
          await tx
            .update(suggestionBatches)
            .set({ progressDone: batch.done + 1, error: null })
            .where(eq(suggestionBatches.id, row.batchId));
        return stored!;
      });
    },

    /** Every suggestion of these answers of the exam's question `questionIndex` (the exam's numbering). */
    async madeFor(examId: string, questionIndex: number, resultIds: readonly string[]): Promise<MadeSuggestion[]> {
      if (resultIds.length === 0) return [];
      return db
        .selectDistinct({
          resultId: gradingSuggestions.resultId,
          answerHash: gradingSuggestions.answerHash,
          batchId: gradingSuggestions.batchId,
        })
        .from(gradingSuggestions)
        .where(
          and(
            eq(gradingSuggestions.examId, examId),
            eq(gradingSuggestions.questionIndex, questionIndex),
            inArray(gradingSuggestions.resultId, [...resultIds]),
          ),
        );
    },
  };
}
export type SuggestionsRepository = ReturnType<typeof createSuggestionsRepository>;
