import { monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * Runs `work` and, from its start until it settles, a cheap `ping` request every `everyMs`. Each ping's latency is measured
 * from when it was due, so a blocked event loop shows whether it delays the ping's start or its answer; the
 * loop's own delay is sampled too (perf_hooks' histogram, 10 ms resolution).
 */
export async function whileRunning<T>(work: () => Promise<T>, ping: () => Promise<unknown>, everyMs = 20) {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const started = performance.now();
  let done = false;
  const running = work().finally(() => {
    done = true;
  });
  const latencies: number[] = [];
  const pings: Promise<void>[] = [];
  for (let i = 0; !done; i++) {
    const due = started + i * everyMs;
    await new Promise((resume) => setTimeout(resume, Math.max(0, due - performance.now())));
    if (done) break;
    pings.push(ping().then(() => void latencies.push(performance.now() - due)));
  }
  const result = await running;
  const elapsedMs = performance.now() - started;
  await Promise.all(pings);
  histogram.disable();
  return { result, elapsedMs, latencies, maxLoopDelayMs: histogram.max / 1e6 };
}
