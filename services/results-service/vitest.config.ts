import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The test files that reach no database module (no src/db/, @exam/server-kit/testing or db, drizzle-orm,
 * postgres.js or PGlite in their import closure): the PostgreSQL pass (`test:pg`, vitest.database.config.ts)
 * leaves them out, as nothing in them can differ there. A new file is in that pass unless listed here, and
 * scripts/test-database-files.test.ts fails when a listed file reaches a database module.
 */
export const DATABASE_FREE = [
  'src/adapters/lti-scores.test.ts',
  'src/jobs/finalizer.test.ts',
  'src/modules/attempts/client-bucket.test.ts',
  'src/modules/collaboration/collaboration-cohort.test.ts',
  'src/modules/collaboration/collaboration-view.test.ts',
  'src/modules/insights/similarity.service.test.ts',
  'src/modules/results/results-csv.test.ts',
  'src/scoring/score.test.ts',
  'src/scoring/snapshot.test.ts',
];

// One process for all files so they share one database instance (see @exam/server-kit/testing).
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // *.redis.test.ts need a Redis server: `pnpm test:redis` (vitest.redis.config.ts) runs them.
    exclude: [...configDefaults.exclude, 'src/**/*.redis.test.ts'],
    pool: 'forks',
    poolOptions: { forks: { singleFork: true } },
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
