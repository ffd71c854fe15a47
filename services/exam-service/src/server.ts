import { exitOnStartupError, runServer } from '@exam/server-kit/run';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { openExamDatabase } from './db/database.ts';
import { systemClock, uuidIds } from './deps.ts';
import { startMailSender } from './jobs/mail-sender.ts';

try {
  const config = loadConfig(process.env);
  const database = await openExamDatabase({
    databaseUrl: config.DATABASE_URL,
    pgliteDir: config.pgliteDir,
    poolSize: config.DATABASE_POOL_SIZE,
  });
  const app = await buildApp(config, { database, clock: systemClock, ids: uuidIds });
  const mailSender = startMailSender(() => app.mailQueue.sendDue(), {
    intervalMs: config.MAIL_SEND_INTERVAL_SECONDS * 1000,
    log: app.log,
    onEnqueued: (listener) => app.mailQueue.onEnqueued(listener),
  });
  app.addHook('onClose', () => mailSender.stop());
  app.addHook('onClose', () => database.close());
  await runServer(app, { host: config.HOST, port: config.PORT });
} catch (err) {
  exitOnStartupError(err);
}
