import { ErrorBodySchema } from '@exam/domain/errors';
import type { z } from 'zod';

/** The one place that turns a failed request into { code, status, userMessage } (style: api-client). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly statusText: string;
  readonly userMessage: string;

  constructor(init: { status: number; code: string; message: string; statusText?: string }) {
    super(init.message);
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code;
    this.statusText = init.statusText ?? '';
    this.userMessage = init.message;
  }

  /** No answer from the server at all (offline, DNS, aborted). */
  get isNetwork(): boolean {
    return this.status === 0;
  }

  /** Worth trying again later: no connection, a timeout, rate limiting or a server-side failure. */
  get isRetryable(): boolean {
    return this.status === 0 || this.status === 408 || this.status === 429 || this.status >= 500;
  }
}

type RequestOptions<T> = {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  token?: string | null | undefined;
  body?: unknown;
  schema?: z.ZodType<T>;
  signal?: AbortSignal;
  /** Lets a request outlive the page (pagehide flushes). */
  keepalive?: boolean;
};

/** Relative API paths resolve against the page, so one build works behind any host. */
export function apiUrl(path: string): string {
  return new URL(path, window.location.origin).toString();
}

export async function apiRequest<T = unknown>(path: string, options: RequestOptions<T> = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  let response: Response;
  try {
    response = await fetch(apiUrl(path), {
      method: options.method ?? 'GET',
      headers,
      body,
      signal: options.signal,
      keepalive: options.keepalive,
    });
  } catch (cause) {
    throw new ApiError({
      status: 0,
      code: 'NETWORK',
      message: cause instanceof Error ? cause.message : 'Network error',
      statusText: 'Network error',
    });
  }
  const payload: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const parsed = ErrorBodySchema.safeParse(payload);
    throw new ApiError({
      status: response.status,
      code: parsed.success ? parsed.data.error.code : `HTTP_${response.status}`,
      message: parsed.success
        ? parsed.data.error.message
        : response.statusText || `Request failed (${response.status})`,
      statusText: response.statusText,
    });
  }
  return options.schema ? options.schema.parse(payload) : (payload as T);
}
