import { UNREACHABLE_HEADER } from '@exam/domain/api-error';
import { toast } from '../toaster.tsx';

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

export async function fetchUntilDelivered(send: () => Promise<Response>, signal: AbortSignal | undefined) {
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
