import { defineConfig } from 'vitest/config';

/**
 * The test files that reach no database module (no src/db/, @exam/server-kit/testing or db, drizzle-orm,
 * postgres.js or PGlite in their import closure): the PostgreSQL pass (`test:pg`, vitest.database.config.ts)
 * leaves them out, as nothing in them can differ there. A new file is in that pass unless listed here, and
 * scripts/test-database-files.test.ts fails when a listed file reaches a database module.
 */
export const DATABASE_FREE = [
  'src/adapters/mail/retry-policy.test.ts',
  'src/jobs/mail-sender.test.ts',
  'src/modules/lti/platform-keys.test.ts',
  'src/modules/roster/roster-csv.test.ts',
  'src/modules/roster/roster-mails.test.ts',
];

// One process for all files so they share one database instance (see @exam/server-kit/testing).
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    pool: 'forks',
    poolOptions: { forks: { singleFork: true } },
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
