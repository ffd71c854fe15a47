import { describe, expect, it } from 'vitest';
import { afterFailure } from './retry-policy.ts';

const policy = { maxAttempts: 5, baseDelayMs: 30_000, maxDelayMs: 100_000 };
const now = new Date('2030-01-01T00:00:00Z');
const waitAfter = (attempts: number) => {
  const next = afterFailure(attempts, now, policy);
  return next.retry ? next.at.getTime() - now.getTime() : undefined;
};

describe('mail retry policy', () => {
  it('waits the base delay after the first failure and doubles it after each further one', () => {
    expect(waitAfter(1)).toBe(30_000);
    expect(waitAfter(2)).toBe(60_000);
  });

  it('never waits longer than the maximum delay', () => {
    expect(waitAfter(3)).toBe(100_000);
    expect(waitAfter(4)).toBe(100_000);
  });

  it('gives up once the allowed attempts are used', () => {
    expect(afterFailure(5, now, policy)).toEqual({ retry: false });
    expect(afterFailure(9, now, policy)).toEqual({ retry: false });
  });
});
