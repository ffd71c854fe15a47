import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the fake received, as llm-gateway's agent endpoint relayed it. */
export type ResponsesRequest = {
  path: string;
  headers: IncomingHttpHeaders;
  body: { model?: string; stream?: boolean; input?: Array<{ type?: string; call_id?: string; output?: unknown }> };
};

export type FakeResponses = { url: string; requests: ResponsesRequest[]; close(): Promise<void> };

/**
 * A stand-in for OpenAI's Responses API (POST /v1/responses, server-sent events) as Codex CLI drives it: the first
 * request of a task gets a function call (`exec_command` running `command`), the next one — carrying the call's
 * output — a short text answer. Every response reports `usage`, so the gateway counts real numbers. The events are
 * the ones the API sends (platform.openai.com/docs/api-reference/responses-streaming): response.created,
 * response.output_item.added, response.output_item.done, response.completed.
 */
export async function startFakeResponses(opts: {
  port: number;
  command: string;
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
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      const body = (raw ? JSON.parse(raw) : {}) as ResponsesRequest['body'];
      requests.push({ path: req.url ?? '', headers: req.headers, body });
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
