import { sql, type SQL } from 'drizzle-orm';
import { attempts, examKeepGrades, results } from '../../db/schema.ts';

/**
 * One result per candidate (docs/product.md#windows-attempts-and-accommodations): @exam/domain/cohort's
 * keptAttempt in SQL, so lists, the CSV, the summaries and insights all count the attempt the exam's
 * keepGrade keeps (its rule as results-service last read it from exam-service; 'highest' before then).
 */

/** The exam's keepGrade for an attempt row's exam. */
const keepGradeOf = (examId: SQL | typeof attempts.examId) =>
  sql`coalesce((select g.keep_grade from results_service.exam_keep_grades g where g.exam_id = ${examId}), 'highest')`;

/**
 * ORDER BY terms putting a candidate's kept result first: the highest percentage (ties to the earliest
 * attempt), the newest attempt, or the first, as `keep` says.
 */
export function keepOrder(
  row: {
    score: SQL | typeof results.score;
    maxScore: SQL | typeof results.maxScore;
    attemptNo: SQL | typeof attempts.attemptNo;
  },
  keep: SQL,
): SQL {
  return sql`case when ${keep} = 'highest' then (case when ${row.maxScore} > 0 then ${row.score} / ${row.maxScore} else 0 end) end desc nulls last,
    case when ${keep} = 'last' then ${row.attemptNo} end desc nulls last,
    ${row.attemptNo} asc`;
}

/** The id of the result kept for the candidate of an outer attempts row (its exam id and candidate key). */
export function keptResultIdOf(
  examId: SQL | typeof attempts.examId = attempts.examId,
  candidateKey: SQL | typeof attempts.candidateKey = attempts.candidateKey,
): SQL {
  const order = keepOrder(
    { score: sql.raw('kept_r.score'), maxScore: sql.raw('kept_r.max_score'), attemptNo: sql.raw('kept_a.attempt_no') },
    keepGradeOf(examId),
  );
  return sql`(select kept_r.id from results_service.results kept_r
    join results_service.attempts kept_a on kept_a.id = kept_r.attempt_id
    where kept_a.exam_id = ${examId} and kept_a.candidate_key = ${candidateKey}
    order by ${order} limit 1)`;
}

/** For a row of results left-joined to its attempt: whether it is the one kept (a result without an attempt row is). */
export const isKept = () => sql<boolean>`(${attempts.id} is null or ${results.id} = ${keptResultIdOf()})`;

/** The keepGrade rule joined on its exam, for reads that rank a whole exam at once. */
export const keepGradeColumn = sql`coalesce(${examKeepGrades.keepGrade}, 'highest')`;
