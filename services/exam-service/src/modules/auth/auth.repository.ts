import { eq, sql } from 'drizzle-orm';
import type { User } from '@exam/domain/auth';
import type { ExamDatabase } from '../../db/database.ts';
import { loginFailures, users } from '../../db/schema.ts';

type Row = typeof users.$inferSelect;
const toUser = (row: Row): User => ({ id: row.id, email: row.email, createdAt: row.createdAt.toISOString() });

export function createAuthRepository({ db }: ExamDatabase) {
  return {
    async findByEmail(email: string): Promise<(User & { passwordHash: string }) | undefined> {
      const [row] = await db.select().from(users).where(eq(users.email, email)).limit(1);
      return row ? { ...toUser(row), passwordHash: row.passwordHash } : undefined;
    },
    /** Inserts the user; returns undefined when the email is already taken (a concurrent sign-up included). */
    async insert(user: { id: string; email: string; passwordHash: string }): Promise<User | undefined> {
      const [row] = await db.insert(users).values(user).onConflictDoNothing({ target: users.email }).returning();
      return row ? toUser(row) : undefined;
    },
    async failuresInWindow(address: string, windowStart: Date): Promise<number> {
      const [row] = await db.select().from(loginFailures).where(eq(loginFailures.address, address)).limit(1);
      return row && row.windowStartedAt >= windowStart ? row.failures : 0;
    },
    /** Counts one failure; a window older than windowStart restarts at 1. */
    async recordFailure(address: string, now: Date, windowStart: Date): Promise<void> {
      const nowAt = sql`${now.toISOString()}::timestamptz`;
      const startAt = sql`${windowStart.toISOString()}::timestamptz`;
      await db
        .insert(loginFailures)
        .values({ address, failures: 1, windowStartedAt: now })
        .onConflictDoUpdate({
          target: loginFailures.address,
          set: {
            failures: sql`case when ${loginFailures.windowStartedAt} < ${startAt} then 1 else ${loginFailures.failures} + 1 end`,
            windowStartedAt: sql`case when ${loginFailures.windowStartedAt} < ${startAt} then ${nowAt} else ${loginFailures.windowStartedAt} end`,
          },
        });
    },
    async clearFailures(address: string): Promise<void> {
      await db.delete(loginFailures).where(eq(loginFailures.address, address));
    },
  };
}
export type AuthRepository = ReturnType<typeof createAuthRepository>;
