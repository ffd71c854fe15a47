import { count, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ExamDatabase } from '../db/database.ts';
import { mailQueue } from '../db/schema.ts';

/**
 * exam-service's own gauges beside server-kit's request metrics (plugins/metrics.ts). The mail queue is
 * shared by every replica, so each reports the same depth: aggregate with `max`, not `sum`.
 */
export function registerServiceMetrics(app: FastifyInstance, { db }: ExamDatabase) {
  app.metrics.gauge({
    name: 'exam_service_mail_queue_pending',
    help: 'Mails not sent yet (due now or waiting for a retry), across all replicas',
    // mail_queue_due_idx (status, next_attempt_at) answers this without reading the mails.
    collect: async () => {
      const [row] = await db.select({ n: count() }).from(mailQueue).where(eq(mailQueue.status, 'pending'));
      return row?.n ?? 0;
    },
  });
}
