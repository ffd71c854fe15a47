import { and, eq, sql } from 'drizzle-orm';
import type { User } from '@exam/domain/auth';
import type { ExamDatabase } from '../../db/database.ts';
import { loginAccountAttempts, loginAddressAccountFailures, loginFailures, users } from '../../db/schema.ts';

type Row = typeof users.$inferSelect;
export type AccountAttempts = typeof loginAccountAttempts.$inferSelect;
const toUser = (row: Row): User => ({ id: row.id, email: row.email, createdAt: row.createdAt.toISOString() });

export function createAuthRepository({ db }: ExamDatabase) {
  return {
    async findByEmail(email: string): Promise<(User & { passwordHash: string | null }) | undefined> {
      const [row] = await db.select().from(users).where(eq(users.email, email)).limit(1);
      return row ? { ...toUser(row), passwordHash: row.passwordHash } : undefined;
    },
    /** The address's failures in the current window and when that window started (none: 0 failures). */
    async failuresInWindow(address: string, windowStart: Date): Promise<{ failures: number; windowStartedAt?: Date }> {
      const [row] = await db.select().from(loginFailures).where(eq(loginFailures.address, address)).limit(1);
      return row && row.windowStartedAt >= windowStart
        ? { failures: row.failures, windowStartedAt: row.windowStartedAt }
        : { failures: 0 };
    },
    /** The address's failures on one account in the current window (none: 0 failures). */
    async pairFailuresInWindow(
      address: string,
      email: string,
      windowStart: Date,
    ): Promise<{ failures: number; windowStartedAt?: Date }> {
      const t = loginAddressAccountFailures;
      const [row] = await db
        .select()
        .from(t)
        .where(and(eq(t.address, address), eq(t.email, email)))
        .limit(1);
      return row && row.windowStartedAt >= windowStart
        ? { failures: row.failures, windowStartedAt: row.windowStartedAt }
        : { failures: 0 };
    },
    /** Counts one failure for the address and for the address on that account; a window older than windowStart restarts at 1. */
    async recordFailure(address: string, email: string, now: Date, windowStart: Date): Promise<void> {
      const nowAt = sql`${now.toISOString()}::timestamptz`;
      const startAt = sql`${windowStart.toISOString()}::timestamptz`;
      await db.transaction(async (tx) => {
        await tx
          .insert(loginFailures)
          .values({ address, failures: 1, windowStartedAt: now })
          .onConflictDoUpdate({
            target: loginFailures.address,
            set: {
              failures: sql`case when ${loginFailures.windowStartedAt} < ${startAt} then 1 else ${loginFailures.failures} + 1 end`,
              windowStartedAt: sql`case when ${loginFailures.windowStartedAt} < ${startAt} then ${nowAt} else ${loginFailures.windowStartedAt} end`,
            },
          });
        const t = loginAddressAccountFailures;
        await tx
          .insert(t)
          .values({ address, email, failures: 1, windowStartedAt: now })
          .onConflictDoUpdate({
            target: [t.address, t.email],
            set: {
              failures: sql`case when ${t.windowStartedAt} < ${startAt} then 1 else ${t.failures} + 1 end`,
              windowStartedAt: sql`case when ${t.windowStartedAt} < ${startAt} then ${nowAt} else ${t.windowStartedAt} end`,
            },
          });
      });
    },
    /** Forgets the address's failures on one account (its owner signed in from there). */
    async clearPairFailures(address: string, email: string): Promise<void> {
      const t = loginAddressAccountFailures;
      await db.delete(t).where(and(eq(t.address, address), eq(t.email, email)));
    },
    /** Forgets every address's failures on the account (its owner proved control of the mailbox). */
    async clearAccountFailures(email: string): Promise<void> {
      await db.delete(loginAddressAccountFailures).where(eq(loginAddressAccountFailures.email, email));
    },
    async accountAttempts(email: string): Promise<AccountAttempts | undefined> {
      const [row] = await db.select().from(loginAccountAttempts).where(eq(loginAccountAttempts.email, email)).limit(1);
      return row;
    },
    /**
     * Counts one attempt on the account, but only if the row is still the one the caller read (`seen`),
     * so concurrent attempts on several replicas cannot all pass one backoff check: the losers get false.
     * With `restart` (the count went stale) it starts again at 1.
     */
    async claimAccountAttempt(
      email: string,
      seen: AccountAttempts | undefined,
      now: Date,
      restart: boolean,
    ): Promise<boolean> {
      if (!seen) {
        const inserted = await db
          .insert(loginAccountAttempts)
          .values({ email, attempts: 1, windowStartedAt: now, lastAttemptAt: now })
          .onConflictDoNothing({ target: loginAccountAttempts.email })
          .returning({ email: loginAccountAttempts.email });
        return inserted.length > 0;
      }
      const updated = await db
        .update(loginAccountAttempts)
        .set({
          attempts: restart ? 1 : seen.attempts + 1,
          windowStartedAt: restart ? now : seen.windowStartedAt,
          lastAttemptAt: now,
        })
        .where(
          and(
            eq(loginAccountAttempts.email, email),
            eq(loginAccountAttempts.attempts, seen.attempts),
            eq(loginAccountAttempts.lastAttemptAt, seen.lastAttemptAt),
          ),
        )
        .returning({ email: loginAccountAttempts.email });
      return updated.length > 0;
    },
    async findById(id: string): Promise<(User & { passwordHash: string | null }) | undefined> {
      const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
      return row ? { ...toUser(row), passwordHash: row.passwordHash } : undefined;
    },
    async setPasswordHash(id: string, passwordHash: string): Promise<void> {
      await db.update(users).set({ passwordHash }).where(eq(users.id, id));
    },
    async clearAccountAttempts(email: string): Promise<void> {
      await db.delete(loginAccountAttempts).where(eq(loginAccountAttempts.email, email));
    },
  };
}
export type AuthRepository = ReturnType<typeof createAuthRepository>;
