import { schemaCheck } from '@exam/server-kit/db';
import { createBaseApp } from '@exam/server-kit/base-app';
import { createServer } from '@exam/server-kit/create-server';
import { errorsPlugin } from '@exam/server-kit/plugins/errors';
import type { Config } from './config.ts';
import { runIds, type Deps } from './deps.ts';
import { createEntryResolver, loadCatalogue } from './engine/catalogue.ts';
import { createAccessChecker } from './modules/proxy/access.ts';
import { createLaunchTokens } from './modules/proxy/launch-tokens.ts';
import { launchRoutes } from './modules/proxy/launch.routes.ts';
import { registerServiceMetrics } from './plugins/service-metrics.ts';
import { proxyRoutes } from './modules/proxy/proxy.routes.ts';
import { createProxyTargets } from './modules/proxy/targets.ts';
import { registerPrivacy } from './modules/privacy/privacy.module.ts';
import { createRunnerRepository } from './modules/runner/runner.repository.ts';
import { runnerRoutes } from './modules/runner/runner.routes.ts';
import { createRunnerService } from './modules/runner/runner.service.ts';
import { createFileHistory } from './modules/sessions/file-history.ts';
import { createFileHistoryRepository } from './modules/sessions/file-history.repository.ts';
import { fileHistoryRoutes } from './modules/sessions/file-history.routes.ts';
import { createSessionsRepository } from './modules/sessions/sessions.repository.ts';
import { sessionsRoutes } from './modules/sessions/sessions.routes.ts';
import { createStartFailures } from './modules/sessions/start-failures.ts';
import { createSessionsService } from './modules/sessions/sessions.service.ts';
import { orchestratorStatus } from './modules/status/platform-status.ts';

export async function buildApp(config: Config, deps: Deps) {
  const app = await createBaseApp({
    service: 'workspace-orchestrator',
    logLevel: config.LOG_LEVEL,
    trustedProxies: config.TRUSTED_PROXIES,
    metrics: { token: config.METRICS_TOKEN, cacheMs: config.METRICS_CACHE_MS },
    apiDocs: config.API_DOCS,
    jwtSecret: config.jwtSecret,
    internalToken: config.internalToken,
    creatorSessions: deps.creatorSessions,
    // The engine is not a readiness check: without one the orchestrator still answers 'Workspace Unavailable'.
    checks: { database: () => deps.database.ping(), migrations: schemaCheck(deps.database) },
    // Called at request time only, once resolveEntry below exists.
    status: () => orchestratorStatus(deps.engines, deps.runnerEngine, resolveEntry),
  });
  registerServiceMetrics(app, deps.database);

  const resolveEntry = createEntryResolver(loadCatalogue(config.WORKSPACE_CATALOGUE), config.WORKSPACE_IMAGE_OVERRIDES);
  const repo = createSessionsRepository(deps.database);
  const historyRepo = createFileHistoryRepository(deps.database);
  const history = createFileHistory(historyRepo, {
    maxBytes: config.WORKSPACE_HISTORY_MAX_BYTES,
    intervalMs: config.WORKSPACE_HISTORY_INTERVAL_SECONDS * 1000,
    log: app.log.child({ module: 'file-history' }),
    directory: deps.directory,
  });
  const service = createSessionsService(repo, deps, resolveEntry, {
    startTimeoutMs: config.START_TIMEOUT_SECONDS * 1000,
    pageCloseGraceMs: config.WORKSPACE_PAGE_CLOSE_GRACE_MS,
    collect: {
      fileMaxBytes: config.WORKSPACE_FILE_MAX_BYTES,
      totalMaxBytes: config.WORKSPACE_TOTAL_MAX_BYTES,
      maxFiles: config.WORKSPACE_MAX_FILES,
    },
    history,
    signAgentToken: (claims, expiresAt) =>
      app.jwt.sign(claims, { expiresIn: `${Math.max(60, Math.ceil((expiresAt.getTime() - Date.now()) / 1000))}s` }),
  });
  const targets = createProxyTargets(repo, deps.clock);
  const launchTokens = createLaunchTokens(deps.database, { ttlSeconds: config.WORKSPACE_LAUNCH_TTL_SECONDS });
  const check = createAccessChecker({
    secret: config.jwtSecret,
    workspaceOrigin: config.workspaceOrigin,
    cookieTtlSeconds: config.WORKSPACE_COOKIE_TTL_SECONDS,
    launchTokens,
  });

  // The egress proxy and the AI relay listen on this host's bridges: only this host's Docker containers reach them,
  // and their logs name the session behind a source address.
  const identify = async (address: string) => {
    const docker = deps.engines.find((engine) => engine.kind === 'docker');
    if (!docker) return undefined;
    const row = await repo.findLiveByAddress(address, await docker.hostId());
    return row ? { sessionId: row.id, attemptId: row.attemptId, examId: row.examId } : undefined;
  };
  deps.egressProxy?.attach({ log: app.log.child({ module: 'egress-proxy' }), identify });
  app.addHook('onClose', async () => deps.egressProxy?.close());
  deps.agentRelay?.attach({ log: app.log.child({ module: 'agent-relay' }), identify });
  app.addHook('onClose', async () => deps.agentRelay?.close());

  await app.register(sessionsRoutes(service, createStartFailures(deps.database, deps.clock), deps.directory));
  await app.register(fileHistoryRoutes(history, service));
  await app.register(
    launchRoutes({ service, launchTokens, workspaceOrigin: config.workspaceOrigin, clock: deps.clock }),
  );

  const runnerRepo = createRunnerRepository(deps.database);
  const runner = createRunnerService(
    runnerRepo,
    { engine: deps.runnerEngine, clock: deps.clock, ids: runIds, log: app.log },
    {
      referenceRunsPerMinute: config.RUNNER_REFERENCE_PER_MINUTE,
      referenceInFlight: config.RUNNER_REFERENCE_IN_FLIGHT,
      pollMs: 100,
    },
  );
  await app.register(runnerRoutes(runner, deps.directory));
  await registerPrivacy(app, deps);

  // The editors are served by a listener of their own (WORKSPACE_PORT, reached as WORKSPACE_ORIGIN): nothing
  // but /workspace/* answers there, and the API above never serves an editor.
  const editors = createServer({ logLevel: config.LOG_LEVEL, trustedProxies: config.TRUSTED_PROXIES });
  await editors.register(errorsPlugin);
  await editors.register(proxyRoutes({ targets, check, resolveEntry, clock: deps.clock }));
  app.addHook('onClose', async () => editors.close());

  app.decorate('workspaces', { repo, historyRepo, history, service, targets, resolveEntry });
  app.decorate('editors', editors);
  app.decorate('runner', { repo: runnerRepo, service: runner, engine: deps.runnerEngine });
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
      historyRepo: ReturnType<typeof createFileHistoryRepository>;
      history: ReturnType<typeof createFileHistory>;
      service: ReturnType<typeof createSessionsService>;
      targets: ReturnType<typeof createProxyTargets>;
      resolveEntry: ReturnType<typeof createEntryResolver>;
    };
    /** The code runner's parts: server.ts starts its worker (jobs/runner-worker.ts) with them. */
    runner: {
      repo: ReturnType<typeof createRunnerRepository>;
      service: ReturnType<typeof createRunnerService>;
      engine: Deps['runnerEngine'];
    };
    /** The editors' own server (WORKSPACE_PORT); server.ts listens on it beside the API. */
    editors: FastifyInstance;
  }
}
