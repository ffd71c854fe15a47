import { AuthMessages, type Credentials, type User } from '@exam/domain/auth';
import { AppError, ErrorCode } from '@exam/domain/errors';
import type { Deps } from '../../deps.ts';
import type { AuthRepository } from './auth.repository.ts';
import { hashPassword, verifyPassword } from './password.ts';

export type AuthServiceOptions = { scryptCost: number; maxFailures: number; windowSeconds: number };

export function createAuthService(repo: AuthRepository, deps: Pick<Deps, 'clock' | 'ids'>, opts: AuthServiceOptions) {
  const windowStart = () => new Date(deps.clock.now().getTime() - opts.windowSeconds * 1000);

  return {
    async register(credentials: Credentials): Promise<User> {
      if (await repo.findByEmail(credentials.email)) throw new AppError(ErrorCode.CONFLICT, AuthMessages.userExists);
      const passwordHash = await hashPassword(credentials.password, opts.scryptCost);
      const user = await repo.insert({ id: deps.ids.next(), email: credentials.email, passwordHash });
      if (!user) throw new AppError(ErrorCode.CONFLICT, AuthMessages.userExists);
      return user;
    },

    /** Throttled per client address: past maxFailures in the window every attempt is refused. */
    async login(credentials: Credentials, address: string): Promise<User> {
      if ((await repo.failuresInWindow(address, windowStart())) >= opts.maxFailures) {
        throw new AppError(ErrorCode.RATE_LIMITED, AuthMessages.throttled);
      }
      const found = await repo.findByEmail(credentials.email);
      if (!found) {
        await repo.recordFailure(address, deps.clock.now(), windowStart());
        throw new AppError(ErrorCode.NOT_FOUND, AuthMessages.userNotFound);
      }
      if (!(await verifyPassword(credentials.password, found.passwordHash))) {
        await repo.recordFailure(address, deps.clock.now(), windowStart());
        throw new AppError(ErrorCode.UNAUTHENTICATED, AuthMessages.invalidPassword);
      }
      await repo.clearFailures(address);
      const { passwordHash: _hash, ...user } = found;
      return user;
    },
  };
}
export type AuthService = ReturnType<typeof createAuthService>;
