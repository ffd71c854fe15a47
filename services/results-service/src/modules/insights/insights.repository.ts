import { and, asc, desc, eq, isNotNull } from 'drizzle-orm';
import type { ResultsDatabase } from '../../db/database.ts';
import { attempts, events, results } from '../../db/schema.ts';

/** Reads what the insights report of one exam is built from; every query is scoped to the exam's owner. */
export function createInsightsRepository({ db }: ResultsDatabase) {
  const ofExam = (examId: string, ownerId: string) => and(eq(attempts.examId, examId), eq(attempts.ownerId, ownerId));

  return {
    /** Every attempt of the owner's exam, newest first, with its result when it was submitted. */
    attemptsOf(examId: string, ownerId: string) {
      return db
        .select({ attemptId: attempts.id, snapshot: attempts.examSnapshot, result: results })
        .from(attempts)
        .leftJoin(results, eq(results.attemptId, attempts.id))
        .where(ofExam(examId, ownerId))
        .orderBy(desc(attempts.startedAt), asc(attempts.id));
    },

    /** Proctoring events of the exam's submitted attempts, in the order they were recorded. */
    submittedEventsOf(examId: string, ownerId: string) {
      return db
        .select({ attemptId: events.attemptId, type: events.type, at: events.recordedAt })
        .from(events)
        .innerJoin(attempts, eq(attempts.id, events.attemptId))
        .where(and(ofExam(examId, ownerId), isNotNull(attempts.submittedAt)))
        .orderBy(asc(events.recordedAt), asc(events.id));
    },
  };
}
export type InsightsRepository = ReturnType<typeof createInsightsRepository>;
