import { configDefaults, defineConfig } from 'vitest/config';

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
