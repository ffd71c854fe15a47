import { defineConfig } from 'vitest/config';

// Component tests render into jsdom; jest-dom adds the DOM matchers.
export default defineConfig({
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/testing-setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
  },
});
