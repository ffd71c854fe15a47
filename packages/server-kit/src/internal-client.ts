import http from 'node:http';
import https from 'node:https';
import { AppError, ErrorCode } from '@exam/domain/errors';
import type { z } from 'zod';

/**
 * The one HTTP client for calls between the platform's services (ARCHITECTURE.md, "Who calls whom").
 *
 * Error mapping, the same for every caller:
 * - the other service cannot be reached, times out or answers no JSON -> UNAVAILABLE (503);
 * - it answers a status the caller did not expect, or a body off the contract -> UPSTREAM (502).
 *
 * It runs on node:http(s) with a keep-alive agent: these calls sit on hot paths (the chat's first token),
 * where fetch cost several times the CPU of a plain request.
 */
export type InternalClientOptions = {
  timeoutMs?: number;
  /** Sockets kept per upstream; pass a larger pool for a service that fans out many calls at once. */
  agent?: { maxSockets?: number };
};

export type InternalResponse<T> = { status: number; body: T };

const DEFAULT_TIMEOUT_MS = 5000;

function keepAliveAgents(maxSockets: number) {
  const options = { keepAlive: true, maxSockets, maxFreeSockets: maxSockets, scheduling: 'lifo' as const };
  return { http: new http.Agent(options), https: new https.Agent(options) };
}

/** A path the request line can carry as it is: absolute, already percent-encoded, no dot segments to resolve. */
const PLAIN_PATH = /^\/(?!.*\/\.)[A-Za-z0-9\-._~%!$&'()*+,;=:@/?]*$/;

export function createInternalClient(baseUrl: string, internalToken: string, opts: InternalClientOptions = {}) {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const agents = keepAliveAgents(opts.agent?.maxSockets ?? 64);
  const unavailable = (reason: string) => new AppError(ErrorCode.UNAVAILABLE, `Service at ${baseUrl} ${reason}`);
  // The origin is parsed once: a URL per call, turned back into request options by node:http, was a visible part
  // of each call's CPU on the chat's path (llm-gateway asks exam-service and results-service for every message).
  const base = new URL(baseUrl);
  const secure = base.protocol === 'https:';
  const transport = secure ? https : http;
  const origin = {
    protocol: base.protocol,
    hostname: base.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: base.port || (secure ? 443 : 80),
    agent: secure ? agents.https : agents.http,
    timeout: timeoutMs,
  };

  function send<T>(
    path: string,
    init: { method?: string; body?: unknown },
    decode: (text: string) => T,
  ): Promise<InternalResponse<T>> {
    return new Promise((resolve, reject) => {
      let target = path;
      if (!PLAIN_PATH.test(path)) {
        const url = new URL(path, baseUrl);
        target = url.pathname + url.search;
      }
      const payload = init.body !== undefined ? JSON.stringify(init.body) : undefined;
      const headers: Record<string, string> = { 'x-internal-token': internalToken };
      if (payload !== undefined) {
        headers['content-type'] = 'application/json';
        headers['content-length'] = String(Buffer.byteLength(payload));
      }
      const unreachable = (err: Error) => reject(unavailable(`is unreachable: ${err.message}`));
      const req = transport.request({ ...origin, path: target, method: init.method ?? 'GET', headers }, (res) => {
        // Buffers are joined and decoded once at the end (an answer mostly arrives in one piece).
        const parts: Buffer[] = [];
        res.on('data', (part: Buffer) => parts.push(part));
        res.on('error', unreachable);
        res.on('end', () => {
          const text = parts.length === 1 ? parts[0]!.toString('utf8') : Buffer.concat(parts).toString('utf8');
          try {
            resolve({ status: res.statusCode ?? 0, body: decode(text) });
          } catch (err) {
            reject(unavailable(`answered no JSON: ${(err as Error).message}`));
          }
        });
      });
      req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
      req.on('error', unreachable);
      req.end(payload);
    });
  }

  function request<T = unknown>(
    path: string,
    init: { method?: string; body?: unknown } = {},
  ): Promise<InternalResponse<T>> {
    return send(path, init, (text) => (text ? JSON.parse(text) : undefined) as T);
  }

  return Object.assign(request, {
    /**
     * The same call, answering the body as text, unparsed: for a caller that can tell an unchanged answer by
     * its text and skip parsing and validating it again (llm-gateway's exam source).
     */
    text(path: string, init: { method?: string; body?: unknown } = {}): Promise<InternalResponse<string>> {
      return send(path, init, (text) => text);
    },
    /** Closes the kept-alive sockets (on the owning app's close). */
    close() {
      agents.http.destroy();
      agents.https.destroy();
    },
  });
}
export type InternalClient = ReturnType<typeof createInternalClient>;

/** The error for a status the caller did not expect from another service. */
export function unexpectedStatus(service: string, status: number, what: string): AppError {
  return new AppError(ErrorCode.UPSTREAM, `${service} answered ${status} for ${what}`);
}

/** Parses another service's body against the shared contract, or fails as UPSTREAM. */
export function parseUpstream<S extends z.ZodType>(
  service: string,
  schema: S,
  body: unknown,
  what: string,
): z.infer<S> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new AppError(
      ErrorCode.UPSTREAM,
      `${service} sent ${what} that does not match the contract: ${parsed.error.message}`,
    );
  }
  return parsed.data;
}
