import { and, desc, eq } from 'drizzle-orm';
import { answers, attempts, results } from '../../db/schema.ts';
import type { AttemptRow, NewAttemptRow, ResultsDb } from './attempt-rows.ts';

/** Starting an attempt and reading it back with its saved answers. */
export function attemptReads(db: ResultsDb) {
  return {
    /** Inserts the attempt unless (examId, candidateKey, attemptNo) already has one; returns the stored attempt either way. */
    async insertOrFind(row: NewAttemptRow): Promise<{ attempt: AttemptRow; created: boolean }> {
      const [inserted] = await db
        .insert(attempts)
        .values(row)
        .onConflictDoNothing({ target: [attempts.examId, attempts.candidateKey, attempts.attemptNo] })
        .returning();
      if (inserted) return { attempt: inserted, created: true };
      const [existing] = await db
        .select()
        .from(attempts)
        .where(
          and(
            eq(attempts.examId, row.examId),
            eq(attempts.candidateKey, row.candidateKey),
            eq(attempts.attemptNo, row.attemptNo ?? 1),
          ),
        )
        .limit(1);
      if (!existing) throw new Error('attempt vanished between insert and select');
      return { attempt: existing, created: false };
    },

    /** The candidate's newest attempt at the exam (attempts are numbered 1, 2, … per candidate). */
    async findByCandidate(examId: string, candidateKey: string): Promise<AttemptRow | undefined> {
      const [row] = await db
        .select()
        .from(attempts)
        .where(and(eq(attempts.examId, examId), eq(attempts.candidateKey, candidateKey)))
        .orderBy(desc(attempts.attemptNo))
        .limit(1);
      return row;
    },

    async findAttempt(id: string): Promise<AttemptRow | undefined> {
      const [row] = await db.select().from(attempts).where(eq(attempts.id, id)).limit(1);
      return row;
    },

    async findResult(id: string) {
      const [row] = await db.select().from(results).where(eq(results.id, id)).limit(1);
      return row;
    },

    /** Each saved answer with its seq and how many of its edit operations are stored (the page resumes there). */
    async answersOf(attemptId: string): Promise<Map<number, { answer: string; seq: number; operations: number }>> {
      const rows = await db.select().from(answers).where(eq(answers.attemptId, attemptId));
      return new Map(rows.map((r) => [r.questionIndex, { answer: r.answer, seq: r.seq, operations: r.operationsEnd }]));
    },

    async storedSeq(attemptId: string, questionIndex: number): Promise<number | undefined> {
      const [row] = await db
        .select({ seq: answers.seq })
        .from(answers)
        .where(and(eq(answers.attemptId, attemptId), eq(answers.questionIndex, questionIndex)));
      return row?.seq;
    },
  };
}
