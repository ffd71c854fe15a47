import { AppError, ErrorCode, type Issue } from '@exam/domain/errors';

/** A 429 whose route sends `retryAfterSeconds` as Retry-After (RFC 9110 §10.2.3). */
export class RetryLaterError extends AppError {
  readonly retryAfterSeconds: number;
  constructor(retryAfterMs: number, message: (seconds: number) => string, issues?: Issue[]) {
    const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
    super(ErrorCode.RATE_LIMITED, message(seconds), issues);
    this.retryAfterSeconds = seconds;
  }
}
