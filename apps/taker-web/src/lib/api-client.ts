import { ApiError, ClientErrorCode, httpErrorCode } from '@exam/domain/api-error';
import type { ErrorBody } from '@exam/domain/errors';
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
    const error = errorOf(payload);
    throw new ApiError({
      status: response.status,
      code: error ? error.code : httpErrorCode(response.status),
      userMessage: error ? error.message : response.statusText || `Request failed (${response.status})`,
      issues: error?.issues,
      statusText: response.statusText,
    });
  }
  return options.schema ? options.schema.parse(payload) : (payload as T);
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/**
 * The error body every service sends (ErrorBodySchema in @exam/domain/errors), checked by hand: on every page,
 * so that a page needs no zod to report a failed request.
 */
export function errorOf(payload: unknown): ErrorBody['error'] | undefined {
  const error = isRecord(payload) ? payload.error : undefined;
  if (!isRecord(error) || typeof error.code !== 'string' || typeof error.message !== 'string') return undefined;
  if (error.issues === undefined) return { code: error.code, message: error.message };
  if (
    !Array.isArray(error.issues) ||
    !error.issues.every(
      (issue) => isRecord(issue) && typeof issue.path === 'string' && typeof issue.message === 'string',
    )
  )
    return undefined;
  const issues = (error.issues as Array<{ path: string; message: string }>).map(({ path, message }) => ({
    path,
    message,
  }));
  return { code: error.code, message: error.message, issues };
}

/** What to tell the candidate about a failed request: the server's message, or a generic one, in the page's language. */
export function userMessageOf(error: unknown): string {
  return error instanceof ApiError ? translateServerMessage(error.userMessage) : i18n.t('common:genericError');
}
