import { ApiError, ClientErrorCode, httpErrorCode } from '@exam/domain/api-error';
import { ErrorBodySchema } from '@exam/domain/errors';
import { fetchUntilDelivered } from '@exam/ui/lib/fetch-until-delivered';
import type { z } from 'zod';
import { clearToken, getToken } from './auth-storage.ts';
import type { ParseKeys } from 'i18next';
import { i18n } from '../i18n/index.ts';

/** Every failed call becomes an ApiError: a code to branch on and a message a person can read. */
export { ApiError };
export { platformStartingRetry } from '@exam/ui/lib/fetch-until-delivered';

const fallbackMessages: Record<number, ParseKeys<'common'>> = {
  401: 'errors.sessionExpired',
  403: 'errors.forbidden',
  404: 'errors.notFound',
  413: 'errors.tooLarge',
  429: 'errors.tooManyRequests',
};

let onUnauthorized: () => void = () => undefined;

/** The router registers what a 401 on an authenticated call does: the token is gone, so back to sign-in. */
export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}

type RequestOptions<T> = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  /** Validates the response; the parsed value is returned. */
  schema: z.ZodType<T>;
  /** Sign-in and sign-up send no token and treat 401 as a plain error. */
  anonymous?: boolean;
  signal?: AbortSignal;
};

async function errorOf(response: Response): Promise<ApiError> {
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    body = undefined;
  }
  const parsed = ErrorBodySchema.safeParse(body);
  if (parsed.success) {
    const { code, message, issues } = parsed.data.error;
    // A 500 carries a generic text meant for logs; show a steady sentence instead. A 503 a service sent on
    // purpose says what is missing (e.g. no code sandbox to run tests), so it is shown as sent.
    const userMessage = response.status >= 500 && response.status !== 503 ? i18n.t('errors.generic') : message;
    return new ApiError({ code, status: response.status, statusText: response.statusText, userMessage, issues });
  }
  return new ApiError({
    code: httpErrorCode(response.status),
    status: response.status,
    statusText: response.statusText,
    userMessage: i18n.t(fallbackMessages[response.status] ?? 'errors.generic'),
  });
}

export async function apiRequest<T>(path: string, options: RequestOptions<T>): Promise<T> {
  const headers = new Headers({ accept: 'application/json' });
  const token = options.anonymous ? null : getToken();
  if (token) headers.set('authorization', `Bearer ${token}`);
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    headers.set('content-type', 'application/json');
    body = JSON.stringify(options.body);
  }
  let response: Response;
  try {
    // An absolute URL: the same origin in the browser, and one msw can match in tests.
    response = await fetchUntilDelivered(
      () =>
        fetch(new URL(path, window.location.origin), {
          method: options.method ?? 'GET',
          headers,
          body,
          signal: options.signal,
        }),
      options.signal,
    );
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError({
      code: ClientErrorCode.NETWORK,
      status: 0,
      userMessage: i18n.t('errors.network'),
    });
  }
  if (!response.ok) {
    const error = await errorOf(response);
    if (response.status === 401 && !options.anonymous) {
      clearToken();
      onUnauthorized();
    }
    throw error;
  }
  const parsed = options.schema.safeParse(await response.json());
  if (!parsed.success) {
    throw new ApiError({
      code: ClientErrorCode.BAD_RESPONSE,
      status: response.status,
      userMessage: i18n.t('errors.unexpectedAnswer'),
    });
  }
  return parsed.data;
}

export function userMessageOf(error: unknown): string {
  return error instanceof ApiError ? error.userMessage : i18n.t('errors.generic');
}
