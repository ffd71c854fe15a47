/**
 * In-memory benchmark of @exam/psychometrics: classical statistics, the Rasch fit and the whole
 * insights report for simulated cohorts (default 10,000 candidates × 50 items), timed over several runs
 * after one warm-up. The DB-backed benchmark (cold, from PostgreSQL) is separate.
 *
 *   node bench/psychometrics.ts [--candidates 10000] [--items 50] [--runs 7]
 */
import { parseArgs } from 'node:util';
import { computeClassicalStatistics, type Mark } from '../packages/psychometrics/src/classical.ts';
import { fitRasch } from '../packages/psychometrics/src/rasch.ts';
import { createRandom } from '../packages/psychometrics/src/random.ts';
import { buildInsightsReport, type ReportInput } from '../packages/psychometrics/src/report.ts';
import { correlation, simulateRasch, spreadDifficulties } from '../packages/psychometrics/src/simulate.ts';

const { values } = parseArgs({
  options: {
    candidates: { type: 'string', default: '10000' },
    items: { type: 'string', default: '50' },
    runs: { type: 'string', default: '7' },
  },
});
const N = Number(values.candidates);
const J = Number(values.items);
const RUNS = Number(values.runs);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const timings: Record<string, { wallP50: number; wallP95: number; cpuP50: number; cpuP95: number }> = {};

/** Wall-clock and CPU (user + system) milliseconds: on a shared machine CPU time shows the real cost. */
function time<T>(label: string, run: () => T): T {
  let result = run();
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const start = performance.now();
    const startCpu = process.cpuUsage();
    result = run();
    const used = process.cpuUsage(startCpu);
    wall.push(performance.now() - start);
    cpu.push((used.user + used.system) / 1000);
  }
  wall.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  const ms = (sorted: number[], p: number) => percentile(sorted, p).toFixed(0);
  console.log(`| ${label} | ${ms(wall, 50)} | ${ms(wall, 95)} | ${ms(cpu, 50)} | ${ms(cpu, 95)} |`);
  const round = (sorted: number[], p: number) => Math.round(percentile(sorted, p));
  timings[label] = {
    wallP50: round(wall, 50),
    wallP95: round(wall, 95),
    cpuP50: round(cpu, 50),
    cpuP95: round(cpu, 95),
  };
  return result;
}

const trueB = spreadDifficulties(J, -2.5, 2.5);
const { marks, thetas } = simulateRasch(N, trueB, 20240601);
const rng = createRandom(99);
// Realistic gaps: the last 10 items are manual and still ungraded for 30% of candidates.
const pending: Mark[][] = marks.map((row) => {
  const open = rng.next() < 0.3;
  return row.map((x, j) => (open && j >= J - 10 ? null : x));
});
// Worst case for pattern grouping: 5% of answers missing at random, so almost every candidate is unique.
const scattered: Mark[][] = marks.map((row) => row.map((x) => (rng.next() < 0.05 ? null : x)));

const report: ReportInput = {
  items: trueB.map((_, j) => ({
    questionIndex: j,
    topic: `Topic ${j % 5}`,
    type: j % 4 === 3 ? 'short-answer' : 'mcq',
    optionCount: 4,
  })),
  cohort: { invited: N, started: N, submitted: N, graded: N, pending: 0 },
  candidates: marks.map((row, c) => ({
    resultId: `r${c}`,
    name: `Candidate ${c}`,
    studentId: `S${c}`,
    startedAt: new Date(Date.UTC(2025, 0, 5, 9)).toISOString(),
    completedAt: new Date(Date.UTC(2025, 0, 5, 10, c % 60)).toISOString(),
    marks: row,
    answers: row.map((_, j) =>
      j % 4 === 3 ? `candidate ${c} explains answer ${j} in their own words here` : 'Option A',
    ),
    events: [
      { type: 'focus-lost', at: new Date(Date.UTC(2025, 0, 5, 9, 10)).toISOString() },
      { type: 'focus-gained', at: new Date(Date.UTC(2025, 0, 5, 9, 12)).toISOString() },
    ],
    chat:
      c % 3 === 0
        ? [
            { role: 'user', content: 'hint?', questionIndex: c % J },
            { role: 'assistant', content: 'Think about the definition first.', questionIndex: c % J },
          ]
        : [],
  })),
};

console.log(`\n${N} candidates × ${J} items, ${RUNS} timed runs after a warm-up (Node ${process.version})\n`);
console.log('| step | wall p50 ms | wall p95 ms | CPU p50 ms | CPU p95 ms |');
console.log('|---|---|---|---|---|');
time('classical statistics', () => computeClassicalStatistics(marks, J));
const fit = time('Rasch fit (complete data)', () => fitRasch(marks, J));
const fitPending = time('Rasch fit (10 items pending for 30%)', () => fitRasch(pending, J));
const fitScattered = time('Rasch fit (5% missing at random)', () => fitRasch(scattered, J));
time('whole insights report', () => buildInsightsReport(report));

const maxError = (f: typeof fit) => Math.max(...f.items.map((item, j) => Math.abs(item.difficulty! - trueB[j]!)));
console.log('\n| data | EM iterations | max |b̂ − b| logits | r(EAP, θ) |');
console.log('|---|---|---|---|');
for (const [label, f] of [
  ['complete', fit],
  ['pending', fitPending],
  ['scattered', fitScattered],
] as const) {
  const r = correlation(
    f.abilities.map((a) => a.theta!),
    thetas,
  );
  console.log(`| ${label} | ${f.iterations} | ${maxError(f).toFixed(3)} | ${r.toFixed(3)} |`);
}
// One machine-readable line for bench/run.ts.
console.log(`BENCH_RESULT ${JSON.stringify({ candidates: N, items: J, runs: RUNS, timings })}`);
