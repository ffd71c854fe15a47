import { rawQuery } from '../../db/rows.ts';
import { parseSnapshot } from '../../scoring/snapshot.ts';
import type { ResultsDb, SubmissionRow, SubmitAttemptRow } from './attempt-rows.ts';

const epochMs = (column: string) => `(extract(epoch from ${column}) * 1000)::float8`;
const READ_FOR_SUBMIT = `
  select a.id, a.exam_id, a.owner_id, a.name, a.student_id, a.result_id, a.exam_snapshot, a.question_count, a.answers_version,
    ${epochMs('a.started_at')} as started_ms, ${epochMs('a.deadline')} as deadline_ms, ${epochMs('a.submitted_at')} as submitted_ms,
    r.answered_count, r.total_questions,
    coalesce((select json_agg(json_build_array(s.question_index, s.answer)) from results_service.answers s where s.attempt_id = a.id), '[]') as saved
  from results_service.attempts a left join results_service.results r on r.id = a.result_id
  where a.id = $1`;
type SubmitReadRow = {
  id: string;
  exam_id: string;
  owner_id: string;
  name: string;
  student_id: string;
  result_id: string | null;
  exam_snapshot: unknown;
  question_count: number;
  answers_version: number;
  started_ms: number;
  deadline_ms: number | null;
  submitted_ms: number | null;
  answered_count: number | null;
  total_questions: number | null;
  saved: [number, string][];
};

const CLAIM = `
    update results_service.attempts set submitted_at = $18::timestamptz, result_id = $3
    where id = $1 and submitted_at is null and answers_version = $2
    returning id`;
const INSERT_RESULT = `
    insert into results_service.results (id, attempt_id, exam_id, owner_id, exam_title, user_name, student_id,
      total_questions, answered_count, score, max_score, status, pending_count, graded_at, time_spent,
      started_at, completed_at, grades, workspace_files, created_at, updated_at, process_pending)
    select $3, id, $4, $5, $6, $7, $8, $9, $10, $11::numeric, $12::numeric, $13, $14::int, $15::timestamptz, $16,
      $17::timestamptz, $18::timestamptz, $19::jsonb, $20::jsonb, $21::timestamptz, $22::timestamptz, true
    from claimed
    returning id`;
/** The result's process (how the answers came to be) is queued in the same row: process_pending, computed off the submit path. */
const COMMIT_SUBMISSION = `with claimed as (${CLAIM}) ${INSERT_RESULT}`;
/**
 * The same with the test-grading outbox rows of the questions graded by tests ($23: [{question_index, code, files}]),
 * still one statement: the runner's work is queued exactly when the submission commits.
 */
const OUTBOX = `outbox as (
    insert into results_service.test_gradings (result_id, attempt_id, question_index, code, files, state, tries,
      next_at, created_at, updated_at)
    select inserted.id, $1, o.question_index, o.code, o.files, 'queued', 0, $21::timestamptz, $21::timestamptz,
      $21::timestamptz
    from inserted, jsonb_to_recordset($23::jsonb) as o(question_index int, code text, files jsonb)
  )`;
const COMMIT_SUBMISSION_WITH_TESTS = `
  with claimed as (${CLAIM}), inserted as (${INSERT_RESULT}), ${OUTBOX}
  select id from inserted`;

/**
 * The follow-up a submission opens, in the same statement ($N…$N+2: count, seconds per question, rubric as JSON;
 * $1 the attempt, $4 the exam, $21 the time).
 */
const followUpInsert = (n: number) => `
    insert into results_service.follow_ups (attempt_id, exam_id, result_id, status, count, seconds_per_question,
      rubric, created_at)
    select $1, $4, inserted.id, 'pending', $${n}::int, $${n + 1}::int, $${n + 2}::jsonb, $21::timestamptz
    from inserted`;

/**
 * The submission's statement: COMMIT_SUBMISSION, with the test-grading outbox and the follow-up when it has them,
 * still one statement, so either all of it commits or none does.
 */
function submissionStatement(row: SubmissionRow, answersVersion: number): { text: string; params: unknown[] } {
  const params = commitParams(row, answersVersion);
  const outbox = row.testGradings.map((o) => ({ question_index: o.questionIndex, code: o.code, files: o.files }));
  if (!row.followUp) {
    return outbox.length
      ? { text: COMMIT_SUBMISSION_WITH_TESTS, params: [...params, JSON.stringify(outbox)] }
      : { text: COMMIT_SUBMISSION, params };
  }
  const { count, secondsPerQuestion, rubric } = row.followUp;
  const first = outbox.length ? 24 : 23;
  return {
    text: `
  with claimed as (${CLAIM}), inserted as (${INSERT_RESULT}), ${outbox.length ? `${OUTBOX}, ` : ''}follow_up as (${followUpInsert(first)})
  select id from inserted`,
    params: [
      ...params,
      ...(outbox.length ? [JSON.stringify(outbox)] : []),
      count,
      secondsPerQuestion,
      JSON.stringify(rubric),
    ],
  };
}

/**
 * A candidate's submit, the optimistic way: one read of everything it needs, then one conditional write.
 * Raw statements because this is a hot path (see db/rows.ts).
 */
export function optimisticSubmit(db: ResultsDb) {
  return {
    /** The attempt, its saved answers and, once submitted, its counts: everything a submit needs, in one read. */
    async readForSubmit(attemptId: string) {
      const [row] = await rawQuery<SubmitReadRow>(db, READ_FOR_SUBMIT, [attemptId]);
      if (!row) return undefined;
      return {
        attempt: toAttemptRow(row),
        saved: new Map(row.saved),
        answered: row.answered_count ?? 0,
        total: row.total_questions ?? 0,
      };
    },

    /**
     * Stores the result and marks the attempt submitted in one statement, only if the attempt is still
     * unsubmitted at the answers_version the result was scored from. Under READ COMMITTED the UPDATE
     * re-checks that condition on the newest row version after any lock wait, so a save committed
     * after our read makes this return false (nothing written) and the caller scores again.
     */
    async commitSubmission(row: SubmissionRow, answersVersion: number): Promise<boolean> {
      const statement = submissionStatement(row, answersVersion);
      const inserted = await rawQuery<{ id: string }>(db, statement.text, statement.params);
      return inserted.length > 0;
    },
  };
}

function toAttemptRow(row: SubmitReadRow): SubmitAttemptRow {
  return {
    id: row.id,
    examId: row.exam_id,
    ownerId: row.owner_id,
    name: row.name,
    studentId: row.student_id,
    startedAt: new Date(row.started_ms),
    deadline: row.deadline_ms === null ? null : new Date(row.deadline_ms),
    submittedAt: row.submitted_ms === null ? null : new Date(row.submitted_ms),
    resultId: row.result_id,
    examSnapshot: parseSnapshot(row.exam_snapshot),
    questionCount: row.question_count,
    answersVersion: row.answers_version,
  };
}

/** COMMIT_SUBMISSION's parameters, in its $1…$22 order. */
function commitParams(row: SubmissionRow, answersVersion: number): unknown[] {
  const iso = (date: Date | null | undefined) => date?.toISOString() ?? null;
  return [
    row.attemptId,
    answersVersion,
    row.id,
    row.examId,
    row.ownerId,
    row.examTitle,
    row.userName,
    row.studentId,
    row.totalQuestions,
    row.answeredCount,
    row.score,
    row.maxScore,
    row.status,
    row.pendingCount,
    iso(row.gradedAt),
    row.timeSpent,
    iso(row.startedAt),
    iso(row.completedAt),
    JSON.stringify(row.grades),
    JSON.stringify(row.workspaceFiles),
    iso(row.createdAt),
    iso(row.updatedAt),
  ];
}
