// Rotates the tool's LTI signing keys and exits: every registration's (or, with `--platform <id>`, one
// registration's) new key signs from now on, the old one stays in /lti/jwks for LTI_KEY_GRACE_SECONDS. Run it like
// src/migrate.ts, with the service's environment (ARCHITECTURE.md "LTI").
import { parseArgs } from 'node:util';
import { loadConfig } from './config.ts';
import { openExamDatabase } from './db/database.ts';
import { systemClock } from './deps.ts';
import { createToolKeys } from './modules/lti/tool-keys.ts';

const { values } = parseArgs({ options: { platform: { type: 'string' } } });
const config = loadConfig(process.env);
const database = await openExamDatabase({ databaseUrl: config.DATABASE_URL, pgliteDir: config.pgliteDir });
try {
  const keys = createToolKeys(database, {
    encryptionKey: config.encryptionKey,
    clock: systemClock,
    graceSeconds: config.LTI_KEY_GRACE_SECONDS,
  });
  const rotated = values.platform
    ? [{ platformId: values.platform, ...(await keys.rotate(values.platform)) }]
    : await keys.rotateAll();
  for (const { platformId, kid, retired } of rotated)
    console.log(
      `Platform ${platformId}: new LTI signing key ${kid}; retired ${retired.length ? retired.join(', ') : 'none'}`,
    );
  if (rotated.length === 0) console.log('No LTI platform is registered: no key to rotate');
} finally {
  await database.close();
}
