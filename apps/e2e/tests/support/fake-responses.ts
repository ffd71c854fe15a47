import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the fake received, as llm-gateway's agent endpoint relayed it. */
export type ResponsesRequest = {
  path: string;
  headers: IncomingHttpHeaders;
  body: {
    model?: string;
    stream?: boolean;
    /** Responses API */
    input?: Array<{ type?: string; call_id?: string; output?: unknown }>;
    /** Messages API */
    messages?: Array<{ role: string; content: unknown }>;
    tools?: Array<{ name?: string }>;
  };
};

export type FakeResponses = { url: string; requests: ResponsesRequest[]; close(): Promise<void> };

/**
 * A stand-in for OpenAI's Responses API (POST /v1/responses, server-sent events) as Codex CLI drives it: the first
 * request of a task gets a function call (`exec_command` running `command`), the next one — carrying the call's
 * output — a short text answer. Every response reports `usage`, so the gateway counts real numbers. The events are
 * the ones the API sends (platform.openai.com/docs/api-reference/responses-streaming): response.created,
 * response.output_item.added, response.output_item.done, response.completed.
 *
 * It also stands in for Anthropic's Messages API (POST /v1/messages, docs.anthropic.com/en/api/messages-streaming)
 * as Claude Code drives it: a `tool_use` of its Write tool first (its input streamed as input_json_delta), then text
 * once the tool_result comes back; message_start and message_delta carry the usage.
 */
export async function startFakeResponses(opts: {
  port: number;
  command: string;
  /** Messages API (Claude Code): the file its Write tool is asked to write, and what. */
  write: { path: string; content: string };
  usage: { input: number; output: number };
  /** 0.0.0.0 makes it answer on the workspace bridges' host address too (to prove the firewall keeps it away). */
  host?: string;
}): Promise<FakeResponses> {
  const requests: ResponsesRequest[] = [];
  let n = 0;
  const sse = (res: ServerResponse, events: Array<[string, unknown]>) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const [event, data] of events) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    res.end();
  };
  const messages = (res: ServerResponse, body: ResponsesRequest['body'], n: number) => {
    const last = body.messages?.at(-1);
    const answered =
      Array.isArray(last?.content) && (last.content as Array<{ type?: string }>).some((b) => b.type === 'tool_result');
    const canWrite = (body.tools ?? []).some((t) => t.name === 'Write');
    const start = {
      type: 'message_start',
      message: {
        id: `msg_${n}`,
        type: 'message',
        role: 'assistant',
        model: body.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: opts.usage.input, output_tokens: 0 },
      },
    };
    const events: Array<[string, unknown]> = [['message_start', start]];
    if (canWrite && !answered) {
      const input = JSON.stringify({ file_path: opts.write.path, content: opts.write.content });
      events.push(
        [
          'content_block_start',
          {
            type: 'content_block_start',
            index: 0,
            content_block: { type: 'tool_use', id: `toolu_${n}`, name: 'Write', input: {} },
          },
        ],
        [
          'content_block_delta',
          {
            type: 'content_block_delta',
            index: 0,
            delta: { type: 'input_json_delta', partial_json: input.slice(0, 20) },
          },
        ],
        [
          'content_block_delta',
          { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: input.slice(20) } },
        ],
        ['content_block_stop', { type: 'content_block_stop', index: 0 }],
        [
          'message_delta',
          {
            type: 'message_delta',
            delta: { stop_reason: 'tool_use', stop_sequence: null },
            usage: { output_tokens: opts.usage.output },
          },
        ],
      );
    } else {
      events.push(
        ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
        [
          'content_block_delta',
          { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Done: the file is written.' } },
        ],
        ['content_block_stop', { type: 'content_block_stop', index: 0 }],
        [
          'message_delta',
          {
            type: 'message_delta',
            delta: { stop_reason: 'end_turn', stop_sequence: null },
            usage: { output_tokens: opts.usage.output },
          },
        ],
      );
    }
    events.push(['message_stop', { type: 'message_stop' }]);
    sse(res, events);
  };
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      const body = (raw ? JSON.parse(raw) : {}) as ResponsesRequest['body'];
      requests.push({ path: req.url ?? '', headers: req.headers, body });
      if (req.method === 'POST' && (req.url ?? '').startsWith('/v1/messages')) {
        n += 1;
        messages(res, body, n);
        return;
      }
      if (req.method !== 'POST' || !(req.url ?? '').startsWith('/v1/responses')) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'not found', type: 'invalid_request_error', code: null } }));
        return;
      }
      n += 1;
      const answered = (body.input ?? []).some((item) => item.type === 'function_call_output');
      const item = answered
        ? {
            type: 'message',
            id: `msg_${n}`,
            role: 'assistant',
            status: 'completed',
            content: [{ type: 'output_text', text: 'Done: the notes are written.', annotations: [] }],
          }
        : {
            type: 'function_call',
            id: `fc_${n}`,
            call_id: `call_${n}`,
            name: 'exec_command',
            arguments: JSON.stringify({ cmd: opts.command }),
            status: 'completed',
          };
      const usage = {
        input_tokens: opts.usage.input,
        output_tokens: opts.usage.output,
        total_tokens: opts.usage.input + opts.usage.output,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens_details: { reasoning_tokens: 0 },
      };
      const response = {
        id: `resp_${n}`,
        object: 'response',
        model: body.model,
        status: 'completed',
        output: [item],
        usage,
      };
      sse(res, [
        [
          'response.created',
          { type: 'response.created', response: { ...response, status: 'in_progress', output: [] } },
        ],
        ['response.output_item.added', { type: 'response.output_item.added', output_index: 0, item }],
        ['response.output_item.done', { type: 'response.output_item.done', output_index: 0, item }],
        ['response.completed', { type: 'response.completed', response }],
      ]);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
