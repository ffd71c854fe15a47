import './instrumentation.ts';
import { createHttpCodeRunner } from '@exam/server-kit/code-runner-client';
import { createRemoteCreatorSessions } from '@exam/server-kit/creator-sessions';
import { exitOnStartupError, runServer, shutdownOptions } from '@exam/server-kit/run';
import { platformSources } from './adapters/platform-clients.ts';
import { providersFromConfig } from './adapters/providers/providers.ts';
import { httpWorkspaceSnapshots } from './adapters/workspace-snapshots.ts';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { openGatewayDatabase } from './db/database.ts';
import { systemClock, uuidIds } from './deps.ts';

try {
  const config = loadConfig(process.env);
  const database = await openGatewayDatabase({
    databaseUrl: config.DATABASE_URL,
    pgliteDir: config.pgliteDir,
    poolSize: config.DATABASE_POOL_SIZE,
    migrate: config.MIGRATE_ON_START,
  });
  const { llm, baseUrlGuard, relay } = providersFromConfig(config);
  const workspaceSnapshots = httpWorkspaceSnapshots(config.WORKSPACE_ORCHESTRATOR_URL, config.internalToken, {
    timeoutMs: config.INTERNAL_TIMEOUT_MS,
  });
  const creatorSessions = createRemoteCreatorSessions(config.EXAM_SERVICE_URL, config.internalToken, {
    timeoutMs: config.INTERNAL_TIMEOUT_MS,
  });
  const codeRunner = createHttpCodeRunner(config.WORKSPACE_ORCHESTRATOR_URL, config.internalToken, {
    timeoutMs: config.INTERNAL_TIMEOUT_MS,
  });
  const app = await buildApp(config, {
    database,
    clock: systemClock,
    ids: uuidIds,
    ...platformSources({
      examServiceUrl: config.EXAM_SERVICE_URL,
      resultsServiceUrl: config.RESULTS_SERVICE_URL,
      internalToken: config.internalToken,
      timeoutMs: config.INTERNAL_TIMEOUT_MS,
      messageMaxAgeMs: config.EXAM_MESSAGE_MAX_AGE_MS,
    }),
    llm,
    relay,
    workspaceSnapshots,
    codeRunner,
    baseUrlGuard,
    creatorSessions,
  });
  app.addHook('onClose', () => codeRunner.close());
  app.addHook('onClose', () => workspaceSnapshots.close());
  app.addHook('onClose', () => creatorSessions.close());
  app.addHook('onClose', () => database.close());
  await runServer(app, {
    host: config.HOST,
    port: config.PORT,
    ...shutdownOptions(config),
    // Node's default backlog of 511 overflowed under a burst of new streams while the event loop was busy,
    // and the kernel reset the connections it had to drop (bench/README.md). The kernel caps the backlog
    // at net.core.somaxconn.
    backlog: 4096,
    // Replies stream for up to UPSTREAM_TIMEOUT_MS: no server timeout may cut a stream, and a burst of new
    // connections must not be dropped while the event loop is busy. (Node's requestTimeout only covers
    // receiving the request; the reply is bounded by the upstream timeouts.)
    timeouts: { headersTimeoutMs: 120_000, keepAliveTimeoutMs: 75_000, maxRequestsPerSocket: 0 },
  });
} catch (err) {
  exitOnStartupError(err);
}
