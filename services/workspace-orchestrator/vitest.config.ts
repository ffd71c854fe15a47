import { defineConfig } from 'vitest/config';

/**
 * The test files that reach no database module (no src/db/, @exam/server-kit/testing or db, drizzle-orm,
 * postgres.js or PGlite in their import closure): the PostgreSQL pass (`test:pg`, vitest.database.config.ts)
 * leaves them out, as nothing in them can differ there. A new file is in that pass unless listed here, and
 * scripts/test-database-files.test.ts fails when a listed file reaches a database module.
 */
export const DATABASE_FREE = [
  'src/adapters/exam-directory.test.ts',
  'src/engine/collect-files.test.ts',
  'src/engine/egress/agent-relay.test.ts',
  'src/engine/egress/registry-proxy.test.ts',
  'src/engine/kubernetes-archives.test.ts',
  'src/modules/runner/runner-kubernetes-engine.test.ts',
  'src/modules/runner/runner-verdicts.test.ts',
  'src/modules/sessions/file-patches.test.ts',
];

// One process for all files so they share one database instance (see @exam/server-kit/testing).
// The global setup starts a private Docker engine (scripts/docker-test-engine.ts) and fails the run
// loudly when it cannot, unless WORKSPACE_TESTS=skip says otherwise.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    globalSetup: ['./vitest.global-setup.ts'],
    pool: 'forks',
    poolOptions: { forks: { singleFork: true } },
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
