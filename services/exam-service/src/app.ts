import { schemaCheck } from '@exam/server-kit/db';
import { createBaseApp } from '@exam/server-kit/base-app';
import { createMailer } from '@exam/server-kit/mail';
import { join } from 'node:path';
import { createIsolatedRunner } from '@exam/server-kit/isolated-worker';
import { createMailQueue, type MailQueue } from './adapters/mail/mail-queue.service.ts';
import type { Config } from './config.ts';
import type { Deps } from './deps.ts';
import { createProvided, type ModuleContext } from './module-context.ts';
import { adminModule } from './modules/admin/admin.module.ts';
import { auditModule } from './modules/audit/audit.module.ts';
import { authModule } from './modules/auth/auth.module.ts';
import { bankModule } from './modules/bank/bank.module.ts';
import { examsModule } from './modules/exams/exams.module.ts';
import { interchangeModule } from './modules/interchange/interchange.module.ts';
import { internalModule } from './modules/internal/internal.module.ts';
import { ltiModule } from './modules/lti/lti.module.ts';
import { organizationsModule } from './modules/organizations/organizations.module.ts';
import { materialsModule } from './modules/materials/materials.module.ts';
import { privacyModule } from './modules/privacy/privacy.module.ts';
import { previewModule } from './modules/preview/preview.module.ts';
import { publicModule } from './modules/public/public.module.ts';
import { rosterModule } from './modules/roster/roster.module.ts';
import { sharingModule } from './modules/sharing/sharing.module.ts';
import { registerServiceMetrics } from './plugins/service-metrics.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The outgoing mail queue; server.ts runs its sender (jobs/mail-sender.ts), tests call sendDue directly. */
    mailQueue: MailQueue;
  }
}

/** The feature modules, lowest first (eslint.config.js moduleOrder): each registers its own routes. */
const modules = [
  organizationsModule,
  authModule,
  materialsModule,
  examsModule,
  sharingModule,
  auditModule,
  bankModule,
  interchangeModule,
  publicModule,
  previewModule,
  rosterModule,
  ltiModule,
  internalModule,
  adminModule,
  privacyModule,
];

export async function buildApp(config: Config, deps: Deps) {
  const provided = createProvided();
  const app = await createBaseApp({
    service: 'exam-service',
    logLevel: config.LOG_LEVEL,
    trustedProxies: config.TRUSTED_PROXIES,
    metrics: { token: config.METRICS_TOKEN, cacheMs: config.METRICS_CACHE_MS },
    apiDocs: config.API_DOCS,
    jwtSecret: config.jwtSecret,
    internalToken: config.internalToken,
    // This service owns the sessions: its guards read the table directly (auth module, at request time).
    creatorSessions: (claims) =>
      provided.use('authService').isSessionOpen({ userId: claims.sub, sessionId: claims.sid }),
    checks: { database: () => deps.database.ping(), migrations: schemaCheck(deps.database) },
  });
  registerServiceMetrics(app, deps.database);

  // Shared by several modules.
  const mailer =
    deps.mailer ??
    createMailer({
      smtpUrl: config.SMTP_URL,
      from: config.MAIL_FROM,
      outboxDir: join(config.DATA_DIR, 'outbox'),
      log: app.log,
    });
  const mailQueue = createMailQueue(deps.database, { ...deps, mailer }, app.log, {
    maxAttempts: config.MAIL_MAX_ATTEMPTS,
    baseDelayMs: config.MAIL_RETRY_BASE_SECONDS * 1000,
    maxDelayMs: config.MAIL_RETRY_MAX_SECONDS * 1000,
  });
  app.decorate('mailQueue', mailQueue);
  // Uploaded files are parsed in worker threads with heap and time limits (ARCHITECTURE.md "Reading uploaded files").
  const isolated = createIsolatedRunner({
    timeoutMs: config.PARSE_TIMEOUT_SECONDS * 1000,
    maxHeapMb: config.PARSE_MAX_HEAP_MB,
    concurrency: config.PARSE_CONCURRENCY,
  });

  const ctx: ModuleContext = { config, deps, mailQueue, isolated, ...provided };
  for (const module of modules) await module(app, ctx);

  // After the modules' own close hooks (auth drains its password-reset mails into the queue first).
  app.addHook('onClose', async () => {
    mailer.close();
    await isolated.close();
  });
  return app;
}
