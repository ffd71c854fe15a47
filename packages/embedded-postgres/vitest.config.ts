import { defineConfig } from 'vitest/config';

// Creating a PGlite database (its initdb) takes seconds, more on a busy machine.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
