import { resolve } from 'node:path';
import { defineConfig } from '@playwright/test';
import { journeyDefaults } from './browser-options.ts';
import { E2E } from './tests/support/env.ts';

/**
 * The candidate and assistant journeys against the scaled platform (scripts/scale/stack.ts): a fresh
 * PostgreSQL database, two replicas of every service behind haproxy's round-robin frontends, and the two web
 * servers pointed at those frontends, so each page and each service-to-service call may land on either replica.
 * Needs TEST_DATABASE_URL (the local PostgreSQL server) and haproxy on the PATH.
 */
export default defineConfig({
  ...journeyDefaults,
  testMatch: ['candidate.spec.ts', 'assistant.spec.ts'],
  webServer: {
    command: `node ${resolve(import.meta.dirname, '../../scripts/scale/stack.ts')}`,
    wait: { stdout: /Scaled platform is running/ },
    timeout: 300_000,
    // stack.ts stops every replica, haproxy and the web servers, and drops its database, on SIGTERM.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 30_000 },
    reuseExistingServer: false,
    stdout: 'pipe',
    stderr: 'pipe',
    env: {
      CREATOR_WEB_PORT: E2E.stackEnv.CREATOR_WEB_PORT,
      TAKER_WEB_PORT: E2E.stackEnv.TAKER_WEB_PORT,
      // The assistant journey's fake provider (tests/support/fake-openai.ts) and the key it expects.
      OPENAI_BASE_URL: E2E.stackEnv.OPENAI_BASE_URL,
      OPENAI_API_KEY: E2E.stackEnv.OPENAI_API_KEY,
      SCALE_BASE_PORT: String(Number(process.env.SCALE_BASE_PORT ?? 7350)),
    },
  },
});
