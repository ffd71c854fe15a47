import { ErrorCode } from '@exam/domain/errors';

/** Seconds a client is asked to wait before resending a request the proxy could not deliver. */
export const RETRY_AFTER_SECONDS = 2;

/**
 * Connection failures that prove the request never reached the service: nothing listened, the name did not
 * resolve, no route, or the connection was not established in time. A reset after connecting is not one of
 * them (the service may have acted on the request).
 */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

export function isUnreachable(err: unknown): boolean {
  for (let e = err as { code?: unknown; cause?: unknown; errors?: unknown } | undefined; e;) {
    if (typeof e.code === 'string' && UNREACHABLE_CODES.has(e.code)) return true;
    // Node reports a refused dual-stack connect (localhost → ::1 and 127.0.0.1) as an AggregateError.
    if (Array.isArray(e.errors) && e.errors.length > 0 && e.errors.every((inner) => isUnreachable(inner))) return true;
    e = e.cause as typeof e;
  }
  return false;
}

/** The platform's error body (ErrorBodySchema) for a request the proxy could not deliver or complete. */
export function unreachableBody(unreachable: boolean) {
  return unreachable
    ? {
        error: {
          code: ErrorCode.UNAVAILABLE,
          message: 'The platform is starting or restarting. Please try again in a moment.',
        },
      }
    : { error: { code: ErrorCode.UPSTREAM, message: 'The service broke off its answer. Please try again.' } };
}
