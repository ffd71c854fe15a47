// Default imports, called at request time: test doubles (msw) patch the module objects' request functions.
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { AiProvider } from '@exam/domain/ai-catalogue';
import type { AgentWireFormat } from '@exam/domain/workspace-agents';
import type { ProviderEndpoints } from './llm-client.ts';

/**
 * One call an agent makes, as the gateway forwards it: the agent's own request body (the model already replaced by
 * the exam's), sent to the exam's provider in the wire format the agent speaks, with the exam's key.
 */
export type RelayRequest = {
  provider: AiProvider;
  wire: AgentWireFormat;
  apiKey: string;
  /** Only for openai-compatible: the creator's server (checked by the SSRF guard before the call). */
  baseUrl?: string;
  /** The JSON body to send. */
  body: string;
  /** Provider headers the agent sent that change what the provider answers (Anthropic's version and betas). */
  headers?: Record<string, string>;
};

/** The provider's response, unread: its status, headers and body stream. */
export type ProviderRelay = {
  send(request: RelayRequest, signal: AbortSignal): Promise<IncomingMessage>;
};

/** The path each wire format is served at, under the provider's base URL (OpenAI's ends in /v1, Anthropic's not). */
const PATHS: Record<AgentWireFormat, string> = {
  'openai-chat': 'chat/completions',
  'openai-responses': 'responses',
  'anthropic-messages': 'v1/messages',
};

/** Anthropic's API version when the agent names none. */
const ANTHROPIC_VERSION = '2023-06-01';

/**
 * The agent endpoint's outbound client (modules/agent-endpoint): a plain POST on keep-alive node:http pools, no
 * retries and no redirects, like the chat's OpenAI adapter. The key is the exam's, never anything the agent sent:
 * only `anthropic-version` and `anthropic-beta` are taken from the agent's headers. `firstByteMs` bounds the wait
 * for the response's head; the body is bounded by the caller.
 */
export function createProviderRelay(opts: {
  endpoints: ProviderEndpoints;
  /** The SSRF guard's lookup, for creators' openai-compatible servers. */
  lookup?: LookupFunction | undefined;
  firstByteMs: number;
}): ProviderRelay {
  const options = { keepAlive: true, keepAliveMsecs: 30_000, maxSockets: Infinity, scheduling: 'lifo' as const };
  const pools = { http: new http.Agent(options), https: new https.Agent(options) };
  const baseOf = (request: RelayRequest) => {
    if (request.provider === 'openai-compatible') return request.baseUrl ?? '';
    if (request.provider === 'anthropic') return opts.endpoints.anthropic;
    if (request.provider === 'groq') return opts.endpoints.groq;
    return opts.endpoints.openai;
  };
  return {
    send(request, signal) {
      return new Promise((resolve, reject) => {
        const base = baseOf(request);
        const url = new URL(PATHS[request.wire], base.endsWith('/') ? base : `${base}/`);
        const anthropic = request.wire === 'anthropic-messages';
        const headers: Record<string, string | number> = {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(request.body),
          ...(anthropic
            ? {
                'x-api-key': request.apiKey,
                'anthropic-version': request.headers?.['anthropic-version'] ?? ANTHROPIC_VERSION,
                ...(request.headers?.['anthropic-beta'] ? { 'anthropic-beta': request.headers['anthropic-beta'] } : {}),
              }
            : { authorization: `Bearer ${request.apiKey}` }),
        };
        const secure = url.protocol === 'https:';
        const req = (secure ? https : http).request(url, {
          method: 'POST',
          agent: secure ? pools.https : pools.http,
          headers,
          signal,
          ...(request.provider === 'openai-compatible' && opts.lookup ? { lookup: opts.lookup } : {}),
        });
        req.setNoDelay(true);
        const timer = setTimeout(
          () => req.destroy(new Error(`the provider sent no response within ${opts.firstByteMs} ms`)),
          opts.firstByteMs,
        );
        req.once('response', (response) => {
          clearTimeout(timer);
          resolve(response);
        });
        req.once('error', (err) => {
          clearTimeout(timer);
          reject(err);
        });
        req.end(request.body);
      });
    },
  };
}
