// The llm-gateway's CPU for the exam read on a message's path, alone: the production exam source
// (adapters/platform-clients.ts) against fakes.ts's exam-service, asked as a candidate's messages ask
// (`{ recent: true }`), with EXAM_MESSAGE_MAX_AGE_MS 0 (a GET for every message) and with the default (this
// replica's copy of up to 1 s, misses sharing one GET). CPU is this process's utime + stime per read, which a
// loaded box inflates less than wall time; rounds alternate the two.
// Usage: node bench/llm-gateway/exam-read.ts [--reads 3000] [--concurrency 30] [--rounds 3]
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { httpExamSource } from '../../services/llm-gateway/src/adapters/platform-clients.ts';
import { BENCH_EXAM_ID } from './fakes.ts';
import { loadNow } from './harness.ts';

const { values: args } = parseArgs({
  options: {
    reads: { type: 'string', default: '3000' },
    concurrency: { type: 'string', default: '30' },
    rounds: { type: 'string', default: '3' },
  },
});
const READS = Number(args.reads);
const CONCURRENCY = Number(args.concurrency);
const ROUNDS = Number(args.rounds);
const loadAtStart = loadNow();

const fakes = spawn(process.execPath, [fileURLToPath(new URL('./fakes.ts', import.meta.url))], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const platformPort = await new Promise<number>((resolve) => {
  let out = '';
  fakes.stdout!.on('data', (part: Buffer) => {
    out += part.toString();
    const m = /ready (\d+) (\d+)/.exec(out);
    if (m) resolve(Number(m[2]));
  });
});

/** CPU ms per read of `READS` reads, `CONCURRENCY` at a time, as messages arriving together would ask. */
async function measure(maxAgeMs: number): Promise<number> {
  const source = httpExamSource(`http://127.0.0.1:${platformPort}`, 'bench', {
    timeoutMs: 5000,
    messageMaxAgeMs: maxAgeMs,
  });
  const readAll = async (n: number) => {
    let left = n;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (left-- > 0) if (!(await source.findExam(BENCH_EXAM_ID, { recent: true }))) throw new Error('no exam');
      }),
    );
  };
  await readAll(500); // warm-up: the JIT and the sockets
  const before = process.cpuUsage();
  await readAll(READS);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / READS;
}

const rows: { every: number; kept: number }[] = [];
try {
  for (let round = 0; round < ROUNDS; round++) {
    const every = await measure(0);
    const kept = await measure(1000);
    rows.push({ every, kept });
    console.log(
      `round ${round + 1}: a GET for every message ${(every * 1000).toFixed(1)} µs a read, kept ≤ 1 s ${(kept * 1000).toFixed(1)} µs`,
    );
  }
} finally {
  fakes.kill('SIGTERM');
}
const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const result = {
  reads: READS,
  concurrency: CONCURRENCY,
  everyMsMedian: median(rows.map((r) => r.every)),
  keptMsMedian: median(rows.map((r) => r.kept)),
  loadAtStart,
  loadAtEnd: loadNow(),
};
console.log(`load average ${loadAtStart} at the start, ${result.loadAtEnd} at the end`);
console.log(`BENCH_RESULT ${JSON.stringify(result)}`);
process.exit(0);
