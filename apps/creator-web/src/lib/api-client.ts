import { ApiError, ClientErrorCode, httpErrorCode, UNREACHABLE_HEADER } from '@exam/domain/api-error';
import { ErrorBodySchema } from '@exam/domain/errors';
import { toast } from '@exam/ui/toaster';
import type { z } from 'zod';
import { clearToken, getToken } from './auth-storage.ts';

/** Every failed call becomes an ApiError: a code to branch on and a message a person can read. */
export { ApiError };

const fallbackMessages: Record<number, string> = {
  401: 'Your session has expired. Please sign in again.',
  403: 'You do not have access to this.',
  404: 'Not found.',
  413: 'The upload is too large.',
  429: 'Too many requests. Please wait a moment and try again.',
};

/**
 * A call the web server's proxy could not deliver (the platform is starting, or a service restarts) never
 * reached the service, so it is resent, even a POST, with growing pauses for up to `windowMs`, while a toast
 * says the platform is starting. A 503 the service itself sent (no UNREACHABLE_HEADER) is not resent here.
 */
export const platformStartingRetry = { windowMs: 30_000, firstDelayMs: 500, maxDelayMs: 4_000 };
const STARTING_TOAST = 'platform-starting';

const neverReachedService = (response: Response) =>
  response.status === 503 && response.headers.get(UNREACHABLE_HEADER) !== null;

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason as Error);
      },
      { once: true },
    );
  });
}

async function fetchUntilDelivered(send: () => Promise<Response>, signal: AbortSignal | undefined) {
  const started = Date.now();
  let delay = platformStartingRetry.firstDelayMs;
  let response = await send();
  let toastShown = false;
  try {
    while (neverReachedService(response) && Date.now() - started + delay <= platformStartingRetry.windowMs) {
      toast.loading('The platform is starting…', { id: STARTING_TOAST });
      toastShown = true;
      void response.body?.cancel().catch(() => undefined);
      await pause(delay, signal);
      delay = Math.min(delay * 2, platformStartingRetry.maxDelayMs);
      response = await send();
    }
  } finally {
    if (toastShown) toast.dismiss(STARTING_TOAST);
  }
  return response;
}

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
    // A 500 carries a generic text meant for logs; show a steady sentence instead.
    const userMessage = response.status >= 500 ? 'Something went wrong. Please try again.' : message;
    return new ApiError({ code, status: response.status, statusText: response.statusText, userMessage, issues });
  }
  return new ApiError({
    code: httpErrorCode(response.status),
    status: response.status,
    statusText: response.statusText,
    userMessage: fallbackMessages[response.status] ?? 'Something went wrong. Please try again.',
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
      userMessage: 'Cannot reach the server. Check your connection and try again.',
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
      userMessage: 'The server sent an unexpected answer. Please try again.',
    });
  }
  return parsed.data;
}

export function userMessageOf(error: unknown): string {
  return error instanceof ApiError ? error.userMessage : 'Something went wrong. Please try again.';
}
