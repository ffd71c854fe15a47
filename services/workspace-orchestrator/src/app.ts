import { createBaseApp } from '@exam/server-kit/base-app';
import type { Config } from './config.ts';
import type { Deps } from './deps.ts';
import { createEntryResolver, loadCatalogue } from './engine/catalogue.ts';
import { createLifecycle } from './modules/lifecycle/lifecycle.ts';
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
    jwtSecret: config.jwtSecret,
    internalToken: config.internalToken,
    // The engine is not a readiness check: without one the orchestrator still answers 'Workspace Unavailable'.
    checks: { database: () => deps.database.ping() },
  });

  const resolveEntry = createEntryResolver(loadCatalogue(config.WORKSPACE_CATALOGUE), config.WORKSPACE_IMAGE_OVERRIDES);
  const repo = createSessionsRepository(deps.database);
  const startTimeoutMs = config.START_TIMEOUT_SECONDS * 1000;
  const service = createSessionsService(repo, deps, resolveEntry, {
    startTimeoutMs,
    pageCloseGraceMs: config.WORKSPACE_PAGE_CLOSE_GRACE_MS,
    volumes: {
      collect: {
        fileMaxBytes: config.WORKSPACE_FILE_MAX_BYTES,
        totalMaxBytes: config.WORKSPACE_TOTAL_MAX_BYTES,
        maxFiles: config.WORKSPACE_MAX_FILES,
      },
      graceMs: config.WORKSPACE_VOLUME_GRACE_SECONDS * 1000,
    },
  });
  const lifecycle = createLifecycle(repo, service, resolveEntry, deps.clock, app.log, {
    warmPoolSize: config.WARM_POOL_SIZE,
    warmPoolTypes: config.WARM_POOL_TYPES,
    idleTimeoutMs: config.IDLE_TIMEOUT_SECONDS * 1000,
    startTimeoutMs,
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

  // A claimed warm container is replaced in the background, after the burst of claims.
  service.setOnWarmClaimed(() => lifecycle.refillSoon(config.WARM_POOL_REFILL_DELAY_MS));
  app.addHook('onClose', () => lifecycle.stop());
  app.decorate('workspaces', { lifecycle, service, targets });

  app.addHook('onReady', async () => {
    const adopted = await lifecycle.adopt().catch((err: unknown) => {
      app.log.warn({ err }, 're-adoption failed');
      return undefined;
    });
    if (adopted) app.log.info(adopted, 'workspace containers re-adopted');
    if (!config.WORKSPACE_BACKGROUND) return;
    const tick = (every: number, work: () => Promise<unknown>, name: string) => {
      const timer = setInterval(
        () => void work().catch((err: unknown) => app.log.warn({ err }, `${name} failed`)),
        every,
      );
      timer.unref();
      app.addHook('onClose', async () => clearInterval(timer));
    };
    tick(config.WARM_POOL_INTERVAL_SECONDS * 1000, () => lifecycle.refill(), 'warm pool refill');
    tick(config.REAPER_INTERVAL_SECONDS * 1000, () => lifecycle.reap(), 'reaper');
    void lifecycle.refill().catch(() => undefined);
  });

  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The orchestrator's parts, for tests and the benchmark to drive the pool and the reaper by hand. */
    workspaces: {
      lifecycle: ReturnType<typeof createLifecycle>;
      service: ReturnType<typeof createSessionsService>;
      targets: ReturnType<typeof createProxyTargets>;
    };
  }
}
