/**
 * Runs `work` and, from before it starts until it settles, a cheap `ping` request every `everyMs`. Each ping's
 * latency counts from when it was due, so a blocked event loop shows whether it delays the ping's start or its
 * answer; `maxStallMs` is the longest a due tick waited, including a tick still waiting when the work settled
 * (a parser that runs synchronously inside the request holds the loop until it is done, before any ping runs).
 */
export async function whileRunning<T>(work: () => Promise<T>, ping: () => Promise<unknown>, everyMs = 20) {
  const started = performance.now();
  const latencies: number[] = [];
  const pings: Promise<void>[] = [];
  let maxStallMs = 0;
  let due = started;
  let done = false;
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    const firedAt = performance.now();
    maxStallMs = Math.max(maxStallMs, firedAt - due);
    if (done) return;
    const pingDue = due;
    pings.push(ping().then(() => void latencies.push(performance.now() - pingDue)));
    due += everyMs;
    timer = setTimeout(tick, Math.max(0, due - performance.now()));
  };
  timer = setTimeout(tick, 0);
  // The work starts after the first tick is scheduled, so a synchronous stall cannot hide before the first sample.
  await new Promise((resume) => setImmediate(resume));
  const result = await work().finally(() => {
    done = true;
    clearTimeout(timer);
    maxStallMs = Math.max(maxStallMs, performance.now() - due);
  });
  const elapsedMs = performance.now() - started;
  await Promise.all(pings);
  return { result, elapsedMs, latencies, maxStallMs };
}
