import type { GradingSuggestion } from '@exam/domain/question-grading';
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '@exam/server-kit/db';
import { gradingSuggestions } from '../../db/schema.ts';

export type SuggestionRow = typeof gradingSuggestions.$inferSelect;

/** Result ids per statement: well under PostgreSQL's 65,535 bind parameters. */
const CHUNK = 5000;

/**
 * The newest suggestion of each listed result for the exam's question `examQuestionIndex` (the exam's numbering, as
 * grading_suggestions stores it), by result id. Results without one are absent.
 */
export async function findLatestSuggestions(
  db: Db,
  examQuestionIndex: number,
  resultIds: readonly string[],
): Promise<Map<string, SuggestionRow>> {
  const latest = new Map<string, SuggestionRow>();
  for (let i = 0; i < resultIds.length; i += CHUNK) {
    const rows = await db
      .selectDistinctOn([gradingSuggestions.resultId])
      .from(gradingSuggestions)
      .where(
        and(
          eq(gradingSuggestions.questionIndex, examQuestionIndex),
          inArray(gradingSuggestions.resultId, resultIds.slice(i, i + CHUNK)),
        ),
      )
      .orderBy(gradingSuggestions.resultId, desc(gradingSuggestions.createdAt), desc(gradingSuggestions.id));
    for (const row of rows) latest.set(row.resultId, row);
  }
  return latest;
}

/** A stored suggestion as the grader reads it; `current` while the answer still hashes to what it read. */
export function toGradingSuggestion(row: SuggestionRow, currentAnswerHash: string): GradingSuggestion {
  return {
    id: row.id,
    resultId: row.resultId,
    questionIndex: row.questionIndex,
    points: row.points,
    rubric: row.rubric,
    rationale: row.rationale,
    quote: row.quote,
    uncertain: row.uncertain,
    samplePoints: row.samplePoints,
    provider: row.provider,
    model: row.model,
    createdAt: row.createdAt.toISOString(),
    current: row.answerHash === currentAnswerHash,
  };
}
