import { defineConfig } from 'vitest/config';

// The second half of `pnpm test:pg`: suites that run real processes against a PostgreSQL server of their own
// (src/**/*.pg-suite.ts), e.g. killing results-service and PostgreSQL with SIGKILL. One file at a time.
export default defineConfig({
  test: {
    include: ['src/**/*.pg-suite.ts'],
    pool: 'forks',
    poolOptions: { forks: { singleFork: true } },
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
