import type { ProcessRecord } from '@exam/domain/timeline';
import { and, asc, between, eq, sql } from 'drizzle-orm';
import type { ResultsDatabase } from '../../db/database.ts';
import { queryRows } from '../../db/rows.ts';
import {
  announcements,
  answerOperations,
  answers,
  attempts,
  events,
  overrides,
  results,
  testRuns,
} from '../../db/schema.ts';

export type TimelineResultRow = Awaited<ReturnType<ReturnType<typeof createTimelineRepository>['findOwned']>>;
export type OperationChunkRow = Pick<typeof answerOperations.$inferSelect, 'questionIndex' | 'start' | 'ops'>;
export type EventRow = Pick<
  typeof events.$inferSelect,
  'id' | 'type' | 'questionIndex' | 'detail' | 'clientAt' | 'recordedAt'
>;
export type TestRunRow = Pick<typeof testRuns.$inferSelect, 'runId' | 'questionIndex' | 'createdAt'>;
export type AnnouncementRow = Pick<typeof announcements.$inferSelect, 'id' | 'text' | 'createdAt'>;
/** Another result of the exam: its process record's answers, with its questions' ids in the candidate's order. */
export type CohortRow = { answers: ProcessRecord['answers']; questionIds: string[] };

/** The reads behind one attempt's timeline: each table once, by the attempt's (or exam's) index. */
export function createTimelineRepository({ db }: ResultsDatabase) {
  return {
    /** The result with its attempt, only for the creator who owns it (undefined otherwise, as if it did not exist). */
    async findOwned(resultId: string, ownerId: string) {
      const [row] = await db
        .select({
          resultId: results.id,
          attemptId: results.attemptId,
          examId: results.examId,
          grades: results.grades,
          completedAt: results.completedAt,
          startedAt: attempts.startedAt,
          submittedAt: attempts.submittedAt,
          snapshot: attempts.examSnapshot,
          operationsCappedAt: attempts.operationsCappedAt,
          sectionIndex: attempts.sectionIndex,
          sectionStartedAt: attempts.sectionStartedAt,
          /** The candidate's accommodation, which scales section limits (a move by a limit not stored yet is derived). */
          timeFactor: overrides.timeFactor,
        })
        .from(results)
        .innerJoin(attempts, eq(attempts.id, results.attemptId))
        .leftJoin(
          overrides,
          and(eq(overrides.examId, attempts.examId), eq(overrides.candidateKey, attempts.candidateKey)),
        )
        .where(and(eq(results.id, resultId), eq(results.ownerId, ownerId)))
        .limit(1);
      return row;
    },

    /** Every stored chunk of the attempt's operations, in one query, in replay order per question. */
    operationChunks(attemptId: string): Promise<OperationChunkRow[]> {
      return db
        .select({
          questionIndex: answerOperations.questionIndex,
          start: answerOperations.start,
          ops: answerOperations.ops,
        })
        .from(answerOperations)
        .where(eq(answerOperations.attemptId, attemptId))
        .orderBy(asc(answerOperations.questionIndex), asc(answerOperations.start));
    },

    /** When each answer was last saved: where a `restored` operation that closes a gap is placed in time. */
    answerTimes(attemptId: string) {
      return db
        .select({ questionIndex: answers.questionIndex, updatedAt: answers.updatedAt })
        .from(answers)
        .where(eq(answers.attemptId, attemptId));
    },

    events(attemptId: string): Promise<EventRow[]> {
      return db
        .select({
          id: events.id,
          type: events.type,
          questionIndex: events.questionIndex,
          detail: events.detail,
          clientAt: events.clientAt,
          recordedAt: events.recordedAt,
        })
        .from(events)
        .where(eq(events.attemptId, attemptId))
        .orderBy(asc(events.recordedAt), asc(events.id));
    },

    testRuns(attemptId: string): Promise<TestRunRow[]> {
      return db
        .select({ runId: testRuns.runId, questionIndex: testRuns.questionIndex, createdAt: testRuns.createdAt })
        .from(testRuns)
        .where(eq(testRuns.attemptId, attemptId))
        .orderBy(asc(testRuns.createdAt));
    },

    /** The examiner's announcements to the exam while the attempt ran. */
    announcementsBetween(examId: string, from: Date, to: Date): Promise<AnnouncementRow[]> {
      return db
        .select({ id: announcements.id, text: announcements.text, createdAt: announcements.createdAt })
        .from(announcements)
        .where(and(eq(announcements.examId, examId), between(announcements.createdAt, from, to)))
        .orderBy(asc(announcements.createdAt));
    },

    /**
     * The exam's other results that have a process record, for the cohort's percentiles. Only the answers'
     * figures and the questions' ids leave the database, never a whole snapshot.
     */
    async cohort(examId: string, exceptResultId: string): Promise<CohortRow[]> {
      const rows = await queryRows<{ answers: unknown; question_ids: unknown }>(
        db,
        sql`select ${results.process}->'answers' as answers,
              jsonb_path_query_array(${attempts.examSnapshot}, '$.questions[*].id') as question_ids
            from ${results} join ${attempts} on ${attempts.id} = ${results.attemptId}
            where ${results.examId} = ${examId} and ${results.id} <> ${exceptResultId} and ${results.process} is not null`,
      );
      const json = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value);
      return rows.map((r) => ({
        answers: (json(r.answers) ?? []) as CohortRow['answers'],
        questionIds: (json(r.question_ids) ?? []) as string[],
      }));
    },
  };
}
export type TimelineRepository = ReturnType<typeof createTimelineRepository>;
