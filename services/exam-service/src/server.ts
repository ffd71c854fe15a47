import './instrumentation.ts';
import { exitOnStartupError, runServer, shutdownOptions } from '@exam/server-kit/run';
import { createHttpAttemptDeadlines } from './adapters/attempt-deadlines.ts';
import { createHttpPrivacyServices } from './adapters/privacy-services.ts';
import { createHttpSubmissions } from './adapters/submissions.ts';
import { createHttpResultsAudit } from './adapters/results-audit.ts';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { openExamDatabase } from './db/database.ts';
import { systemClock, uuidIds } from './deps.ts';
import { startMailSender } from './jobs/mail-sender.ts';
import { startPrivacyJob } from './jobs/privacy.ts';
import { startPruning } from './jobs/prune.ts';
import { startReminders } from './jobs/reminders.ts';
import { createPruneRepository } from './jobs/prune.repository.ts';
import { createLaunchRepository } from './modules/lti/launch.repository.ts';

try {
  const config = loadConfig(process.env);
  const database = await openExamDatabase({
    databaseUrl: config.DATABASE_URL,
    pgliteDir: config.pgliteDir,
    poolSize: config.DATABASE_POOL_SIZE,
    migrate: config.MIGRATE_ON_START,
  });
  const privacyServices = createHttpPrivacyServices(
    {
      'results-service': config.RESULTS_SERVICE_URL,
      'llm-gateway': config.LLM_GATEWAY_URL,
      'workspace-orchestrator': config.WORKSPACE_ORCHESTRATOR_URL,
    },
    config.internalToken,
  );
  const app = await buildApp(config, {
    database,
    clock: systemClock,
    ids: uuidIds,
    submissions: createHttpSubmissions(config.RESULTS_SERVICE_URL, config.internalToken),
    attemptDeadlines: createHttpAttemptDeadlines(config.RESULTS_SERVICE_URL, config.internalToken),
    resultsAudit: createHttpResultsAudit(config.RESULTS_SERVICE_URL, config.internalToken),
    privacyServices,
  });
  const mailSender = startMailSender(() => app.mailQueue.sendDue(), {
    intervalMs: config.MAIL_SEND_INTERVAL_SECONDS * 1000,
    log: app.log,
    onEnqueued: (listener) => app.mailQueue.onEnqueued(listener),
  });
  app.addHook('onClose', () => mailSender.stop());
  const reminders = startReminders(() => app.sendReminders(), {
    intervalMs: config.REMINDER_INTERVAL_SECONDS * 1000,
    log: app.log,
  });
  app.addHook('onClose', () => reminders.stop());
  const pruning = startPruning(createPruneRepository(database), {
    intervalMs: config.PRUNE_INTERVAL_SECONDS * 1000,
    retentionDays: config.RETENTION_DAYS,
    clock: systemClock,
    log: app.log,
    pruneLtiExpired: createLaunchRepository(database).pruneExpired,
  });
  app.addHook('onClose', () => pruning.stop());
  const privacyJob = startPrivacyJob(() => app.runPrivacyJob(), {
    intervalMs: config.PRIVACY_JOB_INTERVAL_SECONDS * 1000,
    log: app.log,
  });
  app.addHook('onClose', async () => {
    await privacyJob.stop();
    privacyServices.close();
  });
  app.addHook('onClose', () => database.close());
  await runServer(app, { host: config.HOST, port: config.PORT, ...shutdownOptions(config) });
} catch (err) {
  exitOnStartupError(err);
}
