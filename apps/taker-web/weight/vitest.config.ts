import { defineConfig } from 'vitest/config';

// The page-weight checks read the production build (dist/), so they run after `vite build`, apart from the unit tests.
export default defineConfig({
  test: { environment: 'node', include: ['weight/**/*.test.ts'], root: `${import.meta.dirname}/..` },
});
