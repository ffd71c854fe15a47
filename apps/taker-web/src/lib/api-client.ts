import { ApiError, ClientErrorCode, httpErrorCode } from '@exam/domain/api-error';
import { ErrorBodySchema } from '@exam/domain/errors';
import { fetchUntilDelivered } from '@exam/ui/lib/fetch-until-delivered';
import type { z } from 'zod';
import { i18n } from '../i18n/index.ts';
import { translateServerMessage } from '../i18n/server-messages.ts';

/** The one place that turns a failed request into an ApiError: { status, code, userMessage, issues }. */
export { ApiError };
export { platformStartingRetry } from '@exam/ui/lib/fetch-until-delivered';

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
    response = await fetchUntilDelivered(
      () =>
        fetch(apiUrl(path), {
          method: options.method ?? 'GET',
          headers,
          body,
          signal: options.signal,
          keepalive: options.keepalive,
        }),
      options.signal,
    );
  } catch (cause) {
    throw new ApiError({
      status: 0,
      code: ClientErrorCode.NETWORK,
      userMessage: cause instanceof Error ? cause.message : 'Network error',
      statusText: 'Network error',
    });
  }
  const payload: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const parsed = ErrorBodySchema.safeParse(payload);
    throw new ApiError({
      status: response.status,
      code: parsed.success ? parsed.data.error.code : httpErrorCode(response.status),
      userMessage: parsed.success
        ? parsed.data.error.message
        : response.statusText || `Request failed (${response.status})`,
      issues: parsed.success ? parsed.data.error.issues : undefined,
      statusText: response.statusText,
    });
  }
  return options.schema ? options.schema.parse(payload) : (payload as T);
}

/** What to tell the candidate about a failed request: the server's message, or a generic one, in the page's language. */
export function userMessageOf(error: unknown): string {
  return error instanceof ApiError ? translateServerMessage(error.userMessage) : i18n.t('common:genericError');
}
