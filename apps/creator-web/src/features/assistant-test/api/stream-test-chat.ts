import { LlmMessages, type ChatStreamEvent, type TestChatRequestSchema } from '@exam/domain/llm';
import type { z } from 'zod';
import { readChatResponse } from '@exam/client/llm-stream';
import { api } from '../../../config/paths.ts';
import { getToken } from '../../../lib/auth-storage.ts';
import { i18n } from '../../../i18n/index.ts';

/** The request as sent: the schema's input, whose defaults the gateway applies. */
export type TestChatBody = z.input<typeof TestChatRequestSchema>;

/**
 * Sends the conversation so far and yields the assistant's reply as it streams (server-sent events).
 * Always ends with `done` or `error` (whose message is the text to show); aborting stops it quietly.
 */
export async function* streamTestChat(
  body: TestChatBody,
  signal: AbortSignal,
): AsyncGenerator<ChatStreamEvent, void, undefined> {
  const headers = new Headers({ accept: 'text/event-stream', 'content-type': 'application/json' });
  const token = getToken();
  if (token) headers.set('authorization', `Bearer ${token}`);
  let response: Response;
  try {
    response = await fetch(new URL(api.testChat, window.location.origin), {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if (signal.aborted) throw error;
    yield { type: 'error', message: LlmMessages.chatError };
    return;
  }
  if (response.status === 401) {
    yield { type: 'error', message: i18n.t('errors.sessionExpired') };
    return;
  }
  yield* readChatResponse(response);
}
