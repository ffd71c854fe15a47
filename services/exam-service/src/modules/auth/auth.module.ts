import type { AppModule } from '../../module-context.ts';
import { createAuthRepository, type AuthRepository } from './auth.repository.ts';
import { authRoutes } from './auth.routes.ts';
import { createAuthService, type AuthService } from './auth.service.ts';
import { createPasswordResetRepository } from './password-reset.repository.ts';
import { createPasswordResetService } from './password-reset.service.ts';
import { createPasswordStrength } from './password-strength.ts';
import { createSessionsRepository } from './sessions.repository.ts';
import { creatorSignIn } from './creator-sign-in.ts';
import { createSsoRepository } from './sso.repository.ts';
import { ssoRoutes } from './sso.routes.ts';
import { createSsoService } from './sso.service.ts';
import { ssoRedirectUri } from '../organizations/organizations.module.ts';

declare module '../../module-context.ts' {
  interface Provided {
    /** Creator accounts and sessions: app.ts's session guard, preview and LTI sign-in ask it. */
    authService: AuthService;
    authRepository: AuthRepository;
  }
}

/** Creator sign-up, sign-in (password and the organization's single sign-on), sessions and password reset. */
export const authModule: AppModule = async (app, { config, deps, mailQueue, provide, use }) => {
  const authRepository = createAuthRepository(deps.database);
  const organizationsRepository = use('organizationsRepository');
  const passwordSignInAllowed = (userId: string) => organizationsRepository.passwordSignInAllowed(userId);
  const sessionsRepository = createSessionsRepository(deps.database);
  const strength = createPasswordStrength({ timeoutMs: config.PASSWORD_STRENGTH_TIMEOUT_MS });
  const authService = createAuthService(
    authRepository,
    sessionsRepository,
    {
      ...deps,
      strength,
      organizations: {
        createAccount: use('createAccount'),
        passwordSignInAllowed,
        invitedOrganization: (email) => organizationsRepository.invitedOrganization(email),
      },
    },
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
    { clock: deps.clock, mail: mailQueue, strength, passwordSignInAllowed },
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

  const sso = createSsoService(
    createSsoRepository(deps.database),
    authRepository,
    { service: use('organizations'), repo: organizationsRepository, createAccount: use('createAccount') },
    use('oidcClient'),
    deps,
    { redirectUri: ssoRedirectUri(config.CREATOR_ORIGIN), creatorOrigin: config.CREATOR_ORIGIN },
  );
  await app.register(async (scope) => {
    const signIn = creatorSignIn(scope, authService, { tokenTtl: config.CREATOR_TOKEN_TTL });
    await scope.register(
      ssoRoutes(sso, signIn, { secureCookies: new URL(config.CREATOR_ORIGIN).protocol === 'https:' }),
    );
  });
};
