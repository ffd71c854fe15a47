import { defineConfig } from 'vitest/config';

// `pnpm test:redis`: the suites that need a real Redis at TEST_REDIS_URL; they fail, never skip, without it.
export default defineConfig({
  test: { include: ['src/**/*.redis-suite.ts'] },
});
