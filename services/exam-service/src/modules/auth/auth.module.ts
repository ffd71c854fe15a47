import type { AppModule } from '../../module-context.ts';
import { createAuthRepository, type AuthRepository } from './auth.repository.ts';
import { authRoutes } from './auth.routes.ts';
import { createAuthService, type AuthService } from './auth.service.ts';
import { createPasswordResetRepository } from './password-reset.repository.ts';
import { createPasswordResetService } from './password-reset.service.ts';
import { createPasswordStrength } from './password-strength.ts';
import { createSessionsRepository } from './sessions.repository.ts';

declare module '../../module-context.ts' {
  interface Provided {
    /** Creator accounts and sessions: app.ts's session guard, preview and LTI sign-in ask it. */
    authService: AuthService;
    authRepository: AuthRepository;
  }
}

/** Creator sign-up, sign-in, sessions and password reset. */
export const authModule: AppModule = async (app, { config, deps, mailQueue, provide }) => {
  const authRepository = createAuthRepository(deps.database);
  const sessionsRepository = createSessionsRepository(deps.database);
  const strength = createPasswordStrength({ timeoutMs: config.PASSWORD_STRENGTH_TIMEOUT_MS });
  const authService = createAuthService(
    authRepository,
    sessionsRepository,
    { ...deps, strength },
    {
      scryptCost: config.SCRYPT_COST,
      maxFailures: config.LOGIN_MAX_FAILURES,
      windowSeconds: config.LOGIN_WINDOW_SECONDS,
      accountFreeFailures: config.LOGIN_ACCOUNT_FREE_FAILURES,
      accountBaseDelaySeconds: config.LOGIN_ACCOUNT_BACKOFF_SECONDS,
      accountMaxDelaySeconds: config.LOGIN_ACCOUNT_BACKOFF_MAX_SECONDS,
    },
  );
  provide('authService', authService);
  provide('authRepository', authRepository);

  const passwordReset = createPasswordResetService(
    createPasswordResetRepository(deps.database),
    authRepository,
    sessionsRepository,
    { clock: deps.clock, mail: mailQueue, strength },
    app.log,
    {
      scryptCost: config.SCRYPT_COST,
      ttlMinutes: config.PASSWORD_RESET_TTL_MINUTES,
      maxPerAccount: config.PASSWORD_RESET_MAX_PER_ACCOUNT,
      maxPerAddress: config.PASSWORD_RESET_MAX_PER_ADDRESS,
      windowSeconds: config.PASSWORD_RESET_WINDOW_SECONDS,
      creatorOrigin: config.CREATOR_ORIGIN,
    },
  );
  app.addHook('onClose', async () => {
    await passwordReset.drain();
    await strength.close();
  });
  await app.register(authRoutes(authService, passwordReset, { tokenTtl: config.CREATOR_TOKEN_TTL }));
};
