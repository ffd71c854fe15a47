import { and, asc, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { ResultsDatabase } from '../../db/database.ts';
import { answerOperations, answers, attempts, events, examKeepGrades, results } from '../../db/schema.ts';
import { keepGradeColumn, keepOrder } from '../results/kept-results.ts';
import type { StoredGrade } from '../../scoring/score.ts';
import type { CompactOperation } from '@exam/domain/answer-operations';

/** (attempt, question) pairs per query of answerHistoriesOf: 2 parameters each, plus the attempt ids. */
const HISTORY_BATCH = 5_000;

/** What insights read of a stored grade: its points (null while pending) and the answer as submitted. */
export type InsightsGrade = Pick<StoredGrade, 'points' | 'answer'>;

/**
 * Each result's points and answers as two parallel JSON arrays, one per question in the candidate's order,
 * unpacked from `grades` by PostgreSQL: feedback, rubric criteria and test verdicts never leave the database,
 * and the service parses two short arrays per result instead of a document of 50 objects. `g->'x'` (not a
 * JSON path, which skips a missing key) keeps every question at its index.
 */
const compactGrades = sql<[Array<number | null>, Array<string | null>] | null>`(
  select jsonb_build_array(
    coalesce(jsonb_agg(g.value->'points' order by g.ordinality), '[]'::jsonb),
    coalesce(jsonb_agg(g.value->'answer' order by g.ordinality), '[]'::jsonb))
  from jsonb_array_elements(${results.grades}) with ordinality as g)`;

/** The compact arrays back as grades (a JSON null becomes null; the points stay numbers). */
function gradesOf(compact: [Array<number | null>, Array<string | null>] | null): InsightsGrade[] {
  if (!compact) return [];
  const [points, answers] = compact;
  const grades = new Array<InsightsGrade>(points.length);
  for (let i = 0; i < points.length; i += 1) grades[i] = { points: points[i] ?? null, answer: answers[i] ?? null };
  return grades;
}

/** Reads what the insights report of one exam is built from; every query is scoped to the exam's owner. */
export function createInsightsRepository({ db }: ResultsDatabase) {
  // Practice attempts never count (docs/product.md#practice-and-review): no read of the report sees them.
  const ofExam = (examId: string, ownerId: string) =>
    and(eq(attempts.examId, examId), eq(attempts.ownerId, ownerId), eq(attempts.practice, false));

  return {
    /**
     * One attempt per candidate of the owner's exam, with the parts of its result the report reads: the
     * result the exam's keepGrade keeps, or the newest attempt while none is submitted. The exam
     * snapshot is left out (latestSnapshotOf reads it once): 10,000 copies of it were most of the
     * bytes and the JSON parsing of a large cohort's report.
     */
    async attemptsOf(examId: string, ownerId: string) {
      // Ranked on narrow columns first, so the grades of 10,000 results are never sorted.
      const kept = db
        .selectDistinctOn([attempts.candidateKey], { id: attempts.id })
        .from(attempts)
        .leftJoin(results, eq(results.attemptId, attempts.id))
        .leftJoin(examKeepGrades, eq(examKeepGrades.examId, attempts.examId))
        .where(ofExam(examId, ownerId))
        .orderBy(
          attempts.candidateKey,
          sql`${results.id} is null`,
          keepOrder(
            { score: results.score, maxScore: results.maxScore, attemptNo: attempts.attemptNo },
            keepGradeColumn,
          ),
          desc(attempts.attemptNo),
        );
      const rows = await db
        .select({
          attemptId: attempts.id,
          /**
           * The attempt's question ids in its order: a few bytes of the snapshot read in SQL, so insights map
           * each candidate's answers of a shuffled or pooled exam back to the exam's questions.
           */
          questionIds: sql<string[]>`jsonb_path_query_array(${attempts.examSnapshot}, '$.questions[*].id')`,
          result: {
            id: results.id,
            userName: results.userName,
            studentId: results.studentId,
            status: results.status,
            score: results.score,
            maxScore: results.maxScore,
            startedAt: results.startedAt,
            completedAt: results.completedAt,
          },
          grades: compactGrades,
        })
        .from(attempts)
        .leftJoin(results, eq(results.attemptId, attempts.id))
        .where(and(ofExam(examId, ownerId), inArray(attempts.id, kept)));
      return rows.map(({ grades, ...row }) => ({
        attemptId: row.attemptId,
        questionIds: row.questionIds,
        result: row.result ? { ...row.result, grades: gradesOf(grades) } : null,
      }));
    },

    /** The snapshot of the owner's newest attempt at the exam: the questions the cohort sat. */
    async latestSnapshotOf(examId: string, ownerId: string) {
      const [row] = await db
        .select({ snapshot: attempts.examSnapshot })
        .from(attempts)
        .where(ofExam(examId, ownerId))
        .orderBy(desc(attempts.startedAt), asc(attempts.id))
        .limit(1);
      return row?.snapshot;
    },

    /** Proctoring events of the exam's submitted attempts, in the order they were recorded. */
    submittedEventsOf(examId: string, ownerId: string) {
      return db
        .select({
          attemptId: events.attemptId,
          type: events.type,
          at: events.recordedAt,
          /** The candidate's index of the question a question-view event shows (insights' time per question). */
          questionIndex: events.questionIndex,
        })
        .from(events)
        .innerJoin(attempts, eq(attempts.id, events.attemptId))
        .where(and(ofExam(examId, ownerId), isNotNull(attempts.submittedAt)))
        .orderBy(asc(events.recordedAt), asc(events.id));
    },

    /**
     * How the given answers came to be, for the reliance figures: only the (attempt, question) pairs the assistant
     * advised on, each with its stored operations in replay order, when the answer was last saved and when the
     * attempt started (the compact operations count from it). Scoped to the owner's exam like every read here.
     * Read in batches, so a large cohort's pairs stay well under PostgreSQL's 65,535 parameters a query.
     */
    async answerHistoriesOf(
      examId: string,
      ownerId: string,
      pairs: ReadonlyArray<{ attemptId: string; questionIndex: number }>,
    ) {
      const out = {
        chunks: [] as Array<{ attemptId: string; questionIndex: number; start: number; ops: CompactOperation[] }>,
        savedAt: [] as Array<{ attemptId: string; questionIndex: number; updatedAt: Date }>,
        startedAt: [] as Array<{ attemptId: string; startedAt: Date; submittedAt: Date | null }>,
      };
      for (let from = 0; from < pairs.length; from += HISTORY_BATCH) {
        const batch = pairs.slice(from, from + HISTORY_BATCH);
        const wanted = sql.join(
          batch.map((p) => sql`(${p.attemptId}, ${p.questionIndex})`),
          sql`, `,
        );
        const owned = and(ofExam(examId, ownerId), inArray(attempts.id, [...new Set(batch.map((p) => p.attemptId))]));
        const [chunks, savedAt, startedAt] = await Promise.all([
          db
            .select({
              attemptId: answerOperations.attemptId,
              questionIndex: answerOperations.questionIndex,
              start: answerOperations.start,
              ops: answerOperations.ops,
            })
            .from(answerOperations)
            .innerJoin(attempts, eq(attempts.id, answerOperations.attemptId))
            .where(and(owned, sql`(${answerOperations.attemptId}, ${answerOperations.questionIndex}) in (${wanted})`))
            .orderBy(asc(answerOperations.attemptId), asc(answerOperations.questionIndex), asc(answerOperations.start)),
          db
            .select({
              attemptId: answers.attemptId,
              questionIndex: answers.questionIndex,
              updatedAt: answers.updatedAt,
            })
            .from(answers)
            .innerJoin(attempts, eq(attempts.id, answers.attemptId))
            .where(and(owned, sql`(${answers.attemptId}, ${answers.questionIndex}) in (${wanted})`)),
          db
            .select({ attemptId: attempts.id, startedAt: attempts.startedAt, submittedAt: attempts.submittedAt })
            .from(attempts)
            .where(owned),
        ]);
        out.chunks.push(...chunks);
        out.savedAt.push(...savedAt);
        // An attempt whose pairs span two batches comes twice: the reader keys them by attempt.
        out.startedAt.push(...startedAt);
      }
      return out;
    },
  };
}
export type InsightsRepository = ReturnType<typeof createInsightsRepository>;
