// What the runner benchmarks share: the private Docker engine with the runner images, a real orchestrator
// process (`node src/server.ts`, as production starts it) on a throw-away PostgreSQL database, and its
// internal API. See bench/README.md ("Code runner").
import { spawn, spawnSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { TEST_SECRETS } from '../packages/server-kit/src/testing.ts';
import { startTestEngine } from '../scripts/docker-test-engine.ts';
import { dockerClient } from '../services/workspace-orchestrator/src/engine/docker-client.ts';
import { RUNNER_LABEL } from '../services/workspace-orchestrator/src/engine/runner-engine.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const internal = { 'x-internal-token': TEST_SECRETS.INTERNAL_TOKEN, 'content-type': 'application/json' };

export type Report = { runId: string; state: string; verdicts: Array<{ outcome: string }> };

/** The engine, with the runner images of `languages` built (scripts/build-runner-images.sh; cached). */
export async function engineWithImages(languages: string[]) {
  const engine = await startTestEngine();
  const built = spawnSync('sh', [resolve(ROOT, 'scripts/build-runner-images.sh'), ...languages], {
    env: { ...process.env, DOCKER_HOST: `unix://${engine.socketPath}` },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (built.status !== 0) throw new Error('building the runner images failed');
  return engine;
}

/** A real orchestrator on its own database and instance label; `stop` ends it and drops the database. */
export async function startOrchestrator(opts: { socketPath: string; concurrency: number; port: number }) {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';
  const name = `bench_runner_${Date.now()}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  const dbUrl = new URL(adminUrl);
  dbUrl.pathname = `/${name}`;
  const instance = `bench-runner-${process.pid}`;
  const child = spawn(process.execPath, ['src/server.ts'], {
    cwd: resolve(ROOT, 'services/workspace-orchestrator'),
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...process.env,
      ...TEST_SECRETS,
      LOG_LEVEL: 'warn',
      PORT: String(opts.port),
      WORKSPACE_PORT: String(opts.port + 1),
      DATABASE_URL: dbUrl.toString(),
      DOCKER_SOCKET: opts.socketPath,
      WORKSPACE_INSTANCE: instance,
      WARM_POOL_SIZE: '0',
      WORKSPACE_BACKGROUND: 'false',
      // The egress proxy's default port may be a running orchestrator's.
      EGRESS_PROXY_PORT: String(opts.port + 2),
      RUNNER_CONCURRENCY: String(opts.concurrency),
    },
  });
  const base = `http://127.0.0.1:${opts.port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the orchestrator exited with ${child.exitCode}`);
    if (
      await fetch(`${base}/ready`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (Date.now() > deadline) throw new Error('the orchestrator did not become ready');
    await new Promise((r) => setTimeout(r, 100));
  }
  const docker = dockerClient(opts.socketPath);
  return {
    base,
    /** Runner containers of this orchestrator that exist right now. */
    async containers() {
      const list = await docker.listContainers({
        all: true,
        filters: { label: [`${RUNNER_LABEL}=true`, `exam.orchestrator=${instance}`] },
      });
      return list.length;
    },
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      await admin.unsafe(`drop database "${name}" with (force)`);
      await admin.end();
    },
  };
}

export async function enqueue(base: string, body: object): Promise<Report> {
  const response = await fetch(`${base}/internal/runs`, {
    method: 'POST',
    headers: internal,
    body: JSON.stringify(body),
  });
  if (response.status !== 202)
    throw new Error(`POST /internal/runs answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as Report;
}

/** The run's report once it is no longer queued or running. */
export async function finished(base: string, runId: string): Promise<Report> {
  for (;;) {
    const response = await fetch(`${base}/internal/runs/${runId}?waitMs=25000`, { headers: internal });
    const report = (await response.json()) as Report;
    if (report.state !== 'queued' && report.state !== 'running') return report;
  }
}

export const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.max(0, Math.ceil((p / 100) * xs.length) - 1)]!;

/** Samples `read` every 25 ms until `stop`, which resolves to the largest value seen (e.g. runner containers). */
export function maxSampler(read: () => Promise<number>) {
  let max = 0;
  let sampling = true;
  const loop = (async () => {
    while (sampling) {
      max = Math.max(max, await read());
      await new Promise((r) => setTimeout(r, 25));
    }
  })();
  return {
    async stop(): Promise<number> {
      sampling = false;
      await loop;
      return max;
    },
  };
}
