import { count, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ResultsDatabase } from '../db/database.ts';
import { ltiScoreSyncs, testGradings } from '../db/schema.ts';

/**
 * results-service's own gauges beside server-kit's request metrics (plugins/metrics.ts). The test-grading
 * and LTI score outboxes are shared by every replica, so each reports the same depth: aggregate with `max`, not `sum`.
 */
export function registerServiceMetrics(app: FastifyInstance, { db }: ResultsDatabase) {
  app.metrics.gauge({
    name: 'results_service_test_gradings_pending',
    help: 'Coding answers waiting for their test verdicts: queued (not handed to the runner yet) or running, across all replicas',
    labelNames: ['state'],
    // The predicate is test_gradings_due_idx's, so the partial index answers it.
    collect: async () => {
      const rows = await db
        .select({ state: testGradings.state, n: count() })
        .from(testGradings)
        .where(inArray(testGradings.state, ['queued', 'running']))
        .groupBy(testGradings.state);
      return (['queued', 'running'] as const).map((state) => ({
        labels: { state },
        value: rows.find((r) => r.state === state)?.n ?? 0,
      }));
    },
  });
  app.metrics.gauge({
    name: 'results_service_lti_score_syncs',
    help: 'LMS score passback (LTI AGS) waiting to be sent, or given up after the last try (the creator may retry), across all replicas',
    labelNames: ['state'],
    collect: async () => {
      const rows = await db
        .select({ state: ltiScoreSyncs.state, n: count() })
        .from(ltiScoreSyncs)
        .where(inArray(ltiScoreSyncs.state, ['pending', 'failed']))
        .groupBy(ltiScoreSyncs.state);
      return (['pending', 'failed'] as const).map((state) => ({
        labels: { state },
        value: rows.find((r) => r.state === state)?.n ?? 0,
      }));
    },
  });
}
