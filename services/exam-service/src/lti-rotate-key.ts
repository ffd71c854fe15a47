// Rotates the tool's LTI signing key and exits: a new key signs from now on, the old one stays in /lti/jwks for
// LTI_KEY_GRACE_SECONDS. Run it like src/migrate.ts, with the service's environment (ARCHITECTURE.md "LTI").
import { loadConfig } from './config.ts';
import { openExamDatabase } from './db/database.ts';
import { systemClock } from './deps.ts';
import { createToolKeys } from './modules/lti/tool-keys.ts';

const config = loadConfig(process.env);
const database = await openExamDatabase({ databaseUrl: config.DATABASE_URL, pgliteDir: config.pgliteDir });
try {
  const keys = createToolKeys(database, {
    encryptionKey: config.encryptionKey,
    clock: systemClock,
    graceSeconds: config.LTI_KEY_GRACE_SECONDS,
  });
  const { kid, retired } = await keys.rotate();
  console.log(`New LTI signing key ${kid}; retired ${retired.length ? retired.join(', ') : 'none'}`);
} finally {
  await database.close();
}
