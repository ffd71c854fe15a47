import { defineConfig } from 'vitest/config';

/**
 * The test files that reach no database module (no src/db/, @exam/server-kit/testing or db, drizzle-orm,
 * postgres.js or PGlite in their import closure): the PostgreSQL pass (`test:pg`, vitest.database.config.ts)
 * leaves them out, as nothing in them can differ there. A new file is in that pass unless listed here, and
 * scripts/test-database-files.test.ts fails when a listed file reaches a database module.
 */
export const DATABASE_FREE = [
  'src/adapters/providers/base-url-guard.test.ts',
  'src/adapters/providers/openai.test.ts',
  'src/adapters/providers/sse-parser.test.ts',
  'src/adapters/providers/structured-output.test.ts',
  'src/modules/agent-endpoint/guarded-relay.test.ts',
  'src/modules/audit/audit-report.test.ts',
  'src/modules/audit/battery.test.ts',
  'src/modules/audit/leak-detection.test.ts',
  'src/modules/audit/run-attempt.test.ts',
  'src/modules/chat/answer-guard-disguises.test.ts',
  'src/modules/chat/answer-guard.test.ts',
  'src/modules/chat/attachments.test.ts',
  'src/modules/chat/stream-reply.test.ts',
  'src/modules/chat/structured-guard.test.ts',
  'src/modules/follow-up/follow-up-prompt.test.ts',
  'src/modules/grading/grading-prompt.test.ts',
  'src/modules/solvability/judge.test.ts',
  'src/modules/solvability/run-code.test.ts',
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
