import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// Suites that set process.env.TZ change the time zone of the whole process: they run in forks, one process each.
// Everything else runs in worker threads, which start faster, with the dependencies pre-bundled
// (deps.optimizer.web): each file then loads react, react-router, i18next and the rest as a few bundled modules
// instead of hundreds. 20 of these files took 1,047 s in forks, 391 s in threads and 224 s in threads with the
// bundles, back to back on a loaded box (bench/README.md, "`pnpm test` wall time", round two).
const TIME_ZONE_SUITES = [
  'src/features/start/components/exam-window-notice.test.tsx',
  'src/features/start/components/briefing.test.tsx',
  'src/i18n/server-messages.test.ts',
  'src/i18n/format.test.ts',
];

const shared = {
  environment: 'jsdom' as const,
  setupFiles: ['./src/testing/setup.ts'],
  css: false,
  restoreMocks: true,
  // Route modules and CodeMirror are transformed on first import; a cold run on 2 cores is slow.
  testTimeout: 20_000,
  deps: { optimizer: { web: { enabled: true } } },
};

export default defineConfig({
  plugins: [react()],
  test: {
    projects: [
      {
        extends: true,
        test: {
          ...shared,
          name: 'threads',
          include: ['src/**/*.test.{ts,tsx}'],
          exclude: TIME_ZONE_SUITES,
          pool: 'threads' as const,
        },
      },
      { extends: true, test: { ...shared, name: 'time-zones', include: TIME_ZONE_SUITES, pool: 'forks' as const } },
    ],
  },
});
