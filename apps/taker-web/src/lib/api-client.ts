import { ApiError, ClientErrorCode, httpErrorCode, UNREACHABLE_HEADER } from '@exam/domain/api-error';
import { ErrorBodySchema } from '@exam/domain/errors';
import { toast } from '@exam/ui/toaster';
import type { z } from 'zod';

/** The one place that turns a failed request into an ApiError: { status, code, userMessage, issues }. */
export { ApiError };

type RequestOptions<T> = {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  token?: string | null | undefined;
  body?: unknown;
  schema?: z.ZodType<T>;
  signal?: AbortSignal;
  /** Lets a request outlive the page (pagehide flushes). */
  keepalive?: boolean;
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
