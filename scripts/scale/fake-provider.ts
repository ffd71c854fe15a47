import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The reply every chat gets, streamed one word per chunk: what the simulated candidates expect to read. */
export const FAKE_REPLY_WORDS = [
  'Start',
  ' from',
  ' what',
  ' the',
  ' question',
  ' asks,',
  ' then',
  ' check',
  ' each',
  ' step.',
];
export const FAKE_REPLY = FAKE_REPLY_WORDS.join('');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * An OpenAI-compatible upstream (POST /v1/chat/completions, `stream: true`), answering as the real API
 * streams: `chat.completion.chunk` events `delayMs` apart, a last chunk with finish_reason 'stop', the usage
 * chunk when asked for, then `data: [DONE]`. The delay keeps replies in flight long enough for a replica to
 * die in the middle of some.
 */
export async function startFakeProvider(opts: { port: number; delayMs: number }) {
  let served = 0;
  const send = (response: ServerResponse, payload: unknown) =>
    response.write(`data: ${typeof payload === 'string' ? payload : JSON.stringify(payload)}\n\n`);

  async function stream(
    response: ServerResponse,
    body: { model?: string; stream_options?: { include_usage?: boolean } },
  ) {
    served += 1;
    const id = `chatcmpl-scale-${served}`;
    const created = Math.floor(Date.now() / 1000);
    const chunk = (delta: Record<string, string>, finish: string | null) => ({
      id,
      object: 'chat.completion.chunk',
      created,
      model: body.model,
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    send(response, chunk({ role: 'assistant', content: '' }, null));
    for (const word of FAKE_REPLY_WORDS) {
      await sleep(opts.delayMs);
      if (response.destroyed) return;
      send(response, chunk({ content: word }, null));
    }
    send(response, chunk({}, 'stop'));
    if (body.stream_options?.include_usage) {
      const completion = FAKE_REPLY_WORDS.length;
      send(response, {
        id,
        object: 'chat.completion.chunk',
        created,
        model: body.model,
        choices: [],
        usage: { prompt_tokens: 50, completion_tokens: completion, total_tokens: 50 + completion },
      });
    }
    send(response, '[DONE]');
    response.end();
  }

  const server = createServer((request, response) => {
    let raw = '';
    request.setEncoding('utf8');
    request.on('data', (part: string) => (raw += part));
    request.on('end', () => {
      if (request.method !== 'POST' || request.url !== '/v1/chat/completions') {
        response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"no route"}}');
        return;
      }
      const body = JSON.parse(raw) as { stream?: boolean; model?: string };
      if (body.stream !== true) {
        response.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{"message":"stream only"}}');
        return;
      }
      stream(response, body).catch(() => response.destroy());
    });
  });
  // Node closes an idle keep-alive connection after 5 s; the gateway pools its upstream connections and does not
  // retry a reply whose pooled connection was closed under it (one such reply error was seen in a short run).
  // Providers' front ends keep idle connections for longer; so does this fake, so that a reply error here is the
  // kill's doing, not that race.
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    get served() {
      return served;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
