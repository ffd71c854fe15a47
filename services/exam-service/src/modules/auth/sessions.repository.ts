import { and, eq, gt, isNull, lt, ne, or } from 'drizzle-orm';
import type { ExamDatabase } from '../../db/database.ts';
import { creatorSessions } from '../../db/schema.ts';

/** Creator sign-in sessions (ARCHITECTURE.md, "Creator sessions"). */
export function createSessionsRepository({ db }: ExamDatabase) {
  const open = (now: Date) => and(isNull(creatorSessions.revokedAt), gt(creatorSessions.expiresAt, now));
  return {
    async insert(session: { id: string; userId: string; createdAt: Date; expiresAt: Date }): Promise<void> {
      await db.insert(creatorSessions).values(session);
    },
    /** The owner of the session while it is open; undefined once revoked or expired. */
    async findOpenOwner(id: string, now: Date): Promise<string | undefined> {
      const [row] = await db
        .select({ userId: creatorSessions.userId })
        .from(creatorSessions)
        .where(and(eq(creatorSessions.id, id), open(now)))
        .limit(1);
      return row?.userId;
    },
    async revoke(id: string, userId: string, now: Date): Promise<void> {
      await db
        .update(creatorSessions)
        .set({ revokedAt: now })
        .where(and(eq(creatorSessions.id, id), eq(creatorSessions.userId, userId), isNull(creatorSessions.revokedAt)));
    },
    /** Revokes every open session of the user, except `keep` (the one that asked, on a password change). */
    async revokeAll(userId: string, now: Date, keep?: string): Promise<void> {
      const conditions = [eq(creatorSessions.userId, userId), isNull(creatorSessions.revokedAt)];
      if (keep) conditions.push(ne(creatorSessions.id, keep));
      await db
        .update(creatorSessions)
        .set({ revokedAt: now })
        .where(and(...conditions));
    },
    /** Drops the user's rows that can no longer be accepted, so the table does not grow without bound. */
    async pruneEnded(userId: string, now: Date): Promise<void> {
      await db
        .delete(creatorSessions)
        .where(
          and(
            eq(creatorSessions.userId, userId),
            or(lt(creatorSessions.expiresAt, now), lt(creatorSessions.revokedAt, now)),
          ),
        );
    },
  };
}
export type SessionsRepository = ReturnType<typeof createSessionsRepository>;
