import { NAVIGATION_EVENT_TYPES } from '@exam/domain/attempt';
import { SECTION_START_EVENT } from '@exam/domain/sections';
import type { LmsSyncState } from '@exam/domain/lti-ags';
import { and, asc, desc, eq, ilike, inArray, ne, notInArray, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { ResultsDatabase } from '../../db/database.ts';
import { queryRows } from '../../db/rows.ts';
import { answerFiles, answers, attempts, events, gradeHistory, ltiScoreSyncs, results } from '../../db/schema.ts';
import { createChosenLanguagesRepository } from '../attempts/chosen-languages.repository.ts';
import { isKept, keptResultIdOf } from './kept-results.ts';
import type { ResultsCursor } from './results-cursor.ts';

export type ResultRow = typeof results.$inferSelect;
/**
 * Events that are not proctoring incidents (a question shown; a section entered, which the server records for the
 * timeline), left out of a result's events.
 */
const notNavigation = notInArray(events.type, [...NAVIGATION_EVENT_TYPES, SECTION_START_EVENT]);

const summaryColumns = {
  id: results.id,
  examId: results.examId,
  examTitle: results.examTitle,
  userName: results.userName,
  studentId: results.studentId,
  score: results.score,
  maxScore: results.maxScore,
  status: results.status,
  pendingCount: results.pendingCount,
  totalQuestions: results.totalQuestions,
  answeredCount: results.answeredCount,
  gradedAt: results.gradedAt,
  releasedAt: results.releasedAt,
  timeSpent: results.timeSpent,
  startedAt: results.startedAt,
  completedAt: results.completedAt,
};
/** The LMS score passback of a result (null columns: none). */
const lmsColumns = {
  lmsState: ltiScoreSyncs.state,
  lmsTries: ltiScoreSyncs.tries,
  lmsLastError: ltiScoreSyncs.lastError,
  lmsSyncedAt: ltiScoreSyncs.syncedAt,
};
type LmsColumns = {
  lmsState?: LmsSyncState | null;
  lmsTries?: number | null;
  lmsLastError?: string | null;
  lmsSyncedAt?: Date | null;
};
/** A result as lists show it, with its attempt's number and whether keepGrade counts it. */
export type ResultSummaryRow = Pick<ResultRow, keyof typeof summaryColumns> & {
  attemptNo: number;
  kept: boolean;
  practice?: boolean;
} & LmsColumns;
const attemptColumns = {
  attemptNo: sql<number>`coalesce(${attempts.attemptNo}, 1)`.mapWith(Number),
  kept: isKept(),
  practice: sql<boolean>`coalesce(${attempts.practice}, false)`,
};

export type ResultsPageQuery = {
  limit: number;
  after?: ResultsCursor;
  examId?: string;
  studentId?: string;
  /** true: no question waits for a grader (status is not 'pending'); false: some does. */
  graded?: boolean;
  search?: string;
};

/** Reads of the owner's results; another creator's are never returned. */
/**
 * An uploaded file counts while the question's answer still names it: the server keeps no deletion, so a
 * candidate who removed their file (the answer set back to '') leaves a row that is no longer their answer.
 */
const stillTheAnswer = and(
  eq(answers.attemptId, answerFiles.attemptId),
  eq(answers.questionIndex, answerFiles.questionIndex),
  sql`${answers.answer} = 'File: ' || ${answerFiles.fileName}`,
);

/** Whose results a cross-exam listing shows: the creator's own exams' and the exams shared with them. */
export type Viewer = { ownerId: string; sharedExamIds: string[] };

export function createResultsRepository(database: ResultsDatabase) {
  const { db } = database;
  const chosenLanguages = createChosenLanguagesRepository(database);
  const owned = (id: string, ownerId: string) => and(eq(results.id, id), eq(results.ownerId, ownerId));
  /** The viewer's own rows and those of the exams shared with them (access/exam-ownership.ts sharedExamIds). */
  const visible = (owner: SQLWrapper, exam: SQLWrapper, v: Viewer) =>
    v.sharedExamIds.length > 0
      ? (or(eq(owner, v.ownerId), inArray(exam, v.sharedExamIds)) as SQL)
      : eq(owner, v.ownerId);

  return {
    /**
     * One page of the owner's results, newest submission first and ties by id (both descending), after
     * `after` when given. Reads one row more than asked so the caller knows whether another page follows.
     * Only the summary columns: grades and workspace files can be large.
     */
    listPage(viewer: Viewer, page: ResultsPageQuery): Promise<ResultSummaryRow[]> {
      const conditions: SQL[] = [visible(results.ownerId, results.examId, viewer)];
      if (page.examId) conditions.push(eq(results.examId, page.examId));
      if (page.studentId) conditions.push(eq(results.studentId, page.studentId));
      if (page.graded !== undefined)
        conditions.push(page.graded ? ne(results.status, 'pending') : eq(results.status, 'pending'));
      if (page.search) {
        const pattern = `%${page.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        conditions.push(
          or(
            ilike(results.userName, pattern),
            ilike(results.studentId, pattern),
            ilike(results.examTitle, pattern),
          ) as SQL,
        );
      }
      if (page.after)
        conditions.push(
          sql`(${results.completedAt}, ${results.id}) < (${page.after.completedAt.toISOString()}::timestamptz, ${page.after.id})`,
        );
      return db
        .select({ ...summaryColumns, ...attemptColumns, ...lmsColumns })
        .from(results)
        .leftJoin(attempts, eq(attempts.id, results.attemptId))
        .leftJoin(ltiScoreSyncs, eq(ltiScoreSyncs.resultId, results.id))
        .where(and(...conditions))
        .orderBy(desc(results.completedAt), desc(results.id))
        .limit(page.limit + 1);
    },

    /**
     * One candidate's attempts (by candidate key) at the owner's exams, newest start first, each with its
     * result when submitted. Reads one row more than `limit` so the caller knows the list was cut.
     */
    candidateAttempts(viewer: Viewer, key: string, limit: number) {
      return db
        .select({
          attemptId: attempts.id,
          examId: attempts.examId,
          examTitle: sql<string>`${attempts.examSnapshot} ->> 'title'`,
          name: attempts.name,
          studentId: attempts.studentId,
          attemptNo: attempts.attemptNo,
          startedAt: attempts.startedAt,
          submittedAt: attempts.submittedAt,
          resultId: results.id,
          result: summaryColumns,
          kept: isKept(),
          practice: attempts.practice,
        })
        .from(attempts)
        .leftJoin(results, eq(results.attemptId, attempts.id))
        .where(and(visible(attempts.ownerId, attempts.examId, viewer), eq(attempts.candidateKey, key)))
        .orderBy(desc(attempts.startedAt), desc(attempts.id))
        .limit(limit + 1);
    },

    async findForOwner(id: string, ownerId: string) {
      const [row] = await db
        .select({ result: results, snapshot: attempts.examSnapshot, ...attemptColumns, ...lmsColumns })
        .from(results)
        .innerJoin(attempts, eq(attempts.id, results.attemptId))
        .leftJoin(ltiScoreSyncs, eq(ltiScoreSyncs.resultId, results.id))
        .where(owned(id, ownerId))
        .limit(1);
      return row;
    },

    /** The languages the candidate chose for coding questions that offer several, by question index. */
    languagesOf(attemptId: string) {
      return chosenLanguages.of(attemptId);
    },

    /** The attempt's answer files that are still its answers (a file the candidate removed is not). */
    filesOf(attemptId: string) {
      return db
        .select({ questionIndex: answerFiles.questionIndex, fileName: answerFiles.fileName, size: answerFiles.size })
        .from(answerFiles)
        .innerJoin(answers, stillTheAnswer)
        .where(eq(answerFiles.attemptId, attemptId));
    },

    async file(attemptId: string, questionIndex: number) {
      const [row] = await db
        .select({ file: answerFiles })
        .from(answerFiles)
        .innerJoin(answers, stillTheAnswer)
        .where(and(eq(answerFiles.attemptId, attemptId), eq(answerFiles.questionIndex, questionIndex)));
      return row?.file;
    },

    /**
     * The attempt's newest `limit` proctoring events, newest first. Navigation (question-view) is left out of
     * the result's events and their counts: it is no integrity incident and would crowd the real ones out.
     */
    newestEventsOf(attemptId: string, limit: number) {
      return db
        .select()
        .from(events)
        .where(and(eq(events.attemptId, attemptId), notNavigation))
        .orderBy(desc(events.recordedAt), desc(events.id))
        .limit(limit);
    },

    /** How many events of each type the attempt stored. */
    eventCountsOf(attemptId: string) {
      return db
        .select({ type: events.type, count: sql<number>`count(*)::int` })
        .from(events)
        .where(and(eq(events.attemptId, attemptId), notNavigation))
        .groupBy(events.type);
    },

    /** The result's grade history, oldest first. */
    historyOf(resultId: string) {
      return db.select().from(gradeHistory).where(eq(gradeHistory.resultId, resultId)).orderBy(asc(gradeHistory.id));
    },

    /**
     * Per exam of the owner: candidates who started, submitted, fully graded, still pending, and the mean
     * percentage of the graded ones, counting each candidate's kept result only (kept-results.ts) (unrounded; score / max_score × 100, 0 for an exam worth no points).
     */
    examSummaries(viewer: Viewer) {
      return queryRows<{
        exam_id: string;
        exam_title: string;
        started: number;
        submitted: number;
        graded: number;
        pending: number;
        avg_percentage: number | null;
      }>(
        db,
        sql`select a.exam_id,
                   (array_agg(a.exam_snapshot->>'title' order by a.started_at desc))[1] as exam_title,
                   count(distinct a.candidate_key)::int as started,
                   count(r.id)::int as submitted,
                   (count(r.id) filter (where r.status <> 'pending'))::int as graded,
                   (count(r.id) filter (where r.status = 'pending'))::int as pending,
                   (avg(case when r.max_score > 0 then r.score * 100 / r.max_score else 0 end)
                      filter (where r.status <> 'pending'))::float8 as avg_percentage
            from results_service.attempts a
            left join results_service.results r
              on r.attempt_id = a.id and r.id = ${keptResultIdOf(sql.raw('a.exam_id'), sql.raw('a.candidate_key'))}
            where a.owner_id = ${viewer.ownerId}${
              viewer.sharedExamIds.length > 0
                ? sql` or a.exam_id in (${sql.join(
                    viewer.sharedExamIds.map((id) => sql`${id}`),
                    sql`, `,
                  )})`
                : sql``
            }
            group by a.exam_id
            order by max(a.started_at) desc`,
      );
    },

    /** Each candidate's kept result of one exam with their integrity counts, in submission order. */
    examRows(examId: string, ownerId: string) {
      const count = (type: string) => sql<number>`(count(${events.id}) filter (where ${events.type} = ${type}))::int`;
      return db
        .select({
          result: results,
          focusLost: count('focus-lost'),
          blockedPastes: count('paste-blocked'),
          fullscreenExits: count('fullscreen-exit'),
          /** An attempt at a practice exam: never in the gradebook. */
          practice: sql<boolean>`coalesce(${attempts.practice}, false)`,
          /**
           * The attempt's question ids in the order its grades are stored (the candidate's, when shuffled or pooled),
           * by which the exports put points under the exam's own questions; null for a result without an attempt.
           */
          questionIds: sql<string[] | null>`jsonb_path_query_array(${attempts.examSnapshot}, '$.questions[*].id')`,
        })
        .from(results)
        .leftJoin(attempts, eq(attempts.id, results.attemptId))
        .leftJoin(events, eq(events.attemptId, results.attemptId))
        .where(and(eq(results.examId, examId), eq(results.ownerId, ownerId), isKept()))
        .groupBy(results.id, attempts.id)
        .orderBy(asc(results.completedAt), asc(results.id));
    },
  };
}
export type ResultsRepository = ReturnType<typeof createResultsRepository>;
