import { AppError, ErrorCode } from '@exam/domain/errors';
import { InternalExamSchema, type InternalExam } from '@exam/domain/internal';
import { createInternalClient } from '@exam/server-kit/internal-client';
import type { ExamSource } from '../deps.ts';

/** Reads exams from exam-service's GET /internal/exams/{id}. */
export function createHttpExamSource(
  baseUrl: string,
  internalToken: string,
  opts: { timeoutMs?: number } = {},
): ExamSource {
  const request = createInternalClient(baseUrl, internalToken, opts);
  return {
    async getExam(id: string): Promise<InternalExam | undefined> {
      const { status, body } = await request<unknown>(`/internal/exams/${encodeURIComponent(id)}`);
      if (status === 404) return undefined;
      if (status !== 200) throw new AppError(ErrorCode.UPSTREAM, `exam-service answered ${status} for exam ${id}`);
      const parsed = InternalExamSchema.safeParse(body);
      if (!parsed.success)
        throw new AppError(
          ErrorCode.UPSTREAM,
          `exam-service sent an exam that does not match the contract: ${parsed.error.message}`,
        );
      return parsed.data;
    },
  };
}
