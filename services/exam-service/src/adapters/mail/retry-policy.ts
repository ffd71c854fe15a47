/** How the mail queue retries a failed send (docs/product.md#e-mail). */
export type RetryPolicy = {
  /** Sends tried in all, the first included; after the last failure the mail is marked failed. */
  maxAttempts: number;
  /** The wait after the first failure; it doubles after each further one, up to maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
};

/**
 * What to do after the `attempts`-th send failed: try again at a later time (exponential back-off), or give
 * up. A transient SMTP outage is ridden out; a mail that cannot be delivered stops being retried.
 */
export function afterFailure(
  attempts: number,
  now: Date,
  policy: RetryPolicy,
): { retry: true; at: Date } | { retry: false } {
  if (attempts >= policy.maxAttempts) return { retry: false };
  const delay = Math.min(policy.baseDelayMs * 2 ** Math.max(0, attempts - 1), policy.maxDelayMs);
  return { retry: true, at: new Date(now.getTime() + delay) };
}
