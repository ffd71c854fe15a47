import { delay, http, HttpResponse } from 'msw';

/**
 * The providers' real streaming wire formats, for msw handlers in tests (and nothing else):
 * OpenAI-style `chat.completion.chunk` frames ending in `[DONE]`, Anthropic's typed events, and
 * Gemini's `alt=sse` GenerateContentResponse frames.
 */

export type RecordedCall = { url: string; headers: Record<string, string>; body: Record<string, unknown> };

export function sseResponse(frames: string[], opts: { firstDelayMs?: number; gapMs?: number } = {}) {
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      if (opts.firstDelayMs) await delay(opts.firstDelayMs);
      for (const frame of frames) {
        controller.enqueue(encoder.encode(frame));
        if (opts.gapMs) await delay(opts.gapMs);
      }
      controller.close();
    },
  });
  return new HttpResponse(stream, { headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' } });
}

export function openAiFrames(
  texts: string[],
  usage = { prompt_tokens: 120, completion_tokens: 30 },
  model = 'gpt-4o-mini',
): string[] {
  const base = {
    id: 'chatcmpl-test',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model,
    system_fingerprint: 'fp_test',
  };
  return [
    `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }], usage: null })}\n\n`,
    ...texts.map(
      (t) =>
        `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: { content: t }, logprobs: null, finish_reason: null }], usage: null })}\n\n`,
    ),
    `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' }], usage: null })}\n\n`,
    `data: ${JSON.stringify({ ...base, choices: [], usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } })}\n\n`,
    'data: [DONE]\n\n',
  ];
}

export function anthropicFrames(
  texts: string[],
  usage = { input_tokens: 200, output_tokens: 40 },
  model = 'claude-sonnet-4',
): string[] {
  const event = (type: string, data: unknown) => `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
  return [
    event('message_start', {
      type: 'message_start',
      message: {
        id: 'msg_test',
        type: 'message',
        role: 'assistant',
        content: [],
        model,
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: usage.input_tokens, output_tokens: 1 },
      },
    }),
    event('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
    event('ping', { type: 'ping' }),
    ...texts.map((t) =>
      event('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: t } }),
    ),
    event('content_block_stop', { type: 'content_block_stop', index: 0 }),
    event('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { output_tokens: usage.output_tokens },
    }),
    event('message_stop', { type: 'message_stop' }),
  ];
}

export function geminiFrames(
  texts: string[],
  usage = { promptTokenCount: 150, candidatesTokenCount: 25 },
  model = 'gemini-1.5-flash',
): string[] {
  return texts.map((t, i) => {
    const last = i === texts.length - 1;
    const chunk = {
      candidates: [
        { content: { parts: [{ text: t }], role: 'model' }, index: 0, ...(last ? { finishReason: 'STOP' } : {}) },
      ],
      usageMetadata: {
        promptTokenCount: usage.promptTokenCount,
        ...(last ? { candidatesTokenCount: usage.candidatesTokenCount } : {}),
        totalTokenCount: usage.promptTokenCount + (last ? usage.candidatesTokenCount : 0),
      },
      modelVersion: model,
    };
    // Gemini separates frames with CRLF pairs.
    return `data: ${JSON.stringify(chunk)}\r\n\r\n`;
  });
}

/**
 * Anthropic's stream of a forced tool call (structured output): a `tool_use` content block whose input arrives as
 * `input_json_delta` events, the first with an empty `partial_json` as the API sends it, ending with
 * stop_reason `tool_use`.
 */
export function anthropicToolFrames(
  toolName: string,
  jsonPieces: string[],
  usage = { input_tokens: 200, output_tokens: 40 },
  model = 'claude-sonnet-4',
): string[] {
  const event = (type: string, data: unknown) => `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
  return [
    event('message_start', {
      type: 'message_start',
      message: {
        id: 'msg_test_tool',
        type: 'message',
        role: 'assistant',
        content: [],
        model,
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: usage.input_tokens, output_tokens: 1 },
      },
    }),
    event('content_block_start', {
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'tool_use', id: 'toolu_test', name: toolName, input: {} },
    }),
    ...['', ...jsonPieces].map((partial) =>
      event('content_block_delta', {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'input_json_delta', partial_json: partial },
      }),
    ),
    event('content_block_stop', { type: 'content_block_stop', index: 0 }),
    event('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: 'tool_use', stop_sequence: null },
      usage: { output_tokens: usage.output_tokens },
    }),
    event('message_stop', { type: 'message_stop' }),
  ];
}

/** A value's JSON text cut into `pieces` parts of about equal length, as a provider streams structured output. */
export function jsonPieces(value: unknown, pieces = 4): string[] {
  const text = JSON.stringify(value);
  const size = Math.ceil(text.length / pieces);
  return Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(i * size, (i + 1) * size));
}

/** The providers' JSON error bodies. */
export const errorBodies = {
  openai: (status: number) =>
    HttpResponse.json(
      status === 401
        ? {
            error: {
              message:
                'Incorrect API key provided: sk-can***nary. You can find your API key at https://platform.openai.com/account/api-keys.',
              type: 'invalid_request_error',
              param: null,
              code: 'invalid_api_key',
            },
          }
        : {
            error: {
              message: 'The server had an error while processing your request. Sorry about that!',
              type: 'server_error',
              param: null,
              code: null,
            },
          },
      { status },
    ),
  anthropic: (status: number) =>
    HttpResponse.json(
      {
        type: 'error',
        error:
          status === 401
            ? { type: 'authentication_error', message: 'invalid x-api-key' }
            : { type: 'api_error', message: 'Internal server error' },
      },
      { status },
    ),
  google: (status: number) =>
    HttpResponse.json(
      {
        error:
          status === 401
            ? { code: 401, message: 'API key not valid. Please pass a valid API key.', status: 'UNAUTHENTICATED' }
            : { code: 500, message: 'An internal error has occurred.', status: 'INTERNAL' },
      },
      { status },
    ),
};

/** A handler that records each call, then answers with `respond`. */
export function recordingHandler(
  url: string,
  calls: RecordedCall[],
  respond: (call: RecordedCall) => Response | Promise<Response>,
) {
  return http.post(url, async ({ request }) => {
    const call: RecordedCall = {
      url: request.url,
      headers: Object.fromEntries(request.headers.entries()),
      body: (await request.json()) as Record<string, unknown>,
    };
    calls.push(call);
    return respond(call);
  });
}
