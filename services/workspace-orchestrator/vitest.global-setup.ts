import { spawnSync } from 'node:child_process';
import type {} from 'vitest';
import type { TestProject } from 'vitest/node';
import { releaseTestEngine, startTestEngine, type TestEngine } from '../../scripts/docker-test-engine.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The test engine's socket; null only when WORKSPACE_TESTS=skip was set explicitly. */
    dockerSocket: string | null;
    /** Label value that marks this run's containers (exam.orchestrator). */
    workspaceInstance: string;
  }
}

const banner = (lines: string[]) =>
  `\n${'!'.repeat(78)}\n${lines.map((l) => `!! ${l}`).join('\n')}\n${'!'.repeat(78)}\n`;

let engine: TestEngine | undefined;
const instance = `test-${process.pid}-${Date.now().toString(36)}`;

export async function setup(project: TestProject) {
  project.provide('workspaceInstance', instance);
  if (process.env.WORKSPACE_TESTS === 'skip') {
    console.warn(
      banner([
        'WORKSPACE_TESTS=skip: the Docker workspace tests are SKIPPED.',
        'Nothing about containers, the proxy, limits or file collection was verified.',
      ]),
    );
    project.provide('dockerSocket', null);
    return;
  }
  // host-firewall.sh (run by startTestEngine) opens the egress proxy's port on exam-ws1; the test apps'
  // proxies take the first free port of 3129–3132 (TEST_EGRESS_PROXY_PORTS in src/testing/app.ts), so the whole range is opened.
  // Likewise the AI relay's 3140 and the test apps' 3141–3144 (TEST_AGENT_RELAY_PORTS), on both bridges.
  const firewallPort = process.env.EGRESS_PROXY_PORT;
  const relayPort = process.env.AGENT_RELAY_PORT;
  process.env.EGRESS_PROXY_PORT = '3128:3132';
  process.env.AGENT_RELAY_PORT = '3140:3144';
  try {
    engine = await startTestEngine();
  } catch (err) {
    throw new Error(
      banner([
        'No Docker engine could be started for the workspace tests:',
        (err as Error).message,
        'Fix the engine, or set WORKSPACE_TESTS=skip to skip these tests explicitly.',
      ]),
    );
  } finally {
    if (firewallPort === undefined) delete process.env.EGRESS_PROXY_PORT;
    else process.env.EGRESS_PROXY_PORT = firewallPort;
    if (relayPort === undefined) delete process.env.AGENT_RELAY_PORT;
    else process.env.AGENT_RELAY_PORT = relayPort;
  }
  project.provide('dockerSocket', engine.socketPath);
}

export async function teardown() {
  if (!engine) return;
  // This run's containers and volumes go, whatever the tests left behind.
  const env = { ...process.env, DOCKER_HOST: `unix://${engine.socketPath}` };
  const ids = spawnSync('docker', ['ps', '-aq', '--filter', `label=exam.orchestrator=${instance}`], {
    env,
    encoding: 'utf8',
  }).stdout.trim();
  if (ids) spawnSync('docker', ['rm', '-fv', ...ids.split('\n')], { env });
  const volumes = spawnSync('docker', ['volume', 'ls', '-q', '--filter', `label=exam.orchestrator=${instance}`], {
    env,
    encoding: 'utf8',
  }).stdout.trim();
  if (volumes) spawnSync('docker', ['volume', 'rm', '-f', ...volumes.split('\n')], { env });
  if (process.env.WORKSPACE_ENGINE_KEEP !== '1') await releaseTestEngine(engine);
}
