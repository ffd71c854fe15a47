import { and, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import { attempts } from '../../db/schema.ts';
import type { ResultsDb } from './attempt-rows.ts';

/**
 * The attempt's binding to its candidate: the resume secrets of the devices that may resume silently,
 * the resume code, the count of wrong codes and the examiner's one-time unlock code. Every change is one
 * conditional statement, so replicas deciding at the same time never both win (no state in memory).
 */
export function bindingWrites(db: ResultsDb) {
  return {
    /** A wrong resume or unlock code: counted on the attempt for the live view, never a block (see start-attempt.service.ts). */
    async countWrongCode(attemptId: string): Promise<void> {
      await db
        .update(attempts)
        .set({ resumeFailures: sql`${attempts.resumeFailures} + 1` })
        .where(eq(attempts.id, attemptId));
    },

    /** A right code: the count starts again, and this device's secret is added. */
    async acceptCode(attemptId: string, secretHash: string): Promise<void> {
      await db
        .update(attempts)
        .set({
          resumeFailures: 0,
          resumeBlockedUntil: null,
          resumeSecretHashes: sql`array_append(${attempts.resumeSecretHashes}, ${secretHash})`,
        })
        .where(eq(attempts.id, attemptId));
    },

    /**
     * Uses the examiner's unlock if it is still valid and `unlockHash` is its code's, at most once: the device gets
     * a secret and the attempt a new resume code (the old one may be what was lost or leaked). False otherwise.
     */
    async consumeUnlock(
      attemptId: string,
      now: Date,
      unlockHash: string,
      secretHash: string,
      codeHash: string,
    ): Promise<boolean> {
      const used = await db
        .update(attempts)
        .set({
          unlockedUntil: null,
          unlockCodeHash: null,
          resumeFailures: 0,
          resumeBlockedUntil: null,
          resumeCodeHash: codeHash,
          resumeSecretHashes: sql`array_append(${attempts.resumeSecretHashes}, ${secretHash})`,
        })
        .where(
          and(eq(attempts.id, attemptId), gt(attempts.unlockedUntil, now), eq(attempts.unlockCodeHash, unlockHash)),
        )
        .returning({ id: attempts.id });
      return used.length > 0;
    },

    /**
     * The examiner's unlock of this candidate's newest attempt within the owner's own exam: one in progress
     * (to resume it), or a submitted one (to start the next, when the exam allows more attempts).
     */
    async unlock(q: { examId: string; candidateKey: string; ownerId: string; until: Date; unlockHash: string }) {
      const newest = db
        .select({ id: attempts.id })
        .from(attempts)
        .where(
          and(
            eq(attempts.examId, q.examId),
            eq(attempts.candidateKey, q.candidateKey),
            eq(attempts.ownerId, q.ownerId),
          ),
        )
        .orderBy(desc(attempts.attemptNo))
        .limit(1);
      const [row] = await db
        .update(attempts)
        .set({ unlockedUntil: q.until, unlockCodeHash: q.unlockHash, resumeBlockedUntil: null })
        .where(inArray(attempts.id, newest))
        .returning({ attemptId: attempts.id, name: attempts.name, studentId: attempts.studentId });
      return row;
    },
  };
}
