import { createInternalClient, unexpectedStatus } from '@exam/server-kit/internal-client';
import type { AttemptDeadlines } from '../deps.ts';

/**
 * Tells results-service (POST /internal/exams/{id}/deadlines) that an exam's window changed, so the attempts in
 * progress end at the new close (results-service owns attempts and their stored deadlines).
 */
export function createHttpAttemptDeadlines(
  baseUrl: string,
  internalToken: string,
  opts: { timeoutMs?: number } = {},
): AttemptDeadlines {
  const request = createInternalClient(baseUrl, internalToken, opts);
  return {
    async recompute(examId: string): Promise<void> {
      const { status } = await request(`/internal/exams/${encodeURIComponent(examId)}/deadlines`, { method: 'POST' });
      if (status !== 200) throw unexpectedStatus('results-service', status, `deadlines of exam ${examId}`);
    },
  };
}
