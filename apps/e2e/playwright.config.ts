import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { defineConfig } from '@playwright/test';
import { journeyDefaults } from './browser-options.ts';
import { E2E } from './tests/support/env.ts';
import { WORKSPACE_STACK_ENV } from './tests/support/workspace-engine.ts';

// The whole stack is started the way a user starts it (scripts/start.ts, i.e. `pnpm start`), on ports
// of its own and a fresh data directory, so a running dev instance is never touched.
// The runner creates it; its workers load this file again and inherit the path through the environment.
const ownDataDir = !process.env.E2E_DATA_DIR;
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'exam-e2e-'));
if (ownDataDir) {
  process.env.E2E_DATA_DIR = dataDir;
  // The runner exits after the stack is stopped; a directory passed in by the caller is left alone.
  process.on('exit', () => rmSync(dataDir, { recursive: true, force: true }));
}

export default defineConfig({
  ...journeyDefaults,
  // Starts the private Docker engine the coding-workspace journey runs on (and stops it afterwards).
  globalSetup: './tests/support/workspace-engine.ts',
  webServer: {
    command: `node ${resolve(import.meta.dirname, '../../scripts/start.ts')}`,
    // start.ts prints this once every service and both web servers answer. Not a `url`: Playwright
    // takes whichever comes first, and the web servers are up well before the services have migrated.
    wait: { stdout: /Exam platform is running/ },
    timeout: 300_000,
    // start.ts runs each child in its own process group; SIGTERM lets it stop them all, a SIGKILL would orphan them.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 20_000 },
    reuseExistingServer: false,
    stdout: 'pipe',
    stderr: 'pipe',
    env: {
      ...E2E.stackEnv,
      ...WORKSPACE_STACK_ENV,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
    },
  },
});
