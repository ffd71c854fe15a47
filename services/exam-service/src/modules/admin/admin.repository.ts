import { and, eq, sql } from 'drizzle-orm';
import type { ExamDatabase } from '../../db/database.ts';
import { mailQueue } from '../../db/schema.ts';

/** The mail queue's figures for the status page: pending and failed mail, the oldest pending, the latest error. */
export function createAdminRepository({ db }: Pick<ExamDatabase, 'db'>) {
  return {
    async mailFigures() {
      const [figures] = await db
        .select({
          pending: sql<number>`count(*) filter (where ${mailQueue.status} = 'pending')`.mapWith(Number),
          failed: sql<number>`count(*) filter (where ${mailQueue.status} = 'failed')`.mapWith(Number),
          oldestPending: sql<Date | null>`min(${mailQueue.createdAt}) filter (where ${mailQueue.status} = 'pending')`,
        })
        .from(mailQueue);
      const [latest] = await db
        .select({ lastError: mailQueue.lastError, kind: mailQueue.kind })
        .from(mailQueue)
        .where(and(sql`${mailQueue.lastError} is not null`, eq(mailQueue.status, 'failed')))
        .orderBy(sql`${mailQueue.createdAt} desc`)
        .limit(1);
      const oldest = figures?.oldestPending ? new Date(figures.oldestPending) : null;
      return {
        pending: figures?.pending ?? 0,
        failed: figures?.failed ?? 0,
        oldestPending: oldest,
        lastError: latest?.lastError ?? null,
      };
    },
  };
}
export type AdminRepository = ReturnType<typeof createAdminRepository>;
