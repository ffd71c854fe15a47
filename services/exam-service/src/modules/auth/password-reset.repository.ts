import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { ExamDatabase } from '../../db/database.ts';
import { passwordResetRequests, passwordResetTokens, users } from '../../db/schema.ts';

export function createPasswordResetRepository({ db }: ExamDatabase) {
  return {
    /**
     * Counts one request under `key` and answers the count in the current window; a window that started
     * before windowStart restarts at 1. One statement, so concurrent replicas cannot lose a count.
     */
    async countRequest(
      key: string,
      now: Date,
      windowStart: Date,
    ): Promise<{ requests: number; windowStartedAt: Date }> {
      const nowAt = sql`${now.toISOString()}::timestamptz`;
      const startAt = sql`${windowStart.toISOString()}::timestamptz`;
      const stale = sql`${passwordResetRequests.windowStartedAt} < ${startAt}`;
      const [row] = await db
        .insert(passwordResetRequests)
        .values({ key, requests: 1, windowStartedAt: now })
        .onConflictDoUpdate({
          target: passwordResetRequests.key,
          set: {
            requests: sql`case when ${stale} then 1 else ${passwordResetRequests.requests} + 1 end`,
            windowStartedAt: sql`case when ${stale} then ${nowAt} else ${passwordResetRequests.windowStartedAt} end`,
          },
        })
        .returning();
      return { requests: row!.requests, windowStartedAt: row!.windowStartedAt };
    },
    async insertToken(token: { tokenHash: string; userId: string; createdAt: Date; expiresAt: Date }): Promise<void> {
      await db.insert(passwordResetTokens).values(token);
    },
    /**
     * Marks the token used and answers its user, only if it was unused and unexpired: the update is the
     * check, so two concurrent confirmations cannot both succeed.
     */
    async consumeToken(tokenHash: string, now: Date): Promise<{ userId: string; email: string } | undefined> {
      const [row] = await db
        .update(passwordResetTokens)
        .set({ usedAt: now })
        .where(
          and(
            eq(passwordResetTokens.tokenHash, tokenHash),
            isNull(passwordResetTokens.usedAt),
            gt(passwordResetTokens.expiresAt, now),
          ),
        )
        .returning({ userId: passwordResetTokens.userId });
      if (!row) return undefined;
      const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, row.userId)).limit(1);
      return user ? { userId: row.userId, email: user.email } : undefined;
    },
    /**
     * The e-mail of the token's user when the token would be accepted now (checked before the new password, so a
     * weak one keeps the link; the e-mail is one of the words the strength check treats as guessable).
     */
    async findUsableOwnerEmail(tokenHash: string, now: Date): Promise<string | undefined> {
      const [row] = await db
        .select({ email: users.email })
        .from(passwordResetTokens)
        .innerJoin(users, eq(users.id, passwordResetTokens.userId))
        .where(
          and(
            eq(passwordResetTokens.tokenHash, tokenHash),
            isNull(passwordResetTokens.usedAt),
            gt(passwordResetTokens.expiresAt, now),
          ),
        )
        .limit(1);
      return row?.email;
    },
    /** Every other link of the user stops working once one was used. */
    async deleteTokensOf(userId: string): Promise<void> {
      await db.delete(passwordResetTokens).where(eq(passwordResetTokens.userId, userId));
    },
  };
}
export type PasswordResetRepository = ReturnType<typeof createPasswordResetRepository>;
