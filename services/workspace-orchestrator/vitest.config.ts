import { defineConfig } from 'vitest/config';

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
