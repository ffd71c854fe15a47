import { sendChatWithRetry, type ChatReplyEvent } from '@exam/client/chat-retry';
import type { ChatRequest } from '@exam/domain/llm';
import { TranscriptResponseSchema, type TranscriptResponse } from '@exam/domain/llm';
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
 * Sends one message and yields the reply as it streams (server-sent events). A stream cut by a restarting
 * gateway is sent again with the same clientMessageId (`reconnecting` before each try); it always ends with
 * `done`, `withheld` or an `error` whose message is the text to show; aborting stops it quietly.
 */
export function streamChatReply(
  token: string,
  body: ChatRequest,
  signal: AbortSignal,
): AsyncGenerator<ChatReplyEvent, void, undefined> {
  return sendChatWithRetry({
    fetch: (url, init) => fetch(url, init),
    url: apiUrl(api.chat),
    headers: { authorization: `Bearer ${token}` },
    body,
    signal,
  });
}
