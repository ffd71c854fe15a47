import { createHash, randomBytes } from 'node:crypto';
import { AuthMessages, type PasswordResetConfirm } from '@exam/domain/auth';
import { AppError, ErrorCode } from '@exam/domain/errors';
import { OrganizationMessages } from '@exam/domain/organizations';
import type { Deps } from '../../deps.ts';
import type { MailQueue } from '../../adapters/mail/mail-queue.service.ts';
import type { AuthRepository } from './auth.repository.ts';
import { hashPassword } from './password.ts';
import { assertPasswordAllowed } from './password-policy.ts';
import type { PasswordStrength } from './password-strength.ts';
import type { PasswordResetRepository } from './password-reset.repository.ts';
import type { SessionsRepository } from './sessions.repository.ts';

export type PasswordResetOptions = {
  scryptCost: number;
  /** How long a reset link works. */
  ttlMinutes: number;
  /** Mails sent to one account per window; further requests are answered alike but send nothing. */
  maxPerAccount: number;
  /** Requests per client address per window; further ones are refused with 429. */
  maxPerAddress: number;
  windowSeconds: number;
  /** The creator app's origin: the link in the mail points there. */
  creatorOrigin: string;
};

/** 429 RATE_LIMITED; the route sends retryAfterSeconds as Retry-After. */
export class ResetThrottledError extends AppError {
  readonly retryAfterSeconds: number;
  constructor(retryAfterMs: number) {
    super(ErrorCode.RATE_LIMITED, AuthMessages.resetThrottled);
    this.retryAfterSeconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  }
}

/** Only this digest of a reset token is stored: a copy of the table does not give working links. */
const digest = (token: string) => createHash('sha256').update(token).digest('hex');

/** The link the creator app's reset page reads; the token travels in the fragment, never to a server log. */
export const resetLink = (origin: string, token: string) =>
  `${origin.replace(/\/$/, '')}/reset-password#token=${token}`;

export function createPasswordResetService(
  repo: PasswordResetRepository,
  users: AuthRepository,
  sessions: SessionsRepository,
  deps: Pick<Deps, 'clock'> & {
    mail: Pick<MailQueue, 'enqueue'>;
    strength: PasswordStrength;
    /** False when the account's organization signs in only through its identity provider. */
    passwordSignInAllowed(userId: string): Promise<boolean>;
  },
  log: { error(obj: object, msg: string): void },
  opts: PasswordResetOptions,
) {
  const windowMs = opts.windowSeconds * 1000;
  // The link is stored and its mail queued after the answer, so its timing does not tell whether the
  // account exists; close waits.
  const pending = new Set<Promise<void>>();

  async function sendLink(userId: string, email: string, now: Date): Promise<void> {
    // 32 random bytes: 256 bits, far beyond guessing within the link's lifetime (OWASP Forgot Password Cheat Sheet).
    const token = randomBytes(32).toString('base64url');
    await repo.insertToken({
      tokenHash: digest(token),
      userId,
      createdAt: now,
      expiresAt: new Date(now.getTime() + opts.ttlMinutes * 60_000),
    });
    const link = resetLink(opts.creatorOrigin, token);
    await deps.mail.enqueue([
      {
        kind: 'password-reset',
        to: email,
        subject: 'Reset your password',
        text: [
          'Someone asked to reset the password of your account on the exam platform.',
          '',
          `To choose a new password, open this link within ${opts.ttlMinutes} minutes:`,
          link,
          '',
          'The link works once. If you did not ask for it, ignore this message: your password stays as it is.',
        ].join('\n'),
      },
    ]);
  }

  /** For an account whose organization turned passwords off: no link (it would not let them in), where to go instead. */
  async function sendSsoNotice(email: string): Promise<void> {
    await deps.mail.enqueue([
      {
        kind: 'password-reset',
        to: email,
        subject: 'Signing in to the exam platform',
        text: [
          'Someone asked to reset the password of your account on the exam platform.',
          '',
          'Your organization signs in through its identity provider, so no password is used: on the sign-in page,',
          `choose "Sign in with your organization (SSO)": ${opts.creatorOrigin.replace(/\/$/, '')}/creator/auth`,
          '',
          'If you did not ask for this, ignore this message.',
        ].join('\n'),
      },
    ]);
  }

  return {
    /**
     * Always the same answer for an address with or without an account. Per client address, past
     * maxPerAddress the request is refused (429); per account, past maxPerAccount nothing more is sent,
     * so nobody can flood a creator's mailbox, and the answer still does not tell the account exists.
     */
    async request(email: string, address: string): Promise<void> {
      const now = deps.clock.now();
      const windowStart = new Date(now.getTime() - windowMs);
      const byAddress = await repo.countRequest(`address:${address}`, now, windowStart);
      if (byAddress.requests > opts.maxPerAddress) {
        throw new ResetThrottledError(byAddress.windowStartedAt.getTime() + windowMs - now.getTime());
      }
      const byAccount = await repo.countRequest(`account:${email}`, now, windowStart);
      if (byAccount.requests > opts.maxPerAccount) return;
      const user = await users.findByEmail(email);
      if (!user) return;
      const notify = async () =>
        (await deps.passwordSignInAllowed(user.id)) ? sendLink(user.id, user.email, now) : sendSsoNotice(user.email);
      const task = notify()
        .catch((err: unknown) => log.error({ err }, 'the password-reset mail could not be queued'))
        .finally(() => pending.delete(task));
      pending.add(task);
    },

    /** Sets the new password from a valid link, once; every session of the account ends. */
    async confirm(body: PasswordResetConfirm): Promise<void> {
      const now = deps.clock.now();
      const tokenHash = digest(body.token);
      const invalid = () =>
        new AppError(ErrorCode.VALIDATION, AuthMessages.resetInvalid, [
          { path: 'token', message: AuthMessages.resetInvalid },
        ]);
      const email = await repo.findUsableOwnerEmail(tokenHash, now);
      if (!email) throw invalid();
      const tokenOwner = await users.findByEmail(email);
      // A link sent before the organization turned passwords off no longer sets one.
      if (tokenOwner && !(await deps.passwordSignInAllowed(tokenOwner.id)))
        throw new AppError(ErrorCode.VALIDATION, OrganizationMessages.passwordSignInOff, [
          { path: 'token', message: OrganizationMessages.passwordSignInOff },
        ]);
      await assertPasswordAllowed(deps.strength, body.password, email, 'password');
      const passwordHash = await hashPassword(body.password, opts.scryptCost);
      const owner = await repo.consumeToken(tokenHash, now);
      if (!owner) throw invalid();
      await users.setPasswordHash(owner.userId, passwordHash);
      await repo.deleteTokensOf(owner.userId);
      await sessions.revokeAll(owner.userId, now);
      // The owner proved control of the mailbox: a guesser's backoff on the account no longer applies.
      await users.clearAccountAttempts(owner.email);
      await users.clearAccountFailures(owner.email);
    },

    /** Waits for links still being stored and queued (the app's close). */
    async drain(): Promise<void> {
      await Promise.all(pending);
    },
  };
}
export type PasswordResetService = ReturnType<typeof createPasswordResetService>;
