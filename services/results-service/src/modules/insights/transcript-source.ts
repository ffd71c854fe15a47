import { AppError, ErrorCode } from '@exam/domain/errors';
import { InternalTranscriptsSchema, type TranscriptMessage } from '@exam/domain/internal';
import { createInternalClient } from '@exam/server-kit/internal-client';

export type AttemptTranscript = { attemptId: string; messages: TranscriptMessage[] };

/** The candidates' conversations with the AI assistant (llm-gateway owns them). */
export type TranscriptSource = {
  listExamTranscripts(examId: string): Promise<AttemptTranscript[]>;
};

/** Reads llm-gateway's GET /internal/exams/{id}/transcripts. */
export function createHttpTranscriptSource(
  baseUrl: string,
  internalToken: string,
  opts: { timeoutMs?: number } = {},
): TranscriptSource {
  const request = createInternalClient(baseUrl, internalToken, opts);
  return {
    async listExamTranscripts(examId) {
      const { status, body } = await request<unknown>(`/internal/exams/${encodeURIComponent(examId)}/transcripts`);
      if (status !== 200)
        throw new AppError(ErrorCode.UPSTREAM, `llm-gateway answered ${status} for the transcripts of exam ${examId}`);
      const parsed = InternalTranscriptsSchema.safeParse(body);
      if (!parsed.success)
        throw new AppError(
          ErrorCode.UPSTREAM,
          `llm-gateway sent transcripts that do not match the contract: ${parsed.error.message}`,
        );
      return parsed.data.transcripts;
    },
  };
}
