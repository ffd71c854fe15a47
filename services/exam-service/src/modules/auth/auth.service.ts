import { AuthMessages, type Credentials, type PasswordChange, type User } from '@exam/domain/auth';
import { AppError, ErrorCode } from '@exam/domain/errors';
import { OrganizationMessages } from '@exam/domain/organizations';
import type { Deps } from '../../deps.ts';
import type { AccountAttempts, AuthRepository } from './auth.repository.ts';
import { hashPassword, verifyPassword } from './password.ts';
import { assertPasswordAllowed } from './password-policy.ts';
import type { PasswordStrength } from './password-strength.ts';
import type { SessionsRepository } from './sessions.repository.ts';
import type { CreateAccount } from '../organizations/create-account.ts';

export type AuthServiceOptions = {
  scryptCost: number;
  /** Failures per client address in the window before that address is refused on the accounts it failed on. */
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

/** What sign-up and sign-in ask of the organizations module (below auth in the module order). */
export type AccountOrganizations = {
  createAccount: CreateAccount;
  passwordSignInAllowed(userId: string): Promise<boolean>;
  /** A pending invitation's organization, which a sign-up would join. */
  invitedOrganization(email: string): Promise<{ passwordSignIn: boolean } | undefined>;
};

/** What a creator token identifies: its user and its sign-in session. */
export type SessionRef = { userId: string; sessionId: string };

/** Signs a creator token for a session id; answers the token and when it expires. */
export type SignSessionToken = (sessionId: string) => { token: string; expiresAt: Date };

export function createAuthService(
  repo: AuthRepository,
  sessions: SessionsRepository,
  deps: Pick<Deps, 'clock' | 'ids'> & { strength: PasswordStrength; organizations: AccountOrganizations },
  opts: AuthServiceOptions,
) {
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

  const service = {
    async register(credentials: Credentials): Promise<User> {
      if (await repo.findByEmail(credentials.email)) throw new AppError(ErrorCode.CONFLICT, AuthMessages.userExists);
      await assertPasswordAllowed(deps.strength, credentials.password, credentials.email, 'password');
      // Invited into an organization that signs in only through its provider: a password would never let them in.
      if ((await deps.organizations.invitedOrganization(credentials.email))?.passwordSignIn === false)
        throw new AppError(ErrorCode.VALIDATION, OrganizationMessages.passwordSignInOff);
      const passwordHash = await hashPassword(credentials.password, opts.scryptCost);
      const user = await deps.organizations.createAccount({ email: credentials.email, passwordHash });
      if (!user) throw new AppError(ErrorCode.CONFLICT, AuthMessages.userExists);
      return user;
    },

    /**
     * Throttled two ways, and neither ever refuses a correct password for an account nobody failed on from that
     * address (OWASP Authentication Cheat Sheet, "Login Throttling" / "Account Lockout": a lockout keyed on the
     * address alone denies everyone behind a shared campus or office NAT, and any one of them can trigger it).
     *
     * Per account: every attempt is counted when it starts (a success deletes the count); past
     * accountFreeFailures each attempt must wait a doubling delay after the previous one, so a guesser rotating
     * addresses is slowed while the owner is only delayed, never locked out. The count restarts after a whole
     * window without attempts.
     *
     * Per address: past maxFailures in the window the address is refused, until its window ends, on every account
     * it has failed on in that window, before the password is looked at. Accounts it has not failed on are still
     * checked, so a colleague behind the same address signs in with a correct password; a guesser there gets at
     * most one more guess per account per window (on top of the account's own backoff), which against the
     * strength policy (password-policy.ts) leaves spraying common passwords nothing to find. A success from the
     * address forgets only that account's failures, never the address's count (else a guesser with an account of
     * their own could reset the limit).
     */
    async login(credentials: Credentials, address: string): Promise<User> {
      const now = deps.clock.now();
      const windowStart = new Date(now.getTime() - windowMs);
      const email = credentials.email;
      const byAddress = await repo.failuresInWindow(address, windowStart);
      if (byAddress.failures >= opts.maxFailures) {
        const onAccount = await repo.pairFailuresInWindow(address, email, windowStart);
        if (onAccount.failures > 0) {
          // Refused until either window ends: the address's (its count restarts) or the one on this account.
          const endsAt =
            Math.min(
              byAddress.windowStartedAt?.getTime() ?? now.getTime(),
              onAccount.windowStartedAt?.getTime() ?? now.getTime(),
            ) + windowMs;
          throw new LoginThrottledError(endsAt - now.getTime());
        }
      }

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
        await repo.recordFailure(address, email, now, windowStart);
        throw new AppError(ErrorCode.UNAUTHENTICATED, INVALID_CREDENTIALS_MESSAGE);
      }
      await repo.clearPairFailures(address, email);
      await repo.clearAccountAttempts(email);
      // Told only to whoever knows the password, so the refusal reveals nothing about which e-mails have accounts.
      if (!(await deps.organizations.passwordSignInAllowed(found.id)))
        throw new AppError(ErrorCode.FORBIDDEN, OrganizationMessages.passwordSignInOff);
      const { passwordHash: _hash, ...user } = found;
      return user;
    },

    /** Opens a sign-in session and answers the token that names it; the session ends when the token does. */
    async openSession(userId: string, sign: SignSessionToken): Promise<string> {
      const now = deps.clock.now();
      const id = deps.ids.next();
      const { token, expiresAt } = sign(id);
      await sessions.pruneEnded(userId, now);
      await sessions.insert({ id, userId, createdAt: now, expiresAt });
      return token;
    },

    /** Whether the token's session is still open: the check every creator guard of this service makes. */
    async isSessionOpen(ref: SessionRef): Promise<boolean> {
      return (await sessions.findOpenOwner(ref.sessionId, deps.clock.now())) === ref.userId;
    },

    /** The owner of an open session (the internal check other services make), or undefined. */
    findSessionOwner(sessionId: string): Promise<string | undefined> {
      return sessions.findOpenOwner(sessionId, deps.clock.now());
    },

    async signOut(ref: SessionRef): Promise<void> {
      await sessions.revoke(ref.sessionId, ref.userId, deps.clock.now());
    },

    async signOutEverywhere(userId: string): Promise<void> {
      await sessions.revokeAll(userId, deps.clock.now());
    },

    /**
     * Needs the current password; the new one follows the policy. Every other session of the creator
     * ends (a thief's included), the one that asked stays signed in.
     */
    async changePassword(ref: SessionRef, change: PasswordChange, address: string): Promise<void> {
      const found = await repo.findById(ref.userId);
      if (!found) throw new AppError(ErrorCode.UNAUTHENTICATED, AuthMessages.sessionEnded);
      // Checked as a sign-in is, with its throttles, so a stolen session cannot be used to guess the password.
      try {
        await service.login({ email: found.email, password: change.currentPassword }, address);
      } catch (err) {
        if (err instanceof AppError && err.code === ErrorCode.UNAUTHENTICATED) {
          throw new AppError(ErrorCode.VALIDATION, AuthMessages.wrongCurrentPassword, [
            { path: 'currentPassword', message: AuthMessages.wrongCurrentPassword },
          ]);
        }
        throw err;
      }
      await assertPasswordAllowed(deps.strength, change.newPassword, found.email, 'newPassword');
      await repo.setPasswordHash(ref.userId, await hashPassword(change.newPassword, opts.scryptCost));
      await sessions.revokeAll(ref.userId, deps.clock.now(), ref.sessionId);
    },
  };
  return service;
}
export type AuthService = ReturnType<typeof createAuthService>;
