import { createBaseApp } from '@exam/server-kit/base-app';
import type { Config } from './config.ts';
import type { Deps } from './deps.ts';
import { createEntryResolver, loadCatalogue } from './engine/catalogue.ts';
import { createAccessChecker } from './modules/proxy/access.ts';
import { proxyRoutes } from './modules/proxy/proxy.routes.ts';
import { createProxyTargets } from './modules/proxy/targets.ts';
import { createSessionsRepository } from './modules/sessions/sessions.repository.ts';
import { sessionsRoutes } from './modules/sessions/sessions.routes.ts';
import { createSessionsService } from './modules/sessions/sessions.service.ts';

export async function buildApp(config: Config, deps: Deps) {
  const app = await createBaseApp({
    service: 'workspace-orchestrator',
    logLevel: config.LOG_LEVEL,
    trustedProxies: config.TRUSTED_PROXIES,
    jwtSecret: config.jwtSecret,
    internalToken: config.internalToken,
    creatorSessions: deps.creatorSessions,
    // The engine is not a readiness check: without one the orchestrator still answers 'Workspace Unavailable'.
    checks: { database: () => deps.database.ping() },
  });

  const resolveEntry = createEntryResolver(loadCatalogue(config.WORKSPACE_CATALOGUE), config.WORKSPACE_IMAGE_OVERRIDES);
  const repo = createSessionsRepository(deps.database);
  const service = createSessionsService(repo, deps, resolveEntry, {
    startTimeoutMs: config.START_TIMEOUT_SECONDS * 1000,
    pageCloseGraceMs: config.WORKSPACE_PAGE_CLOSE_GRACE_MS,
    collect: {
      fileMaxBytes: config.WORKSPACE_FILE_MAX_BYTES,
      totalMaxBytes: config.WORKSPACE_TOTAL_MAX_BYTES,
      maxFiles: config.WORKSPACE_MAX_FILES,
    },
  });
  const targets = createProxyTargets(repo, deps.clock);
  const check = createAccessChecker({
    verifyToken: (token) => app.jwt.verify(token),
    secret: config.jwtSecret,
    allowedOrigins: config.allowedOrigins,
    cookieTtlSeconds: config.WORKSPACE_COOKIE_TTL_SECONDS,
  });

  deps.egressProxy?.attach({
    log: app.log.child({ module: 'egress-proxy' }),
    identify: async (address) => {
      const row = await repo.findLiveByAddress(address);
      return row ? { sessionId: row.id, attemptId: row.attemptId, examId: row.examId } : undefined;
    },
  });
  app.addHook('onClose', async () => deps.egressProxy?.close());

  await app.register(sessionsRoutes(service));
  await app.register(proxyRoutes({ targets, check, resolveEntry, clock: deps.clock }));

  app.decorate('workspaces', { repo, service, targets, resolveEntry });
  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The orchestrator's parts: server.ts hands them to the background jobs (jobs/workspace-jobs.ts),
     * tests and the benchmark drive the same jobs by hand.
     */
    workspaces: {
      repo: ReturnType<typeof createSessionsRepository>;
      service: ReturnType<typeof createSessionsService>;
      targets: ReturnType<typeof createProxyTargets>;
      resolveEntry: ReturnType<typeof createEntryResolver>;
    };
  }
}
