import type { TranscriptMessage } from '@exam/domain/internal';
import { ChatRequestSchema, type ChatRequest, type ChatStreamEvent } from '@exam/domain/llm';
import { http, HttpResponse } from 'msw';

const encoder = new TextEncoder();

/** A text/event-stream body the test writes frame by frame, to watch a reply arrive incrementally. */
export function controlledStream() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
  });
  return {
    stream,
    push: (event: ChatStreamEvent) => controller.enqueue(encoder.encode(`data: ${JSON.stringify(event)}\n\n`)),
    close: () => controller.close(),
  };
}

export const sse = (stream: ReadableStream<Uint8Array>) =>
  new HttpResponse(stream, { headers: { 'content-type': 'text/event-stream; charset=utf-8' } });

/** A whole reply as one stream: its deltas, then done. */
export function replyStream(...deltas: string[]): ReadableStream<Uint8Array> {
  const { stream, push, close } = controlledStream();
  for (const text of deltas) push({ type: 'delta', text });
  push({
    type: 'done',
    messageId: 'reply-1',
    usage: { inputTokens: 10, outputTokens: deltas.length, estimated: false },
  });
  close();
  return stream;
}

export function transcriptMessage(overrides: Partial<TranscriptMessage> = {}): TranscriptMessage {
  return {
    id: crypto.randomUUID(),
    role: 'user',
    content: 'Hello',
    questionIndex: 0,
    isError: false,
    files: [],
    createdAt: '2026-01-05T14:30:00.000Z',
    ...overrides,
  };
}

/**
 * The llm-gateway's candidate endpoints as msw handlers typed by the domain contracts. `reply` answers
 * each chat request (default: a short streamed reply); every request is recorded with its token.
 */
export function createFakeGateway(
  init: { transcript?: TranscriptMessage[]; reply?: (body: ChatRequest) => Response | Promise<Response> } = {},
) {
  const state = {
    chats: [] as Array<{ body: ChatRequest; authorization: string | null }>,
    transcriptReads: [] as Array<string | null>,
  };
  const handlers = [
    http.get('/api/llm/transcript', ({ request }) => {
      state.transcriptReads.push(request.headers.get('authorization'));
      return HttpResponse.json({ messages: init.transcript ?? [] });
    }),
    http.post('/api/llm/chat', async ({ request }) => {
      const body = ChatRequestSchema.parse(await request.json());
      state.chats.push({ body, authorization: request.headers.get('authorization') });
      return init.reply ? init.reply(body) : sse(replyStream('Sure, ', 'happy to help.'));
    }),
  ];
  return { state, handlers };
}
