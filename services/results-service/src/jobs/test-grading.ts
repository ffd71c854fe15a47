import { startPeriodic } from '@exam/server-kit/periodic';
import type { FastifyBaseLogger } from 'fastify';

/**
 * Runs `gradeTests` (one pass of the test-grading outbox: start queued grade runs, collect finished ones)
 * every `intervalMs` until stopped. Safe on several replicas: each pass claims its rows with
 * FOR UPDATE SKIP LOCKED (modules/grading/test-grading.repository.ts). server.ts starts it.
 */
export function startTestGrading(
  gradeTests: () => Promise<number>,
  opts: { intervalMs: number; log: FastifyBaseLogger },
) {
  return startPeriodic(gradeTests, { ...opts, did: 'test gradings advanced', failed: 'test-grading run failed' });
}
