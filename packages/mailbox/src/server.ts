// The development mailbox on its own: `node packages/mailbox/src/server.ts`. scripts/start.ts starts it
// the same way when SMTP_URL is not set. Settings: MAILBOX_PORT (the page), MAILBOX_SMTP_PORT, DATA_DIR.
import { join } from 'node:path';
import { startMailbox } from './mailbox.ts';

const env = process.env;
const mailbox = await startMailbox({
  dir: join(env.DATA_DIR ?? '.data', 'mailbox'),
  host: env.MAILBOX_HOST ?? '127.0.0.1',
  smtpPort: Number(env.MAILBOX_SMTP_PORT ?? 2525),
  httpPort: Number(env.MAILBOX_PORT ?? 4025),
});
console.log(`Mailbox ready: SMTP on port ${mailbox.smtpPort}, page on http://localhost:${mailbox.httpPort}`);
const stop = () => void mailbox.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
