import type { Issue } from './errors.ts';

/**
 * What a failed call to the platform's HTTP API becomes in the apps: one shape for both, so a page
 * branches on `code` or `status` and shows `userMessage` whichever app it lives in.
 *
 * Only a type is imported here, never a schema: the apps' first chunks may load this class without zod.
 */

/** Codes an app gives a failure the server did not name; a server's failure keeps its own ErrorCode. */
export const ClientErrorCode = {
  /** No answer at all: offline, DNS, connection refused. `status` is 0. */
  NETWORK: 'NETWORK',
  /** An answer that does not match its schema. */
  BAD_RESPONSE: 'BAD_RESPONSE',
} as const;

/** The code of a failed answer that carries no error body (a proxy's 502, a static host's 404). */
export const httpErrorCode = (status: number) => `HTTP_${status}`;

export type ApiErrorInit = {
  /** The HTTP status; 0 when no answer arrived. */
  status: number;
  /** The server's ErrorCode, or a ClientErrorCode, or httpErrorCode(status). */
  code: string;
  /** A sentence a person can read. */
  userMessage: string;
  /** The fields a 400 names. */
  issues?: Issue[] | undefined;
  /** The answer's status line text, '' when there was none. */
  statusText?: string | undefined;
};

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly userMessage: string;
  readonly issues: Issue[];
  readonly statusText: string;

  constructor(init: ApiErrorInit) {
    super(init.userMessage);
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code;
    this.userMessage = init.userMessage;
    this.issues = init.issues ?? [];
    this.statusText = init.statusText ?? '';
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

/**
 * The header a web server's proxy sets on its own 503 when it could not connect to the service at all
 * (refused, unresolvable, unreachable). The request never reached the service, so a client may send it
 * again, even a POST; a 503 without this header came from the service and is not resent blindly.
 */
export const UNREACHABLE_HEADER = 'x-upstream-unreachable';
