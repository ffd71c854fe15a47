// Default imports, called at request time: test doubles (msw) patch the module objects' request functions.
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { SseLineParser } from './sse-parser.ts';
import { openAiStrictSchema } from './structured-output.ts';
import { UpstreamError, type ProviderAdapter, type ProviderMessage, type StreamChunk } from './types.ts';

type ContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };
type OpenAiMessage = { role: 'system' | 'user' | 'assistant'; content: string | ContentPart[] };
type Usage = { prompt_tokens?: number; completion_tokens?: number };
type Chunk = { choices?: { delta?: { content?: string | null } }[]; usage?: Usage | null; x_groq?: { usage?: Usage } };

function toOpenAiMessage(message: ProviderMessage): OpenAiMessage {
  if (message.role === 'assistant' || !message.images?.length) return { role: message.role, content: message.content };
  return {
    role: 'user',
    content: [
      { type: 'text', text: message.content },
      ...message.images.map((image) => ({
        type: 'image_url' as const,
        image_url: { url: `data:${image.mediaType};base64,${image.dataBase64}` },
      })),
    ],
  };
}

type Agents = { http: http.Agent; https: https.Agent; lookup: LookupFunction | undefined };

// Keep-alive pools shared by every chat of one adapter: a new TCP (and TLS) connection per chat would cost
// more than the rest of the chat's path together. No socket cap: each open stream holds its own connection.
function agents(lookup: LookupFunction | undefined): Agents {
  const options = {
    keepAlive: true,
    keepAliveMsecs: 30_000,
    maxSockets: Infinity,
    maxFreeSockets: 4096,
    scheduling: 'lifo' as const,
  };
  return { http: new http.Agent(options), https: new https.Agent(options), lookup };
}

/** Where a base URL's chat completions are posted, as request options (protocol, host, port, path). */
type Endpoint = { protocol: string; hostname: string; port: string | number; path: string };

/** A URL's request options, as node:http would derive them from the URL (without the copy it makes each call). */
function endpointOf(url: URL): Endpoint {
  const secure = url.protocol === 'https:';
  return {
    protocol: url.protocol,
    hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port || (secure ? 443 : 80),
    path: url.pathname + url.search,
  };
}

/** How many base URLs' endpoints each adapter remembers (one for a provider; one per creator's own server). */
const ENDPOINTS_KEPT = 256;

function post(
  pool: Agents,
  endpoint: Endpoint,
  headers: Record<string, string>,
  body: string,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const secure = endpoint.protocol === 'https:';
    const req = (secure ? https : http).request({
      ...endpoint,
      method: 'POST',
      agent: secure ? pool.https : pool.http,
      headers: { ...headers, 'content-length': Buffer.byteLength(body) },
      signal,
      ...(pool.lookup ? { lookup: pool.lookup } : {}),
    });
    // Each token is its own small write upstream and back: no Nagle delay.
    req.setNoDelay(true);
    req.once('response', resolve);
    req.once('error', reject);
    req.end(body);
  });
}

async function errorOf(response: IncomingMessage): Promise<UpstreamError> {
  let text = '';
  response.setEncoding('utf8');
  try {
    for await (const part of response) text += part as string;
  } catch {
    // the body broke off: the status is what counts
  }
  let message = text.slice(0, 300);
  try {
    message = (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? message;
  } catch {
    // not JSON: keep the raw start of the body
  }
  return new UpstreamError(`upstream answered ${response.statusCode}: ${message}`, response.statusCode);
}

/** Adds the stream chunks of one `data:` payload to `out`; `[DONE]` ends the stream. */
function collectChunks(data: string, state: { done: boolean }, out: StreamChunk[]) {
  if (data === '[DONE]') {
    state.done = true;
    return;
  }
  const chunk = JSON.parse(data) as Chunk;
  const text = chunk.choices?.[0]?.delta?.content;
  if (text) out.push({ type: 'delta', text });
  // Groq reports usage in x_groq.usage on the last chunk; OpenAI and vLLM in `usage`.
  const usage = chunk.usage ?? chunk.x_groq?.usage;
  if (usage)
    out.push({ type: 'usage', inputTokens: usage.prompt_tokens ?? 0, outputTokens: usage.completion_tokens ?? 0 });
}

/** How long a response that sent `[DONE]` may take to end before its connection is closed instead of pooled. */
const END_AFTER_DONE_MS = 1000;

/**
 * The chunks of a streamed response body (`open` sends the request when the first chunk is asked for), read as its `data` events arrive and handed out in order: one wait
 * per batch of chunks that arrived together, where a `for await` over the body cost a promise chain per piece
 * (a visible part of each token's CPU at thousands of streams). After `[DONE]` the rest of the body is still
 * read to its end, so the keep-alive connection goes back to the pool; a body that does not end soon after is
 * closed. A body cut short before `[DONE]` or its end fails the stream, as does a malformed chunk.
 */
async function* chunksOfBody(open: () => Promise<IncomingMessage>): AsyncGenerator<StreamChunk> {
  const response = await open();
  const parser = new SseLineParser();
  const state = { done: false };
  const ready: StreamChunk[] = [];
  let failure: unknown;
  let ended = false;
  let closed = false;
  let wake: (() => void) | undefined;
  const onData = (part: string) => {
    if (state.done || failure) return;
    try {
      for (const data of parser.push(part)) {
        collectChunks(data, state, ready);
        if (state.done) break;
      }
    } catch (err) {
      failure = err;
    }
    wake?.();
  };
  const onEnd = () => {
    ended = true;
    wake?.();
  };
  const onError = (err: unknown) => {
    failure ??= err;
    wake?.();
  };
  const onClose = () => {
    closed = true;
    wake?.();
  };
  response.setEncoding('utf8');
  response.on('data', onData);
  response.once('end', onEnd);
  response.once('error', onError);
  response.once('close', onClose);
  try {
    for (;;) {
      let next: StreamChunk | undefined;
      while ((next = ready.shift())) yield next;
      if (state.done) return;
      if (failure) throw failure;
      if (ended) break;
      if (closed) throw new Error('the upstream response closed before its end');
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
    for (const data of parser.end()) {
      collectChunks(data, state, ready);
      if (state.done) break;
    }
    for (const chunk of ready) yield chunk;
  } finally {
    response.off('data', onData);
    response.off('error', onError);
    if (!ended && !closed && !response.destroyed) {
      if (state.done && !failure) {
        // The rest is on its way (the body's last chunk): read it so the connection can be reused.
        const cut = setTimeout(() => response.destroy(), END_AFTER_DONE_MS);
        response.once('end', () => clearTimeout(cut));
        response.resume();
      } else {
        response.destroy();
      }
    }
  }
}

/**
 * The OpenAI chat completions wire format, streamed, on a lean node:http client: OpenAI itself, Groq and
 * self-hosted servers (vLLM, Ollama…) all speak it. `stream_options.include_usage` asks for the usage in
 * a last chunk with no choices; the stream ends with `data: [DONE]`. No retries: a retry would double the
 * call and the wait; redirects are not followed. `lookup` replaces DNS resolution of the connection (the SSRF
 * guard's, for creators' base URLs). The official SDK cost about twice the CPU per streamed chat (bench/README.md).
 * A request with a `responseFormat` asks for structured output (`response_format` of type `json_schema`, strict).
 */
export function openAiAdapter(
  defaultBaseUrl: string,
  opts: { lookup?: LookupFunction | undefined } = {},
): ProviderAdapter {
  const pool = agents(opts.lookup);
  // A base URL's endpoint is worked out once: a URL per chat, copied into request options by node:http, was a
  // visible part of a chat's CPU. Remembered per adapter, least recently used first out.
  const endpoints = new Map<string, Endpoint>();
  const endpointFor = (base: string) => {
    let endpoint = endpoints.get(base);
    if (endpoint) return endpoint;
    endpoint = endpointOf(new URL('chat/completions', base.endsWith('/') ? base : `${base}/`));
    endpoints.set(base, endpoint);
    if (endpoints.size > ENDPOINTS_KEPT) endpoints.delete(endpoints.keys().next().value!);
    return endpoint;
  };
  return function stream(request, signal) {
    // Built when the first chunk is asked for, as the request is sent: a bad base URL fails the stream, not this call.
    return chunksOfBody(async () => {
      const endpoint = endpointFor(request.baseUrl || defaultBaseUrl);
      const body = JSON.stringify({
        model: request.model,
        messages: [{ role: 'system', content: request.system }, ...request.messages.map(toOpenAiMessage)],
        temperature: request.temperature,
        max_tokens: request.maxTokens,
        stream: true,
        stream_options: { include_usage: true },
        // Structured output: the content deltas are then the JSON text of the reply.
        ...(request.responseFormat
          ? {
              response_format: {
                type: 'json_schema',
                json_schema: {
                  name: request.responseFormat.name,
                  description: request.responseFormat.description,
                  strict: true,
                  schema: openAiStrictSchema(request.responseFormat.schema),
                },
              },
            }
          : {}),
      });
      const headers = {
        'content-type': 'application/json',
        accept: 'text/event-stream',
        authorization: `Bearer ${request.apiKey}`,
      };
      const response = await post(pool, endpoint, headers, body, signal);
      const status = response.statusCode ?? 0;
      if (status < 200 || status >= 300) throw await errorOf(response);
      return response;
    });
  };
}
