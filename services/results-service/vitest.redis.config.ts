import { defineConfig } from 'vitest/config';

// `pnpm test:redis`: the suites of the state replicas share through Redis (start limits, presence) run again
// with REDIS_URL's stores against the real server at TEST_REDIS_URL; without it they fail rather than skip.
// One process, as in vitest.config.ts, so the files share one database instance.
export default defineConfig({
  test: {
    include: ['src/modules/attempts/start-limits.test.ts', 'src/modules/live/*.test.ts', 'src/**/*.redis.test.ts'],
    env: { TEST_SHARED_STATE: 'redis' },
    pool: 'forks',
    poolOptions: { forks: { singleFork: true } },
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
