import { AuthMessages, type Credentials, type User } from '@exam/domain/auth';
import { AppError, ErrorCode } from '@exam/domain/errors';
import type { Deps } from '../../deps.ts';
import type { AccountAttempts, AuthRepository } from './auth.repository.ts';
import { hashPassword, verifyPassword } from './password.ts';

export type AuthServiceOptions = {
  scryptCost: number;
  /** Failures per client address in the window before that address is refused. */
  maxFailures: number;
  windowSeconds: number;
  /** Attempts on one account (from any address) before each further one must wait. */
  accountFreeFailures: number;
  /** The first wait; it doubles with every further attempt, up to accountMaxDelaySeconds. */
  accountBaseDelaySeconds: number;
  accountMaxDelaySeconds: number;
};

/**
 * The one answer to a failed sign-in, for an unknown email and a wrong password alike, so the form
 * cannot be used to learn which emails have an account.
 */
export const INVALID_CREDENTIALS_MESSAGE = 'Invalid email or password.';

/** 429 RATE_LIMITED; the route sends retryAfterSeconds as Retry-After. */
export class LoginThrottledError extends AppError {
  readonly retryAfterSeconds: number;
  constructor(retryAfterMs: number) {
    super(ErrorCode.RATE_LIMITED, AuthMessages.throttled);
    this.retryAfterSeconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  }
}

export function createAuthService(repo: AuthRepository, deps: Pick<Deps, 'clock' | 'ids'>, opts: AuthServiceOptions) {
  const windowMs = opts.windowSeconds * 1000;
  // Compared against for an unknown email, so both failures cost one scrypt and take as long.
  let dummyHash: Promise<string> | undefined;
  const unknownUserHash = () => (dummyHash ??= hashPassword('no-such-user-password', opts.scryptCost));

  /** How long the account must still wait before its next attempt (0: it may try now). */
  const accountWaitMs = (row: AccountAttempts, now: Date): number => {
    const over = row.attempts - opts.accountFreeFailures;
    if (over < 0) return 0;
    const delayMs = Math.min(opts.accountBaseDelaySeconds * 2 ** over, opts.accountMaxDelaySeconds) * 1000;
    return row.lastAttemptAt.getTime() + delayMs - now.getTime();
  };

  return {
    async register(credentials: Credentials): Promise<User> {
      if (await repo.findByEmail(credentials.email)) throw new AppError(ErrorCode.CONFLICT, AuthMessages.userExists);
      const passwordHash = await hashPassword(credentials.password, opts.scryptCost);
      const user = await repo.insert({ id: deps.ids.next(), email: credentials.email, passwordHash });
      if (!user) throw new AppError(ErrorCode.CONFLICT, AuthMessages.userExists);
      return user;
    },

    /**
     * Throttled two ways. Per client address: past maxFailures in the window every attempt is refused
     * until the window ends. Per account: every attempt is counted when it starts (a success deletes
     * the count); past accountFreeFailures each attempt must wait a doubling delay after the previous
     * one, so a guesser rotating addresses is slowed while the owner is only delayed, never locked out.
     * The account's count restarts after a whole window without attempts.
     */
    async login(credentials: Credentials, address: string): Promise<User> {
      const now = deps.clock.now();
      const windowStart = new Date(now.getTime() - windowMs);
      const byAddress = await repo.failuresInWindow(address, windowStart);
      if (byAddress.failures >= opts.maxFailures) {
        const endsAt = (byAddress.windowStartedAt?.getTime() ?? now.getTime()) + windowMs;
        throw new LoginThrottledError(endsAt - now.getTime());
      }

      const email = credentials.email;
      const seen = await repo.accountAttempts(email);
      // A count whose last attempt is a whole window old no longer slows the account.
      const live = seen && seen.lastAttemptAt >= windowStart ? seen : undefined;
      const waitMs = live ? accountWaitMs(live, now) : 0;
      if (waitMs > 0) throw new LoginThrottledError(waitMs);
      const claimed = await repo.claimAccountAttempt(email, seen, now, !live);
      // Another attempt on this account was counted between our read and our claim (another replica).
      if (!claimed) throw new LoginThrottledError(opts.accountBaseDelaySeconds * 1000);

      const found = await repo.findByEmail(email);
      const matches = await verifyPassword(credentials.password, found?.passwordHash ?? (await unknownUserHash()));
      if (!found || !matches) {
        await repo.recordFailure(address, now, windowStart);
        throw new AppError(ErrorCode.UNAUTHENTICATED, INVALID_CREDENTIALS_MESSAGE);
      }
      await repo.clearFailures(address);
      await repo.clearAccountAttempts(email);
      const { passwordHash: _hash, ...user } = found;
      return user;
    },
  };
}
export type AuthService = ReturnType<typeof createAuthService>;
