import { createBaseApp } from '@exam/server-kit/base-app';
import type { Config } from './config.ts';
import type { Deps } from './deps.ts';
import { createAuthRepository } from './modules/auth/auth.repository.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { createAuthService } from './modules/auth/auth.service.ts';

export async function buildApp(config: Config, deps: Deps) {
  const app = await createBaseApp({
    service: 'exam-service',
    logLevel: config.LOG_LEVEL,
    jwtSecret: config.jwtSecret,
    internalToken: config.internalToken,
    checks: { database: () => deps.database.ping() },
  });

  const authService = createAuthService(createAuthRepository(deps.database), deps, {
    scryptCost: config.SCRYPT_COST,
    maxFailures: config.LOGIN_MAX_FAILURES,
    windowSeconds: config.LOGIN_WINDOW_SECONDS,
  });
  await app.register(authRoutes(authService, { tokenTtl: config.CREATOR_TOKEN_TTL }));

  return app;
}
