import { SubmittedCandidatesSchema } from '@exam/domain/roster';
import { createInternalClient, parseUpstream, unexpectedStatus } from '@exam/server-kit/internal-client';
import type { SubmittedCandidates } from '../deps.ts';

/** Asks results-service (GET /internal/exams/{id}/submitted-candidates) who has submitted an exam. */
export function createHttpSubmissions(
  baseUrl: string,
  internalToken: string,
  opts: { timeoutMs?: number } = {},
): SubmittedCandidates {
  const request = createInternalClient(baseUrl, internalToken, opts);
  return {
    async submittedCandidateKeys(examId: string): Promise<string[]> {
      const { status, body } = await request(`/internal/exams/${encodeURIComponent(examId)}/submitted-candidates`);
      if (status !== 200) throw unexpectedStatus('results-service', status, `submissions of exam ${examId}`);
      return parseUpstream('results-service', SubmittedCandidatesSchema, body, 'submitted candidates').candidateKeys;
    },
  };
}
