import { and, asc, eq, gte, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import { recordAudit, type AuditActor } from '../../access/audit-log.ts';
import type { ResultsDatabase } from '../../db/database.ts';
import { answers, attempts, followUpQuestions, followUps, overrides, results } from '../../db/schema.ts';
import { parseSnapshot, type ExamSnapshot } from '../../scoring/snapshot.ts';

export type FollowUpRow = typeof followUps.$inferSelect;
export type FollowUpQuestionRow = typeof followUpQuestions.$inferSelect;
/** An attempt's follow-up with its questions in order. */
export type StoredFollowUp = { followUp: FollowUpRow; questions: FollowUpQuestionRow[] };
/** What generating and showing the questions read of the attempt: its snapshot and the candidate's time factor. */
export type FollowUpAttempt = { examId: string; examSnapshot: ExamSnapshot; timeFactor: number | null };
export type Ask = { askedAt: Date; deadline: Date };

/** The follow_ups and follow_up_questions tables (db/schema.ts), and what of the attempt a follow-up reads. */
export function createFollowUpRepository({ db }: ResultsDatabase) {
  return {
    async find(attemptId: string): Promise<StoredFollowUp | undefined> {
      const [followUp] = await db.select().from(followUps).where(eq(followUps.attemptId, attemptId));
      if (!followUp) return undefined;
      const questions = await db
        .select()
        .from(followUpQuestions)
        .where(eq(followUpQuestions.attemptId, attemptId))
        .orderBy(asc(followUpQuestions.n));
      return { followUp, questions };
    },

    /** The attempt's snapshot, and its candidate's accommodation read live (as the exam's timer and sections do). */
    async attempt(attemptId: string): Promise<FollowUpAttempt | undefined> {
      const [row] = await db
        .select({ examId: attempts.examId, examSnapshot: attempts.examSnapshot, timeFactor: overrides.timeFactor })
        .from(attempts)
        .leftJoin(
          overrides,
          and(eq(overrides.examId, attempts.examId), eq(overrides.candidateKey, attempts.candidateKey)),
        )
        .where(eq(attempts.id, attemptId))
        .limit(1);
      return row && { ...row, examSnapshot: parseSnapshot(row.examSnapshot) };
    },

    /** The candidate's saved answers by their own question index. */
    async savedAnswers(attemptId: string): Promise<Map<number, string>> {
      const rows = await db
        .select({ questionIndex: answers.questionIndex, answer: answers.answer })
        .from(answers)
        .where(eq(answers.attemptId, attemptId));
      return new Map(rows.map((r) => [r.questionIndex, r.answer]));
    },

    /** The result's attempt, only for the creator who owns it (undefined otherwise, as if it did not exist). */
    async findOwnedResult(
      resultId: string,
      ownerId: string,
    ): Promise<{ attemptId: string; examId: string } | undefined> {
      const [row] = await db
        .select({ attemptId: results.attemptId, examId: results.examId })
        .from(results)
        .where(and(eq(results.id, resultId), eq(results.ownerId, ownerId)))
        .limit(1);
      return row;
    },

    /**
     * Takes the lease on generating the questions of a pending follow-up until `until`, unless another request (on
     * any replica) holds one that has not lapsed: one conditional update, so of concurrent starts one generates.
     */
    async claimGeneration(attemptId: string, now: Date, until: Date): Promise<boolean> {
      const claimed = await db
        .update(followUps)
        .set({ generatingUntil: until })
        .where(
          and(
            eq(followUps.attemptId, attemptId),
            eq(followUps.status, 'pending'),
            or(isNull(followUps.generatingUntil), lt(followUps.generatingUntil, now)),
          ),
        )
        .returning({ attemptId: followUps.attemptId });
      return claimed.length > 0;
    },

    /** Stores the generated questions and asks the first, if the follow-up is still pending (false otherwise). */
    async storeQuestions(
      attemptId: string,
      questions: ReadonlyArray<{ questionIndex: number; text: string }>,
      first: Ask,
    ): Promise<boolean> {
      return db.transaction(async (tx) => {
        const [moved] = await tx
          .update(followUps)
          .set({ status: 'asking', generatingUntil: null })
          .where(and(eq(followUps.attemptId, attemptId), eq(followUps.status, 'pending')))
          .returning({ attemptId: followUps.attemptId });
        if (!moved) return false;
        await tx.insert(followUpQuestions).values(
          questions.map((q, i) => ({
            attemptId,
            n: i + 1,
            questionIndex: q.questionIndex,
            text: q.text,
            ...(i === 0 ? first : {}),
          })),
        );
        return true;
      });
    },

    /** Skips a pending follow-up with the note saying why. */
    async skip(attemptId: string, note: string, now: Date): Promise<void> {
      await db
        .update(followUps)
        .set({ status: 'skipped', note, generatingUntil: null, finishedAt: now })
        .where(and(eq(followUps.attemptId, attemptId), eq(followUps.status, 'pending')));
    },

    /**
     * Saves a draft while question `n` takes saves (asked, not submitted, and `cutoff` — now less the grace — not
     * past its deadline) and `seq` is newer than the stored one. Undefined when nothing was written.
     */
    async saveDraft(input: {
      attemptId: string;
      n: number;
      answer: string;
      seq: number;
      cutoff: Date;
    }): Promise<{ seq: number } | undefined> {
      const [row] = await db
        .update(followUpQuestions)
        .set({ answer: input.answer, seq: input.seq })
        .where(
          and(
            eq(followUpQuestions.attemptId, input.attemptId),
            eq(followUpQuestions.n, input.n),
            lt(followUpQuestions.seq, input.seq),
            isNotNull(followUpQuestions.askedAt),
            gte(followUpQuestions.deadline, input.cutoff),
            or(isNull(followUpQuestions.answeredAt), eq(followUpQuestions.timedOut, true)),
          ),
        )
        .returning({ seq: followUpQuestions.seq });
      return row;
    },

    /**
     * Replaces a timed-out question's answer with the one submitted within the grace (its time stays run out),
     * if the cutoff has not passed its deadline.
     */
    async lateAnswer(attemptId: string, n: number, answer: string, cutoff: Date): Promise<boolean> {
      const rows = await db
        .update(followUpQuestions)
        .set({ answer, seq: sql`${followUpQuestions.seq} + 1` })
        .where(
          and(
            eq(followUpQuestions.attemptId, attemptId),
            eq(followUpQuestions.n, n),
            eq(followUpQuestions.timedOut, true),
            gte(followUpQuestions.deadline, cutoff),
          ),
        )
        .returning({ n: followUpQuestions.n });
      return rows.length > 0;
    },

    /**
     * Closes question `n` (answered, or timed out keeping its draft) if it is still open, then asks the next one
     * (`next`), or ends the follow-up when it was the last. False when another request closed it first.
     */
    async close(
      attemptId: string,
      n: number,
      closing: { answeredAt: Date; timedOut: boolean; answer?: string },
      next: Ask | null,
    ): Promise<boolean> {
      return db.transaction(async (tx) => {
        const [closed] = await tx
          .update(followUpQuestions)
          .set({
            answeredAt: closing.answeredAt,
            timedOut: closing.timedOut,
            ...(closing.answer !== undefined ? { answer: closing.answer, seq: sql`${followUpQuestions.seq} + 1` } : {}),
          })
          .where(
            and(
              eq(followUpQuestions.attemptId, attemptId),
              eq(followUpQuestions.n, n),
              isNull(followUpQuestions.answeredAt),
            ),
          )
          .returning({ n: followUpQuestions.n });
        if (!closed) return false;
        const [asked] = next
          ? await tx
              .update(followUpQuestions)
              .set(next)
              .where(
                and(
                  eq(followUpQuestions.attemptId, attemptId),
                  eq(followUpQuestions.n, n + 1),
                  isNull(followUpQuestions.askedAt),
                ),
              )
              .returning({ n: followUpQuestions.n })
          : [];
        if (!asked)
          await tx
            .update(followUps)
            .set({ status: 'done', finishedAt: closing.answeredAt })
            .where(and(eq(followUps.attemptId, attemptId), eq(followUps.status, 'asking')));
        return true;
      });
    },

    /** Sets (or with `mark` null clears) a grader's mark of a closed question; false when it is not closed. */
    /**
     * Marks (or clears) a closed question; false while it is still open. A change is recorded in the exam's audit log
     * in the same transaction, as grade changes are (grading/result-writes.repository.ts): `result.follow-up-graded`
     * naming the result, the question and its points before and after.
     */
    async mark(
      attemptId: string,
      n: number,
      mark: { level: number; points: number; feedback: string; by: string; at: Date } | null,
      audit: { actor: AuditActor; examId: string; resultId: string; at: Date },
    ): Promise<boolean> {
      return db.transaction(async (tx) => {
        const where = and(
          eq(followUpQuestions.attemptId, attemptId),
          eq(followUpQuestions.n, n),
          isNotNull(followUpQuestions.answeredAt),
        );
        const [before] = await tx
          .select({
            level: followUpQuestions.markLevel,
            points: followUpQuestions.markPoints,
            feedback: followUpQuestions.feedback,
          })
          .from(followUpQuestions)
          .where(where)
          .for('update');
        if (!before) return false;
        await tx
          .update(followUpQuestions)
          .set(
            mark
              ? {
                  markLevel: mark.level,
                  markPoints: mark.points,
                  feedback: mark.feedback,
                  markedBy: mark.by,
                  markedAt: mark.at,
                }
              : { markLevel: null, markPoints: null, feedback: '', markedBy: null, markedAt: null },
          )
          .where(where);
        const after = mark ?? { level: null, points: null, feedback: '' };
        const changed =
          before.level !== after.level || before.points !== after.points || before.feedback !== after.feedback;
        if (changed)
          await recordAudit(tx, audit.actor, audit.at, [
            {
              examId: audit.examId,
              action: 'result.follow-up-graded',
              subject: audit.resultId,
              detail: { followUpQuestion: n, from: before.points, to: after.points },
            },
          ]);
        return true;
      });
    },
  };
}
export type FollowUpRepository = ReturnType<typeof createFollowUpRepository>;
