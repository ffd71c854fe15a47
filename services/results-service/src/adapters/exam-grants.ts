import { ExamGrantsSchema, type ExamGrantRow } from '@exam/domain/internal';
import { createInternalClient, parseUpstream, unexpectedStatus } from '@exam/server-kit/internal-client';
import type { ExamGrantsSource } from '../deps.ts';

/** Reads the exams shared with a creator from exam-service's GET /internal/creators/{id}/exam-grants. */
export function createHttpExamGrants(
  baseUrl: string,
  internalToken: string,
  opts: { timeoutMs?: number } = {},
): ExamGrantsSource {
  const request = createInternalClient(baseUrl, internalToken, opts);
  return {
    async listGrants(creatorId: string): Promise<ExamGrantRow[]> {
      const { status, body } = await request(`/internal/creators/${encodeURIComponent(creatorId)}/exam-grants`);
      if (status !== 200) throw unexpectedStatus('exam-service', status, `exam grants of ${creatorId}`);
      return parseUpstream('exam-service', ExamGrantsSchema, body, 'exam grants').grants;
    },
  };
}
