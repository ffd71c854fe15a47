import { and, eq, isNotNull, lt, or } from 'drizzle-orm';
import type { ExamDatabase } from '../db/database.ts';
import { creatorSessions, mailQueue, passwordResetTokens } from '../db/schema.ts';

export type Pruned = { mails: number; sessions: number; resetLinks: number };

/**
 * Deletes what no request can use any more once it is older than the retention: mail sent or given up on,
 * sign-in sessions expired or revoked, reset links expired or used. Pending mail, open sessions and live links
 * are never touched, whatever their age. Each replica may run it; a row deleted twice is simply gone.
 */
export function createPruneRepository({ db }: ExamDatabase) {
  return {
    async prune(before: Date): Promise<Pruned> {
      const mails = await db
        .delete(mailQueue)
        .where(
          or(
            and(eq(mailQueue.status, 'sent'), lt(mailQueue.sentAt, before)),
            // A mail given up on keeps, in next_attempt_at, the lease of its last try: about when it was tried.
            and(eq(mailQueue.status, 'failed'), lt(mailQueue.nextAttemptAt, before)),
          ),
        )
        .returning({ id: mailQueue.id });
      const sessions = await db
        .delete(creatorSessions)
        .where(
          or(
            lt(creatorSessions.expiresAt, before),
            and(isNotNull(creatorSessions.revokedAt), lt(creatorSessions.revokedAt, before)),
          ),
        )
        .returning({ id: creatorSessions.id });
      const resetLinks = await db
        .delete(passwordResetTokens)
        .where(
          or(
            lt(passwordResetTokens.expiresAt, before),
            and(isNotNull(passwordResetTokens.usedAt), lt(passwordResetTokens.usedAt, before)),
          ),
        )
        .returning({ hash: passwordResetTokens.tokenHash });
      return { mails: mails.length, sessions: sessions.length, resetLinks: resetLinks.length };
    },
  };
}
export type PruneRepository = ReturnType<typeof createPruneRepository>;
