import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import {
  engineDir,
  releaseTestEngine,
  startTestEngine,
  type TestEngine,
} from '../../../../scripts/docker-test-engine.ts';
import { E2E_INSTANCE } from './env.ts';

/**
 * The coding-workspace journey runs on the private Docker engine of scripts/docker-test-engine.ts.
 * Playwright starts the stack (webServer) before the global setup, so the orchestrator is pointed at
 * the engine's fixed socket path and reaches it once the setup has started it.
 */
const INSTANCE = E2E_INSTANCE;
const socketPath = () => join(engineDir(), 'docker.sock');

/** Environment the stack's workspace-orchestrator gets: the engine, the small test image for 'vscode', no warm pool. */
export const WORKSPACE_STACK_ENV = {
  DOCKER_SOCKET: socketPath(),
  WORKSPACE_INSTANCE: INSTANCE,
  WORKSPACE_IMAGE_OVERRIDES: 'vscode=test',
  // No containers start in the background: each adds a network interface, which makes Chromium cancel
  // in-flight requests of whichever journey is running (net::ERR_NETWORK_CHANGED).
  WARM_POOL_SIZE: '0',
} as const;

/** Set by the global setup when no engine could be started; the workspace journey fails with it. */
export const ENGINE_ERROR_VARIABLE = 'E2E_WORKSPACE_ENGINE_ERROR';

function removeRunContainers() {
  const env = { ...process.env, DOCKER_HOST: `unix://${socketPath()}` };
  const list = (args: string[]) => spawnSync('docker', args, { env, encoding: 'utf8' }).stdout?.trim() ?? '';
  const containers = list(['ps', '-aq', '--filter', `label=exam.orchestrator=${INSTANCE}`]);
  if (containers) spawnSync('docker', ['rm', '-fv', ...containers.split('\n')], { env });
  const volumes = list(['volume', 'ls', '-q', '--filter', `label=exam.orchestrator=${INSTANCE}`]);
  if (volumes) spawnSync('docker', ['volume', 'rm', '-f', ...volumes.split('\n')], { env });
}

/**
 * Global setup: starts (or reuses) the engine and builds the test image. A failure does not stop the
 * other journeys; it is recorded, and the workspace journey fails loudly with it (never skips).
 */
export default async function startWorkspaceEngine(): Promise<(() => Promise<void>) | undefined> {
  let engine: TestEngine;
  try {
    engine = await startTestEngine();
  } catch (err) {
    process.env[ENGINE_ERROR_VARIABLE] = (err as Error).message;
    return undefined;
  }
  return async () => {
    removeRunContainers();
    await releaseTestEngine(engine);
  };
}
