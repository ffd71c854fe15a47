// An open-loop load generator for the benchmarks: requests start at a fixed arrival rate whatever the
// server is doing, and each latency is measured from the moment its request was *meant* to start, so a
// slow server cannot hide its queue by slowing the client down ("coordinated omission", the reason wrk2
// exists: https://github.com/giltene/wrk2). Closed-loop tools such as autocannon keep at most one request
// in flight per connection and, when rate-limited, fire each connection's per-second quota back to back
// at the top of every second, which measures bursts rather than a steady stream of candidates.
import { Pool } from 'undici';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/**
 * Calls `call(i, intendedAt)` for i = 0 … count-1, the i-th at `started + i / perSecond` (performance.now()
 * time), without waiting for earlier calls. Timers fire at about 1 ms granularity, so every call that is
 * due when the loop wakes starts then; `intendedAt` is still its exact planned time.
 */
export async function openLoop<T>(
  count: number,
  perSecond: number,
  call: (index: number, intendedAt: number) => Promise<T>,
): Promise<T[]> {
  const started = performance.now();
  const due = (i: number) => started + (i * 1000) / perSecond;
  const pending: Promise<T>[] = [];
  let next = 0;
  while (next < count) {
    const now = performance.now();
    while (next < count && due(next) <= now) {
      pending.push(call(next, due(next)));
      next += 1;
    }
    if (next < count) await sleep(due(next) - performance.now());
  }
  return Promise.all(pending);
}

export type Outcome = { status: number; body: string; latencyMs: number; error?: string };
export type PlannedRequest = {
  method: 'GET' | 'PUT' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
};

/**
 * Sends planned requests on a keep-alive pool of `connections` sockets (undici queues a request until a
 * socket is free; that wait counts in its latency). Failures are outcomes, never exceptions.
 */
export function createClient(origin: string, connections: number, timeoutMs = 30_000) {
  const pool = new Pool(origin, {
    connections,
    pipelining: 1,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    keepAliveTimeout: 60_000,
  });
  return {
    async send(request: PlannedRequest, intendedAt: number): Promise<Outcome> {
      try {
        const response = await pool.request(request);
        const body = await response.body.text();
        return { status: response.statusCode, body, latencyMs: performance.now() - intendedAt };
      } catch (err) {
        return { status: 0, body: '', latencyMs: performance.now() - intendedAt, error: (err as Error).message };
      }
    },
    close: () => pool.close(),
  };
}

const percentile = (sorted: Float64Array, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
const round = (ms: number) => Math.round(ms * 10) / 10;

/** Counts and latency percentiles (ms) of a run; `ok` decides which outcomes count as successes. */
export function summarizeOutcomes(outcomes: Outcome[], ok: (outcome: Outcome) => boolean, wallSeconds: number) {
  const latencies = Float64Array.from(outcomes, (o) => o.latencyMs).sort();
  const errors = outcomes.filter((o) => o.error);
  return {
    requests: outcomes.length,
    ok: outcomes.filter(ok).length,
    non2xx: outcomes.filter((o) => !o.error && (o.status < 200 || o.status >= 300)).length,
    errors: errors.length,
    firstError: errors[0]?.error,
    rps: Math.round(outcomes.length / wallSeconds),
    p50: round(percentile(latencies, 50)),
    p90: round(percentile(latencies, 90)),
    p99: round(percentile(latencies, 99)),
    max: round(latencies.at(-1) ?? Number.NaN),
  };
}
