import { InternalExamSchema, type InternalExam } from '@exam/domain/internal';
import { createInternalClient, parseUpstream, unexpectedStatus } from '@exam/server-kit/internal-client';
import type { ExamSource } from '../deps.ts';

/** Reads exams from exam-service's GET /internal/exams/{id}. */
export function createHttpExamSource(
  baseUrl: string,
  internalToken: string,
  opts: { timeoutMs?: number } = {},
): ExamSource {
  const request = createInternalClient(baseUrl, internalToken, opts);
  return {
    async findExam(id: string): Promise<InternalExam | undefined> {
      const { status, body } = await request(`/internal/exams/${encodeURIComponent(id)}`);
      if (status === 404) return undefined;
      if (status !== 200) throw unexpectedStatus('exam-service', status, `exam ${id}`);
      return parseUpstream('exam-service', InternalExamSchema, body, 'an exam');
    },
  };
}
