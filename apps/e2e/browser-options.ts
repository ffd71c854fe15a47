import type { PlaywrightTestConfig } from '@playwright/test';
import { E2E } from './tests/support/env.ts';

/** What every run of the journeys shares, whichever stack it starts: system Chromium, headless, one worker. */
export const journeyDefaults = {
  testDir: './tests',
  fullyParallel: false,
  workers: 1,
  // One retry, reported as 'flaky' in the output, never silently: on a shared machine Chromium cancels
  // in-flight localhost requests with net::ERR_NETWORK_CHANGED whenever a host interface changes (each
  // workspace container adds a veth), and a parallel `vite build` empties the dist/ the stack serves.
  retries: 1,
  // Generous: other jobs share this 2-core machine; the assertions themselves stay strict.
  timeout: 180_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  use: {
    baseURL: E2E.creatorOrigin,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
} satisfies PlaywrightTestConfig;
