import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { ExamDatabase } from '../../db/database.ts';
import { mailQueue, type MailKind } from '../../db/schema.ts';

export type QueuedMail = typeof mailQueue.$inferSelect;
export type NewMail = {
  id: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
  kind: MailKind;
  /** The exam and candidate (normalised key) a mail is about, so erasing the candidate's data finds it. */
  examId?: string;
  candidateKey?: string;
};

/** The queue's queries. `db` may be a transaction, so a mail is queued with the change that causes it. */
export function createMailQueueRepository({ db }: Pick<ExamDatabase, 'db'>) {
  return {
    async insert(mails: NewMail[], now: Date): Promise<void> {
      if (mails.length === 0) return;
      await db
        .insert(mailQueue)
        .values(mails.map((m) => ({ ...m, html: m.html ?? null, nextAttemptAt: now, createdAt: now })));
    },

    /**
     * Claims up to `limit` due mails: counts the attempt and moves next_attempt_at to `leaseUntil`, so no
     * other sender takes them meanwhile, and a sender that dies leaves them due again after the lease.
     * SKIP LOCKED lets concurrent replicas claim disjoint sets without waiting for each other.
     */
    async claimDue(now: Date, leaseUntil: Date, limit: number): Promise<QueuedMail[]> {
      const due = db
        .select({ id: mailQueue.id })
        .from(mailQueue)
        .where(and(eq(mailQueue.status, 'pending'), lte(mailQueue.nextAttemptAt, now)))
        .orderBy(asc(mailQueue.nextAttemptAt))
        .limit(limit)
        .for('update', { skipLocked: true });
      return db
        .update(mailQueue)
        .set({ attempts: sql`${mailQueue.attempts} + 1`, nextAttemptAt: leaseUntil })
        .where(inArray(mailQueue.id, due))
        .returning();
    },

    async markSent(id: string, now: Date): Promise<void> {
      await db.update(mailQueue).set({ status: 'sent', sentAt: now, lastError: null }).where(eq(mailQueue.id, id));
    },

    /** Records the failure; `retryAt` undefined means the mail is given up (status failed). */
    async markFailed(id: string, error: string, retryAt: Date | undefined): Promise<void> {
      await db
        .update(mailQueue)
        .set(
          retryAt
            ? { lastError: error.slice(0, 1000), nextAttemptAt: retryAt }
            : { lastError: error.slice(0, 1000), status: 'failed' },
        )
        .where(eq(mailQueue.id, id));
    },

    async find(id: string): Promise<QueuedMail | undefined> {
      const [row] = await db.select().from(mailQueue).where(eq(mailQueue.id, id));
      return row;
    },

    async listTo(to: string): Promise<QueuedMail[]> {
      return db.select().from(mailQueue).where(eq(mailQueue.to, to)).orderBy(asc(mailQueue.createdAt));
    },
  };
}
export type MailQueueRepository = ReturnType<typeof createMailQueueRepository>;
