// Starts and stops a real results-service process (node src/server.ts) for one cold measurement.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const SERVICE_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../services/results-service');
/** Nothing listens here: exam-service is not needed once attempts exist, and llm-gateway being down is part of the contract. */
export const CLOSED_PORT_URL = 'http://127.0.0.1:9';
export const INTERNAL_TOKEN = 'bench-insights-internal-token-long-enough-0123456789';

/** Nearest-rank percentile of an ascending list. */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** CPU seconds (user + system) a process has used so far, from /proc; 0 once it has ended. */
export function cpuSecondsOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

async function waitReady(url: string, child: ChildProcess) {
  for (let i = 0; i < 2400; i += 1) {
    if (child.exitCode !== null) throw new Error(`results-service exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/ready`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('results-service did not become ready in 120 s (a loaded machine starts it slowly)');
}

export async function startService(opts: {
  port: number;
  databaseUrl: string;
  jwtSecret: string;
  llmGatewayUrl: string;
  examServiceUrl: string;
}) {
  // BENCH_SERVER_ARGS passes node flags to the service (e.g. --cpu-prof --cpu-prof-dir=/tmp/p).
  const nodeArgs = (process.env.BENCH_SERVER_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, 'src/server.ts'], {
    cwd: SERVICE_DIR,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...process.env,
      PORT: String(opts.port),
      LOG_LEVEL: 'error',
      DATABASE_URL: opts.databaseUrl,
      JWT_SECRET: opts.jwtSecret,
      INTERNAL_TOKEN,
      EXAM_SERVICE_URL: opts.examServiceUrl,
      LLM_GATEWAY_URL: opts.llmGatewayUrl,
      WORKSPACE_ORCHESTRATOR_URL: CLOSED_PORT_URL,
      FINALIZER_INTERVAL_SECONDS: '3600',
      INSIGHTS_SERVER_TIMING: '1',
    },
  });
  const url = `http://127.0.0.1:${opts.port}`;
  try {
    await waitReady(url, child);
  } catch (err) {
    child.kill('SIGTERM');
    throw err;
  }
  return {
    url,
    pid: child.pid!,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
