// Candidates' chat latency while a grading batch runs: new chats through the real llm-gateway at a fixed rate,
// alone and while `--workers` grading-suggestion calls of `--samples` samples each run back to back (results-service's
// batch at its default concurrency, each answer's samples at once), in alternating phases of the same run. The
// verdict is the chats' time-to-first-token p99 during the batch over that p99 alone (goal ≤ 1.10); the gateway's
// added p99 (over the same chat asked of the fake directly, interleaved) is printed beside it. Needs PostgreSQL.
// Usage: node bench/llm-gateway/grading.ts [--rate 30] [--seconds 10] [--rounds 2] [--workers 4] [--samples 3]
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { openLoop } from '../lib/open-loop.ts';
import { BENCH_EXAM_ID } from './fakes.ts';
import { cpuOf, loadNow, percentile, sleep, startStack, summary, type Result, type Summary } from './harness.ts';

const { values: args } = parseArgs({
  options: {
    rate: { type: 'string', default: '30' },
    seconds: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '2' },
    workers: { type: 'string', default: '4' },
    samples: { type: 'string', default: '3' },
    tokens: { type: 'string', default: '20' },
    port: { type: 'string', default: '14313' },
  },
});
const RATE = Number(args.rate);
const SECONDS = Number(args.seconds);
const ROUNDS = Number(args.rounds);
const WORKERS = Number(args.workers);
const SAMPLES = Number(args.samples);
const TOKENS = Number(args.tokens);
const loadAtStart = loadNow();

/** One answer's request as results-service sends it: the question with its rubric and a paragraph of answer. */
const gradingBody = JSON.stringify({
  question: {
    title: 'What is a p-value?',
    content: 'Explain in your own words what a p-value measures and how it is used in a test.',
    type: 'short-answer',
    maxPoints: 3,
    rubric: {
      id: 'r1',
      title: 'p-value',
      criteria: [
        { id: 'c-def', description: 'Defines the p-value as a probability under the null hypothesis', points: 2 },
        { id: 'c-null', description: 'Says how a small p-value bears on the null hypothesis', points: 1 },
      ],
    },
  },
  answer:
    'A p-value is the probability of seeing data at least this extreme if the null hypothesis were true. ' +
    'We compute the test statistic from the sample and look up how likely a value that far out would be. ' +
    'If it is below the significance level we chose before, say 0.05, we reject the null hypothesis. '.repeat(2),
  samples: SAMPLES,
});

type Batch = { calls: number; failed: number; latencies: number[]; errors: string[] };

/** `workers` loops, each sending one grading-suggestion call after another until `stop` is set. */
function runBatch(port: number, internalToken: string, stop: { stopped: boolean }): Promise<Batch> {
  const batch: Batch = { calls: 0, failed: 0, latencies: [], errors: [] };
  const url = `http://127.0.0.1:${port}/internal/exams/${BENCH_EXAM_ID}/grading-suggestions`;
  const worker = async () => {
    while (!stop.stopped) {
      const started = performance.now();
      try {
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-internal-token': internalToken },
          body: gradingBody,
        });
        const body = (await response.json()) as { samples?: unknown[]; error?: { message: string } };
        batch.calls += 1;
        if (response.status !== 200 || body.samples?.length !== SAMPLES) {
          batch.failed += 1;
          batch.errors.push(`${response.status} ${body.error?.message ?? `${body.samples?.length} samples`}`);
        } else batch.latencies.push(performance.now() - started);
      } catch (err) {
        batch.calls += 1;
        batch.failed += 1;
        batch.errors.push((err as Error).message);
      }
    }
  };
  return Promise.all(Array.from({ length: WORKERS }, worker)).then(() => batch);
}

type Tagged = Result & { via: 'gw' | 'direct' };

const stack = await startStack({ port: Number(args.port) });
try {
  const chats = async () => {
    let turn = 0;
    return openLoop<Tagged>(RATE * SECONDS * 2, RATE * 2, () =>
      (turn++ & 1) === 0
        ? stack.viaGateway(TOKENS).then((r) => ({ ...r, via: 'gw' as const }))
        : stack.direct(TOKENS).then((r) => ({ ...r, via: 'direct' as const })),
    );
  };
  const cpu = () => {
    const c = cpuOf(stack.gatewayPid);
    return c.user + c.system;
  };

  console.log('warming up…');
  await chats();
  const warm = { stopped: false };
  const warming = runBatch(Number(args.port), stack.internalToken, warm);
  await sleep(3000);
  warm.stopped = true;
  const warmBatch = await warming;
  if (warmBatch.failed)
    throw new Error(`grading calls failed while warming up: ${warmBatch.errors.slice(0, 3).join('; ')}`);

  const alone: Tagged[] = [];
  const during: Tagged[] = [];
  /** Each round's two p99s (through the gateway): how far the box's own noise moves them from phase to phase. */
  const perRound: Array<{ alone: number; during: number }> = [];
  const p99Of = (results: Tagged[]) => summary(results.filter((r) => r.via === 'gw')).p99;
  const batches: Batch[] = [];
  let cpuAlone = 0;
  let cpuDuring = 0;
  const phaseAlone = async (round: number) => {
    console.log(`round ${round}: ${RATE} new chats/s for ${SECONDS} s alone`);
    const before = cpu();
    const results = await chats();
    alone.push(...results);
    cpuAlone += cpu() - before;
    perRound[round - 1] = { ...perRound[round - 1]!, alone: p99Of(results) };
  };
  const phaseDuring = async (round: number) => {
    console.log(`round ${round}: the same while ${WORKERS} grading calls × ${SAMPLES} samples run back to back`);
    const stop = { stopped: false };
    const before = cpu();
    const batch = runBatch(Number(args.port), stack.internalToken, stop);
    // Every worker has its samples streaming before the chats start.
    await sleep(1000);
    const results = await chats();
    during.push(...results);
    perRound[round - 1] = { ...perRound[round - 1]!, during: p99Of(results) };
    stop.stopped = true;
    batches.push(await batch);
    cpuDuring += cpu() - before;
  };
  // Alone, during, during, alone…: a drift of the box over the run (other work, the JIT, the pool) weighs on both sides.
  for (let round = 1; round <= ROUNDS; round++) {
    perRound.push({ alone: NaN, during: NaN });
    if (round % 2 === 1) {
      await phaseAlone(round);
      await phaseDuring(round);
    } else {
      await phaseDuring(round);
      await phaseAlone(round);
    }
  }

  const of = (results: Tagged[], via: Tagged['via']) => summary(results.filter((r) => r.via === via));
  const gwAlone = of(alone, 'gw');
  const gwDuring = of(during, 'gw');
  const drAlone = of(alone, 'direct');
  const drDuring = of(during, 'direct');
  const grading = {
    calls: batches.reduce((n, b) => n + b.calls, 0),
    failed: batches.reduce((n, b) => n + b.failed, 0),
    latencies: batches.flatMap((b) => b.latencies).sort((a, b) => a - b),
    errors: batches.flatMap((b) => b.errors),
  };
  const phaseSeconds = ROUNDS * (SECONDS + 1);
  const ratio = gwDuring.p99 / gwAlone.p99;
  const roundRatios = perRound.map((r) => r.during / r.alone).sort((a, b) => a - b);
  const medianRatio =
    (roundRatios[Math.floor((roundRatios.length - 1) / 2)]! + roundRatios[Math.floor(roundRatios.length / 2)]!) / 2;
  const addedAlone = gwAlone.p99 - drAlone.p99;
  const addedDuring = gwDuring.p99 - drDuring.p99;
  // The gateway's CPU for the grading calls: what the phases with them used beyond the chats' share.
  const cpuPerChat = cpuAlone / gwAlone.n;
  const cpuPerGradingCall = (cpuDuring - cpuPerChat * gwDuring.n) / Math.max(1, grading.calls);

  const row = (name: string, s: Summary) =>
    `| ${name} | ${s.n} | ${s.failed} | ${s.p50.toFixed(1)} | ${s.p95.toFixed(1)} | ${s.p99.toFixed(1)} | ${s.p99t.toFixed(1)} |`;
  console.log(
    [
      '',
      '| chats | n | failed | TTFT p50 ms | TTFT p95 ms | TTFT p99 ms | total p99 ms |',
      '|---|---|---|---|---|---|---|',
      row(`through the gateway, alone (${RATE}/s)`, gwAlone),
      row(`through the gateway, during the batch`, gwDuring),
      row('direct to the fake, alone', drAlone),
      row('direct to the fake, during the batch', drDuring),
      '',
      `TTFT p99 during / alone: ${ratio.toFixed(3)} (goal ≤ 1.10); total p99 ${(gwDuring.p99t / gwAlone.p99t).toFixed(3)}`,
      `per round, p99 alone → during: ${perRound.map((r) => `${r.alone.toFixed(0)} → ${r.during.toFixed(0)} ms`).join(', ')}; median of the rounds' ratios ${medianRatio.toFixed(3)}`,
      `gateway's added TTFT p99 over direct: ${addedAlone.toFixed(1)} ms alone, ${addedDuring.toFixed(1)} ms during`,
      `grading: ${grading.calls} calls × ${SAMPLES} samples in ${phaseSeconds} s (${(grading.calls / phaseSeconds).toFixed(1)}/s, ${grading.failed} failed), call p50 ${percentile(grading.latencies, 50).toFixed(0)} ms, p99 ${percentile(grading.latencies, 99).toFixed(0)} ms`,
      `gateway CPU: ${cpuPerChat.toFixed(2)} ms per chat; ${cpuPerGradingCall.toFixed(2)} ms per grading call (${SAMPLES} streams)`,
      `load average: ${loadAtStart} at the start, ${loadNow()} at the end, on ${availableParallelism()} cores`,
      '',
    ].join('\n'),
  );
  for (const s of [gwAlone, gwDuring, drAlone, drDuring]) if (s.errors.length) console.log('errors:', s.errors);
  if (grading.errors.length) console.log('grading errors:', grading.errors.slice(0, 5));
  const pick = (s: Summary) => ({ n: s.n, failed: s.failed, p50: s.p50, p95: s.p95, p99: s.p99, p99total: s.p99t });
  console.log(
    `BENCH_RESULT ${JSON.stringify({
      rate: RATE,
      seconds: SECONDS,
      rounds: ROUNDS,
      workers: WORKERS,
      samples: SAMPLES,
      alone: pick(gwAlone),
      during: pick(gwDuring),
      directAlone: pick(drAlone),
      directDuring: pick(drDuring),
      ratio,
      perRound,
      medianRoundRatio: medianRatio,
      addedP99: { alone: addedAlone, during: addedDuring },
      grading: {
        calls: grading.calls,
        failed: grading.failed,
        perSecond: grading.calls / phaseSeconds,
        p50: percentile(grading.latencies, 50),
        p99: percentile(grading.latencies, 99),
      },
      cpuPerChatMs: cpuPerChat,
      cpuPerGradingCallMs: cpuPerGradingCall,
    })}`,
  );
} finally {
  await stack.close();
}
