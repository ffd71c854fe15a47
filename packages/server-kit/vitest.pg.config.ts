import { defineConfig } from 'vitest/config';

// `pnpm test:pg` (scripts/run-if-pg.ts sets TEST_DB_URL): the suites that need a real PostgreSQL server.
export default defineConfig({
  test: { include: ['src/**/*.pg-suite.ts', 'src/tracing.test.ts'] },
});
