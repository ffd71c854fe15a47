import { InternalTranscriptsSchema } from '@exam/domain/internal';
import { createInternalClient, parseUpstream, unexpectedStatus } from '@exam/server-kit/internal-client';
import type { TranscriptSource } from '../deps.ts';

/** Reads llm-gateway's GET /internal/exams/{id}/transcripts. */
export function createHttpTranscriptSource(
  baseUrl: string,
  internalToken: string,
  opts: { timeoutMs?: number } = {},
): TranscriptSource {
  const request = createInternalClient(baseUrl, internalToken, opts);
  return {
    async listExamTranscripts(examId) {
      const { status, body } = await request(`/internal/exams/${encodeURIComponent(examId)}/transcripts`);
      if (status !== 200) throw unexpectedStatus('llm-gateway', status, `the transcripts of exam ${examId}`);
      return parseUpstream('llm-gateway', InternalTranscriptsSchema, body, 'transcripts').transcripts;
    },
  };
}
