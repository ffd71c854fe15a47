import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { defineConfig } from '@playwright/test';
import { journeyDefaults } from './browser-options.ts';
import { E2E, FAKE_OPENAI_PORT } from './tests/support/env.ts';
import { WORKSPACE_STACK_ENV } from './tests/support/workspace-engine.ts';

/**
 * The journeys that need the real workspace images (code-server with the coding agents, the spreadsheet, the SQL
 * workbench, R), which take 10–20 minutes to build (scripts/build-workspace-images.sh) and so are not part of
 * `pnpm test`: `pnpm --filter @exam/e2e e2e:real-image` after `pnpm build` and the image build. The stack is
 * started as `pnpm start` starts it, on the private Docker engine, with the catalogue's own images (no test-image
 * override) and the production limits code-server needs.
 */
const ownDataDir = !process.env.E2E_DATA_DIR;
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'exam-e2e-real-'));
if (ownDataDir) {
  process.env.E2E_DATA_DIR = dataDir;
  process.on('exit', () => rmSync(dataDir, { recursive: true, force: true }));
}

export default defineConfig({
  ...journeyDefaults,
  testDir: './real-image',
  // A real editor takes seconds to start and to render on a shared 2-core machine.
  timeout: 300_000,
  globalSetup: './tests/support/workspace-engine.ts',
  webServer: {
    command: `node ${resolve(import.meta.dirname, '../../scripts/start.ts')}`,
    wait: { stdout: /Exam platform is running/ },
    timeout: 300_000,
    gracefulShutdown: { signal: 'SIGTERM', timeout: 20_000 },
    reuseExistingServer: false,
    stdout: 'pipe',
    stderr: 'pipe',
    env: {
      ...E2E.stackEnv,
      ...WORKSPACE_STACK_ENV,
      WORKSPACE_IMAGE_OVERRIDES: '',
      WORKSPACE_MEMORY_MB: '1536',
      WORKSPACE_CPUS: '1',
      WORKSPACE_PIDS_LIMIT: '1024',
      START_TIMEOUT_SECONDS: '90',
      // The agent journey's fake provider (tests/support/fake-responses.ts) answers Anthropic's Messages API too.
      ANTHROPIC_BASE_URL: `http://127.0.0.1:${FAKE_OPENAI_PORT}`,
      ANTHROPIC_API_KEY: 'sk-ant-e2e-server-default-key',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
    },
  },
});
