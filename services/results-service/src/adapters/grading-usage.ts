import { SuggestionAvailabilitySchema } from '@exam/domain/question-grading';
import { createInternalClient, parseUpstream, unexpectedStatus } from '@exam/server-kit/internal-client';
import type { GradingUsage } from '../deps.ts';

/** Reads llm-gateway's GET /internal/exams/{examId}/grading-usage: whether AI suggestions can be asked for, and the budget. */
export function createHttpGradingUsage(
  baseUrl: string,
  internalToken: string,
  opts: { timeoutMs?: number } = {},
): GradingUsage & { close(): void } {
  const request = createInternalClient(baseUrl, internalToken, opts);
  return {
    async availability(examId) {
      const { status, body } = await request(`/internal/exams/${encodeURIComponent(examId)}/grading-usage`);
      if (status !== 200) throw unexpectedStatus('llm-gateway', status, `the grading usage of exam ${examId}`);
      return parseUpstream('llm-gateway', SuggestionAvailabilitySchema, body, 'a grading usage');
    },
    close: () => request.close(),
  };
}
