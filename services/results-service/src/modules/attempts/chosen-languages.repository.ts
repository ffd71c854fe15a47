import { RunLanguageSchema, type RunLanguage } from '@exam/domain/coding';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { ResultsDatabase } from '../../db/database.ts';
import { events } from '../../db/schema.ts';

/** The event a candidate's choice of language leaves in the attempt's record (detail: the language). */
export const LANGUAGE_CHOSEN = 'language-chosen';

/**
 * The languages candidates chose for coding questions that offer several (docs/product.md#coding-questions): each
 * choice is an event of the attempt, the latest per question wins. Runs, submission and grading read them here.
 */
export function createChosenLanguagesRepository({ db }: ResultsDatabase) {
  async function ofAttempts(attemptIds: readonly string[]): Promise<Map<string, Map<number, RunLanguage>>> {
    const byAttempt = new Map<string, Map<number, RunLanguage>>();
    if (attemptIds.length === 0) return byAttempt;
    const rows = await db
      .select({ attemptId: events.attemptId, questionIndex: events.questionIndex, detail: events.detail })
      .from(events)
      .where(and(inArray(events.attemptId, [...new Set(attemptIds)]), eq(events.type, LANGUAGE_CHOSEN)))
      .orderBy(asc(events.id));
    for (const row of rows) {
      const language = RunLanguageSchema.safeParse(row.detail);
      if (row.questionIndex === null || !language.success) continue;
      const chosen = byAttempt.get(row.attemptId) ?? new Map<number, RunLanguage>();
      chosen.set(row.questionIndex, language.data);
      byAttempt.set(row.attemptId, chosen);
    }
    return byAttempt;
  }

  return {
    async choose(choice: { attemptId: string; questionIndex: number; language: RunLanguage; now: Date }) {
      await db.insert(events).values({
        attemptId: choice.attemptId,
        type: LANGUAGE_CHOSEN,
        questionIndex: choice.questionIndex,
        detail: choice.language,
        clientAt: null,
        recordedAt: choice.now,
      });
    },

    /** The attempt's choices by question index (questions without a choice are absent). */
    async of(attemptId: string): Promise<Map<number, RunLanguage>> {
      return (await ofAttempts([attemptId])).get(attemptId) ?? new Map();
    },

    ofAttempts,
  };
}
export type ChosenLanguagesRepository = ReturnType<typeof createChosenLanguagesRepository>;
