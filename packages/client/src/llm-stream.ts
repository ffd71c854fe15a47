import { ErrorBodySchema } from '@exam/domain/errors';
import { LlmMessages, parseChatStreamFrame, type ChatStreamEvent } from '@exam/domain/llm';

/** Frames are separated by a blank line; CR and CRLF line ends are read as LF (the SSE grammar allows all three). */
const FRAME_SEPARATOR = '\n\n';

function parseFrame(frame: string): ChatStreamEvent | undefined {
  try {
    return parseChatStreamFrame(frame);
  } catch {
    // A frame whose data is not JSON is skipped; the reader reports the stream's end without a final event.
    return undefined;
  }
}

/**
 * Reads the text/event-stream body of POST /api/llm/chat and /api/llm/test-chat incrementally and
 * yields each event as soon as its frame is complete. Works on any WHATWG ReadableStream (browsers,
 * Node 18+). Stopping the iteration early cancels the body, which aborts the request upstream.
 */
export async function* readChatStream(
  body: ReadableStream<Uint8Array>,
): AsyncGenerator<ChatStreamEvent, void, undefined> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  // A CR that ends a chunk may be the first half of a CRLF split across chunks.
  let pendingCr = false;
  let finished = false;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      let text: string = (pendingCr ? '\r' : '') + (done ? decoder.decode() : decoder.decode(value, { stream: true }));
      pendingCr = !done && text.endsWith('\r');
      if (pendingCr) text = text.slice(0, -1);
      buffer += text.replace(/\r\n?/g, '\n');

      let boundary = buffer.indexOf(FRAME_SEPARATOR);
      while (boundary !== -1) {
        const event = parseFrame(buffer.slice(0, boundary));
        buffer = buffer.slice(boundary + FRAME_SEPARATOR.length);
        if (event) yield event;
        boundary = buffer.indexOf(FRAME_SEPARATOR);
      }
      if (done) break;
    }
    finished = true;
    // A last frame without its blank line still counts.
    const event = buffer.trim() ? parseFrame(buffer) : undefined;
    if (event) yield event;
  } finally {
    if (finished) reader.releaseLock();
    else await reader.cancel().catch(() => undefined);
  }
}

/** True for the events that end a reply: after one of these no more frames are expected. */
export function isFinalChatEvent(event: ChatStreamEvent): boolean {
  return event.type === 'done' || event.type === 'error' || event.type === 'withheld';
}

/**
 * Statuses whose error message is written for the person chatting (budgets, not enabled, incomplete
 * or closed, empty message, too large): the page shows a service-returned error as the reply text.
 */
const SPOKEN_STATUSES = new Set([400, 403, 409, 413, 429]);

/** The reply text for a refused chat request: the service's own message where it speaks to the user, else the spec's error reply. */
export function chatFailureMessage(status: number, body: unknown): string {
  const parsed = ErrorBodySchema.safeParse(body);
  return SPOKEN_STATUSES.has(status) && parsed.success && parsed.data.error.message
    ? parsed.data.error.message
    : LlmMessages.chatError;
}

/**
 * Turns the answer of a chat request into events that always end with `done` or `error`: a refused
 * request, a missing body, a broken connection or a stream that stops without its final event all end
 * with an error event carrying the text to show.
 */
export async function* readChatResponse(response: Response): AsyncGenerator<ChatStreamEvent, void, undefined> {
  if (!response.ok) {
    const body: unknown = await response.json().catch(() => undefined);
    yield { type: 'error', message: chatFailureMessage(response.status, body) };
    return;
  }
  if (!response.body) {
    yield { type: 'error', message: LlmMessages.chatError };
    return;
  }
  try {
    for await (const event of readChatStream(response.body)) {
      // Without a retry (sendChatWithRetry in chat-retry.ts does one), a reply cut off by a shutdown is a failure.
      if (event.type === 'interrupted') break;
      yield event;
      if (isFinalChatEvent(event)) return;
    }
  } catch (error) {
    // The caller's own abort is not a failure to report.
    if (error instanceof Error && error.name === 'AbortError') throw error;
  }
  yield { type: 'error', message: LlmMessages.chatError };
}
