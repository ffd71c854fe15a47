import { and, desc, eq, gt, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import { attempts } from '../../db/schema.ts';
import type { ResultsDb } from './attempt-rows.ts';

/**
 * The attempt's binding to its candidate: the resume secrets of the devices that may resume silently,
 * the resume code, the count of wrong codes and the examiner's one-time unlock. Every change is one
 * conditional statement, so replicas deciding at the same time never both win (no state in memory).
 */
export function bindingWrites(db: ResultsDb) {
  return {
    /**
     * Counts one try of a resume code before it is checked, unless the attempt is blocked. From the
     * `freeTries`-th try on, each one blocks further tries for 30 s, doubling per try, at most an hour.
     * Returns undefined when blocked (with when the block ends).
     */
    async claimCodeTry(
      attemptId: string,
      now: Date,
      freeTries: number,
    ): Promise<{ claimed: true } | { claimed: false; blockedUntil: Date }> {
      const claimed = await db
        .update(attempts)
        .set({
          resumeFailures: sql`${attempts.resumeFailures} + 1`,
          resumeBlockedUntil: sql`case when ${attempts.resumeFailures} + 1 >= ${freeTries}
            then ${now.toISOString()}::timestamptz
              + make_interval(secs => least(30 * power(2, ${attempts.resumeFailures} + 1 - ${freeTries}), 3600))
            else null end`,
        })
        .where(
          and(
            eq(attempts.id, attemptId),
            or(isNull(attempts.resumeBlockedUntil), lte(attempts.resumeBlockedUntil, now)),
          ),
        )
        .returning({ id: attempts.id });
      if (claimed.length > 0) return { claimed: true };
      const [row] = await db
        .select({ blockedUntil: attempts.resumeBlockedUntil })
        .from(attempts)
        .where(eq(attempts.id, attemptId));
      return { claimed: false, blockedUntil: row?.blockedUntil ?? now };
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
     * Uses the examiner's unlock if it is still valid, at most once: the device gets a secret and the
     * attempt a new code (the old one may be what was lost or leaked). False when there is none.
     */
    async consumeUnlock(attemptId: string, now: Date, secretHash: string, codeHash: string): Promise<boolean> {
      const used = await db
        .update(attempts)
        .set({
          unlockedUntil: null,
          resumeFailures: 0,
          resumeBlockedUntil: null,
          resumeCodeHash: codeHash,
          resumeSecretHashes: sql`array_append(${attempts.resumeSecretHashes}, ${secretHash})`,
        })
        .where(and(eq(attempts.id, attemptId), gt(attempts.unlockedUntil, now)))
        .returning({ id: attempts.id });
      return used.length > 0;
    },

    /**
     * The examiner's unlock of this candidate's newest attempt within the owner's own exam: one in progress
     * (to resume it), or a submitted one (to start the next, when the exam allows more attempts).
     */
    async unlock(q: { examId: string; candidateKey: string; ownerId: string; until: Date }) {
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
        .set({ unlockedUntil: q.until, resumeFailures: 0, resumeBlockedUntil: null })
        .where(inArray(attempts.id, newest))
        .returning({ attemptId: attempts.id, name: attempts.name, studentId: attempts.studentId });
      return row;
    },
  };
}
