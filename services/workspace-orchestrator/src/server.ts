import './instrumentation.ts';
import { createRemoteCreatorSessions } from '@exam/server-kit/creator-sessions';
import { exitOnStartupError, runServer, shutdownOptions } from '@exam/server-kit/run';
import { createHttpExamDirectory } from './adapters/exam-directory.ts';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { openWorkspaceDatabase } from './db/database.ts';
import { runnerEngineFor, sessionIds, systemClock, workspaceEngines } from './deps.ts';
import { runnerJobOptions, startRunnerJobs } from './jobs/runner-jobs.ts';
import { startWorkspaceJobs, workspaceJobOptions } from './jobs/workspace-jobs.ts';
import { createAgentRelay } from './engine/egress/agent-relay.ts';
import { createRegistryProxy } from './engine/egress/registry-proxy.ts';
import { registerRunnerMetrics } from './plugins/service-metrics.ts';

try {
  const config = loadConfig(process.env);
  const database = await openWorkspaceDatabase({
    databaseUrl: config.DATABASE_URL,
    pgliteDir: config.pgliteDir,
    poolSize: config.DATABASE_POOL_SIZE,
    migrate: config.MIGRATE_ON_START,
  });
  const egressProxy = createRegistryProxy({ allowed: config.EGRESS_ALLOWED_HOSTS });
  const agentRelay = createAgentRelay({ gatewayUrl: config.LLM_GATEWAY_URL });
  const engines = await workspaceEngines(config, egressProxy, agentRelay);
  const directory = createHttpExamDirectory({
    examServiceUrl: config.EXAM_SERVICE_URL,
    resultsServiceUrl: config.RESULTS_SERVICE_URL,
    internalToken: config.internalToken,
  });
  const creatorSessions = createRemoteCreatorSessions(config.EXAM_SERVICE_URL, config.internalToken);
  const app = await buildApp(config, {
    database,
    clock: systemClock,
    ids: sessionIds,
    engines,
    directory,
    egressProxy,
    agentRelay,
    creatorSessions,
    runnerEngine: await runnerEngineFor(config),
  });
  app.addHook('onClose', () => creatorSessions.close());
  const jobs = await startWorkspaceJobs(
    { ...app.workspaces, clock: systemClock, directory, log: app.log },
    workspaceJobOptions(config),
  );
  app.addHook('onClose', () => jobs.stop());
  const runnerJobs = startRunnerJobs({ ...app.runner, clock: systemClock, log: app.log }, runnerJobOptions(config));
  app.addHook('onClose', () => runnerJobs.stop());
  registerRunnerMetrics(app, () => runnerJobs.worker.activeCount());
  app.addHook('onClose', () => database.close());
  await app.editors.listen({ host: config.HOST, port: config.WORKSPACE_PORT });
  await runServer(app, { host: config.HOST, port: config.PORT, ...shutdownOptions(config) });
} catch (err) {
  exitOnStartupError(err);
}
