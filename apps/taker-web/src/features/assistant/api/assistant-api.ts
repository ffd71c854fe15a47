import type { ChatRequest, ChatStreamEvent } from '@exam/domain/llm';
import { LlmMessages, TranscriptResponseSchema, type TranscriptResponse } from '@exam/domain/llm';
import { readChatResponse } from '@exam/domain/llm-stream';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../config/paths.ts';
import { apiRequest, apiUrl } from '../../../lib/api-client.ts';

export function getTranscript(token: string, signal?: AbortSignal): Promise<TranscriptResponse> {
  return apiRequest(api.transcript, { token, schema: TranscriptResponseSchema, signal });
}

/** The stored conversation of this attempt, to restore the panel after a reload. Loaded once per attempt. */
export function useTranscript(attempt: { attemptId: string; token: string } | null) {
  return useQuery({
    queryKey: ['assistant-transcript', attempt?.attemptId],
    queryFn: ({ signal }) => getTranscript(attempt?.token ?? '', signal),
    enabled: attempt !== null,
    staleTime: Infinity,
    gcTime: 0,
  });
}

/**
 * Sends one message and yields the reply as it streams (server-sent events). Always ends with a
 * `done` or an `error` event whose message is the text to show; aborting stops it quietly.
 */
export async function* streamChatReply(
  token: string,
  body: ChatRequest,
  signal: AbortSignal,
): AsyncGenerator<ChatStreamEvent, void, undefined> {
  let response: Response;
  try {
    response = await fetch(apiUrl(api.chat), {
      method: 'POST',
      headers: { accept: 'text/event-stream', 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if (signal.aborted) throw error;
    yield { type: 'error', message: LlmMessages.chatError };
    return;
  }
  yield* readChatResponse(response);
}
