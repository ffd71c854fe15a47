import { defineConfig } from 'vitest/config';

// Suites that set process.env.TZ change the time zone of the whole process: they run in forks, one process each.
// Everything else runs in worker threads, which start faster and share one process (creator-web's unit tests
// took about a third longer in forks on the 2-core CI machine).
const TIME_ZONE_SUITES = [
  'src/features/accommodations/components/accommodations-page.test.tsx',
  'src/features/exams/components/exam-form/availability-card.test.tsx',
];

const shared = {
  environment: 'jsdom' as const,
  setupFiles: ['./src/testing/setup.ts'],
  css: false,
  testTimeout: 30_000,
};

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          ...shared,
          name: 'threads',
          include: ['src/**/*.test.{ts,tsx}'],
          exclude: TIME_ZONE_SUITES,
          pool: 'threads' as const,
        },
      },
      { test: { ...shared, name: 'time-zones', include: TIME_ZONE_SUITES, pool: 'forks' as const } },
    ],
  },
});
