import type { ProctorEvent } from '@exam/domain/attempt';
import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import type { ResultsDatabase } from '../../db/database.ts';
import { rawQuery } from '../../db/rows.ts';
import { answerFiles, answers, attempts, events, results } from '../../db/schema.ts';

export type AttemptRow = typeof attempts.$inferSelect;
export type NewResultRow = typeof results.$inferInsert;
/** What a submit `build` answers when it wants the workspace files collected first. */
export const NEEDS_FILES = 'needs-files';
export type SubmissionCounts = { resultId: string; answered: number; total: number };

const ts = (date: Date) => sql`${date.toISOString()}::timestamptz`;

// The CTE checks the attempt is open and the index in range, and bumps answers_version, which also
// row-locks the attempt until this write commits. The upsert only replaces an older seq.
const SAVE_ANSWER = `
  with open_attempt as (
    update results_service.attempts set answers_version = answers_version + 1
    where id = $1 and submitted_at is null and (deadline is null or deadline >= $2::timestamptz) and question_count > $3
    returning id
  )
  insert into results_service.answers (attempt_id, question_index, answer, seq, updated_at)
  select id, $3, $4, $5, $6::timestamptz from open_attempt
  on conflict (attempt_id, question_index) do update
    set answer = excluded.answer, seq = excluded.seq, updated_at = excluded.updated_at
    where answers.seq < excluded.seq
  returning 1 as applied`;

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
  exam_snapshot: AttemptRow['examSnapshot'];
  question_count: number;
  answers_version: number;
  started_ms: number;
  deadline_ms: number | null;
  submitted_ms: number | null;
  answered_count: number | null;
  total_questions: number | null;
  saved: [number, string][];
};

const COMMIT_SUBMISSION = `
  with claimed as (
    update results_service.attempts set submitted_at = $18::timestamptz, result_id = $3
    where id = $1 and submitted_at is null and answers_version = $2
    returning id
  )
  insert into results_service.results (id, attempt_id, exam_id, owner_id, exam_title, user_name, student_id,
    total_questions, answered_count, correct_count, graded_count, score, is_graded, graded_at, time_spent,
    started_at, completed_at, grades, workspace_files, created_at, updated_at)
  select $3, id, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13::int, $14, $15::timestamptz, $16,
    $17::timestamptz, $18::timestamptz, $19::jsonb, $20::jsonb, $21::timestamptz, $22::timestamptz
  from claimed
  returning id`;

export function createAttemptsRepository({ db }: ResultsDatabase) {
  return {
    /** Inserts the attempt unless (examId, studentId) already has one; returns the stored attempt either way. */
    async insertOrFind(row: typeof attempts.$inferInsert): Promise<{ attempt: AttemptRow; created: boolean }> {
      const [inserted] = await db
        .insert(attempts)
        .values(row)
        .onConflictDoNothing({ target: [attempts.examId, attempts.studentId] })
        .returning();
      if (inserted) return { attempt: inserted, created: true };
      const [existing] = await db
        .select()
        .from(attempts)
        .where(and(eq(attempts.examId, row.examId), eq(attempts.studentId, row.studentId)))
        .limit(1);
      if (!existing) throw new Error('attempt vanished between insert and select');
      return { attempt: existing, created: false };
    },

    async findAttempt(id: string): Promise<AttemptRow | undefined> {
      const [row] = await db.select().from(attempts).where(eq(attempts.id, id)).limit(1);
      return row;
    },

    async answersOf(attemptId: string): Promise<Map<number, { answer: string; seq: number }>> {
      const rows = await db.select().from(answers).where(eq(answers.attemptId, attemptId));
      return new Map(rows.map((r) => [r.questionIndex, { answer: r.answer, seq: r.seq }]));
    },

    async storedSeq(attemptId: string, questionIndex: number): Promise<number | undefined> {
      const [row] = await db
        .select({ seq: answers.seq })
        .from(answers)
        .where(and(eq(answers.attemptId, attemptId), eq(answers.questionIndex, questionIndex)));
      return row?.seq;
    },

    /**
     * The autosave hot path in one statement: the CTE checks that the attempt is open and the index in
     * range and bumps answers_version (which also row-locks the attempt until this write commits, so
     * a concurrent submit either waits for it or makes it see the attempt closed). The upsert only
     * replaces an older seq. No row back means closed, out of range or stale; the caller finds out which.
     */
    async saveAnswerIfOpen(input: {
      attemptId: string;
      questionIndex: number;
      answer: string;
      seq: number;
      now: Date;
      cutoff: Date;
    }): Promise<boolean> {
      const rows = await rawQuery<{ applied: number }>(db, SAVE_ANSWER, [
        input.attemptId,
        input.cutoff.toISOString(),
        input.questionIndex,
        input.answer,
        input.seq,
        input.now.toISOString(),
      ]);
      return rows.length > 0;
    },

    /** Stores an uploaded file and records 'File: name' with a seq above the stored one, while the attempt is open. */
    async saveFileIfOpen(input: {
      attemptId: string;
      questionIndex: number;
      fileName: string;
      mimeType: string;
      content: Buffer;
      answer: string;
      now: Date;
      cutoff: Date;
    }): Promise<boolean> {
      return db.transaction(async (tx) => {
        const [open] = await tx
          .update(attempts)
          .set({ answersVersion: sql`${attempts.answersVersion} + 1` })
          .where(
            and(
              eq(attempts.id, input.attemptId),
              isNull(attempts.submittedAt),
              sql`(${attempts.deadline} is null or ${attempts.deadline} >= ${ts(input.cutoff)})`,
            ),
          )
          .returning({ id: attempts.id });
        if (!open) return false;
        const file = {
          fileName: input.fileName,
          mimeType: input.mimeType,
          size: input.content.length,
          content: input.content,
          uploadedAt: input.now,
        };
        await tx
          .insert(answerFiles)
          .values({ attemptId: input.attemptId, questionIndex: input.questionIndex, ...file })
          .onConflictDoUpdate({ target: [answerFiles.attemptId, answerFiles.questionIndex], set: file });
        await tx
          .insert(answers)
          .values({
            attemptId: input.attemptId,
            questionIndex: input.questionIndex,
            answer: input.answer,
            seq: 1,
            updatedAt: input.now,
          })
          .onConflictDoUpdate({
            target: [answers.attemptId, answers.questionIndex],
            set: { answer: input.answer, seq: sql`${answers.seq} + 1`, updatedAt: input.now },
          });
        return true;
      });
    },

    async insertEvents(attemptId: string, list: ProctorEvent[], now: Date): Promise<number> {
      const rows = list.map((e) => ({
        attemptId,
        type: e.type,
        questionIndex: e.questionIndex ?? null,
        detail: e.detail ?? null,
        clientAt: e.clientAt ?? null,
        recordedAt: now,
      }));
      await db.insert(events).values(rows);
      return rows.length;
    },

    /** The attempt, its saved answers and, once submitted, its counts: everything a submit needs, in one read. */
    async readForSubmit(attemptId: string) {
      const [row] = await rawQuery<SubmitReadRow>(db, READ_FOR_SUBMIT, [attemptId]);
      if (!row) return undefined;
      const attempt: AttemptRow = {
        id: row.id,
        examId: row.exam_id,
        ownerId: row.owner_id,
        name: row.name,
        studentId: row.student_id,
        startedAt: new Date(row.started_ms),
        deadline: row.deadline_ms === null ? null : new Date(row.deadline_ms),
        submittedAt: row.submitted_ms === null ? null : new Date(row.submitted_ms),
        resultId: row.result_id,
        examSnapshot: row.exam_snapshot,
        questionCount: row.question_count,
        answersVersion: row.answers_version,
      };
      return { attempt, saved: new Map(row.saved), answered: row.answered_count ?? 0, total: row.total_questions ?? 0 };
    },

    /**
     * Stores the result and marks the attempt submitted in one statement, only if the attempt is still
     * unsubmitted at the answers_version the result was scored from. Under READ COMMITTED the UPDATE
     * re-checks that condition on the newest row version after any lock wait, so a save committed
     * after our read makes this return false (nothing written) and the caller scores again.
     */
    async commitSubmission(row: NewResultRow & { id: string }, answersVersion: number): Promise<boolean> {
      const iso = (date: Date | null | undefined) => date?.toISOString() ?? null;
      const inserted = await rawQuery<{ id: string }>(db, COMMIT_SUBMISSION, [
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
        row.correctCount,
        row.gradedCount,
        row.score ?? null,
        row.isGraded,
        iso(row.gradedAt),
        row.timeSpent,
        iso(row.startedAt),
        iso(row.completedAt),
        JSON.stringify(row.grades),
        JSON.stringify(row.workspaceFiles),
        iso(row.createdAt),
        iso(row.updatedAt),
      ]);
      return inserted.length > 0;
    },

    /**
     * Submits one attempt in a transaction: locks it (FOR UPDATE, or SKIP LOCKED for the finalizer),
     * returns the existing submission when there is one, otherwise lets `build` score the saved answers
     * and stores the result and the attempt's submission together. `build` may answer NEEDS_FILES
     * instead (nothing is written) so the caller can collect workspace files without holding the lock.
     */
    async submit(
      attemptId: string,
      opts: {
        skipLocked: boolean;
        build: (
          attempt: AttemptRow,
          saved: Map<number, string>,
        ) => (NewResultRow & { id: string }) | typeof NEEDS_FILES;
      },
    ): Promise<(SubmissionCounts & { created: boolean }) | typeof NEEDS_FILES | undefined> {
      return db.transaction(async (tx) => {
        const locking = tx.select().from(attempts).where(eq(attempts.id, attemptId));
        const [attempt] = await (opts.skipLocked ? locking.for('update', { skipLocked: true }) : locking.for('update'));
        if (!attempt) return undefined;
        if (attempt.resultId) {
          const [existing] = await tx
            .select({ answered: results.answeredCount, total: results.totalQuestions })
            .from(results)
            .where(eq(results.id, attempt.resultId));
          return {
            resultId: attempt.resultId,
            answered: existing?.answered ?? 0,
            total: existing?.total ?? 0,
            created: false,
          };
        }
        // A separate statement on purpose: under READ COMMITTED it takes a snapshot after the lock was
        // granted, so it sees every save that held the row lock before us. Reading the answers in
        // the locking statement would use the snapshot from before the wait and lose those saves.
        const pairs = await tx
          .select({ questionIndex: answers.questionIndex, answer: answers.answer })
          .from(answers)
          .where(eq(answers.attemptId, attemptId));
        const row = opts.build(attempt, new Map(pairs.map((p) => [p.questionIndex, p.answer])));
        if (row === NEEDS_FILES) return NEEDS_FILES;
        // Independent statements: postgres.js pipelines them on the transaction's connection.
        await Promise.all([
          tx.insert(results).values(row),
          tx.update(attempts).set({ submittedAt: row.completedAt, resultId: row.id }).where(eq(attempts.id, attemptId)),
        ]);
        return { resultId: row.id, answered: row.answeredCount, total: row.totalQuestions, created: true };
      });
    },

    /** Open attempts whose deadline is before the cutoff, oldest first. */
    async listExpired(cutoff: Date, limit: number): Promise<{ id: string }[]> {
      return db
        .select({ id: attempts.id })
        .from(attempts)
        .where(and(isNull(attempts.submittedAt), lt(attempts.deadline, cutoff)))
        .orderBy(attempts.deadline)
        .limit(limit);
    },
  };
}
export type AttemptsRepository = ReturnType<typeof createAttemptsRepository>;
