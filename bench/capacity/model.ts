// The capacity model: a candidate costs a fixed amount of CPU per minute in each process (the services, the
// database, the proxy), measured above the idle stack at a step that held; a box of `cores` at a target
// utilisation then serves
//   candidates ≈ (cores × 60,000 ms × utilisation − idle CPU-ms per minute) / Σ CPU-ms per candidate-minute.
// The services are stateless behind the proxy, so their share spreads over replicas on more cores; the
// database's share does not (one primary), so it bounds a deployment on its own:
//   candidates ≤ database cores × 60,000 × utilisation / database CPU-ms per candidate-minute.
export const TARGET_UTILISATION = 0.7;
const BENCH_ONLY = new Set(['load generator', 'fake provider + harness']);

export type StepCpu = { cpuMsPerCandidateMinute: Record<string, number> };

const round = (n: number) => Math.round(n * 100) / 100;
const candidatesFor = (
  cores: number,
  msPerCandidateMinute: number,
  idleMsPerMinute = 0,
  utilisation = TARGET_UTILISATION,
) =>
  msPerCandidateMinute > 0
    ? Math.max(0, Math.floor((cores * 60_000 * utilisation - idleMsPerMinute) / msPerCandidateMinute / 10) * 10)
    : null;

export function modelOf(stack: string, step: StepCpu, measuredAt: number, idlePerMinute: Record<string, number>) {
  const per = step.cpuMsPerCandidateMinute;
  const sum = (pick: (name: string) => boolean) =>
    round(Object.entries(per).reduce((total, [name, ms]) => total + (pick(name) ? ms : 0), 0));
  const database = sum((n) => n.startsWith('database'));
  const stackTotal = sum((n) => !BENCH_ONLY.has(n));
  const app = round(stackTotal - database);
  const generator = per['load generator'] ?? 0;
  const idleOf = (pick: (name: string) => boolean) =>
    Object.entries(idlePerMinute).reduce((total, [name, ms]) => total + (pick(name) ? ms : 0), 0);
  // The shared Redis server's idle is everyone's on this box, not the stack's.
  const idle = idleOf((n) => !BENCH_ONLY.has(n) && !n.startsWith('redis'));
  const idleDatabase = idleOf((n) => n.startsWith('database'));
  return {
    stack,
    measuredAt,
    utilisation: TARGET_UTILISATION,
    cpuMsPerCandidateMinute: { stack: stackTotal, app, database, generator },
    idleCpuMsPerMinute: { stack: idle, database: idleDatabase },
    top: Object.entries(per)
      .filter(([name]) => !BENCH_ONLY.has(name))
      .sort((a, b) => b[1] - a[1])
      .slice(0, 5)
      .map(([name, ms]) => ({ name, ms, share: stackTotal ? round(ms / stackTotal) : 0 })),
    /** This box with the generator beside the stack (as measured), and with the generator elsewhere. */
    thisBox: {
      withGenerator: candidatesFor(2, stackTotal + generator, idle),
      servicesOnly: candidatesFor(2, stackTotal, idle),
      servicesOnlyAt100Pct: candidatesFor(2, stackTotal, idle, 1),
    },
    /** One box of n cores running everything. */
    byCores: Object.fromEntries([2, 4, 8, 16].map((cores) => [cores, candidatesFor(cores, stackTotal, idle)])),
    /** Replicas on their own cores: what each core of services adds, and what each core of the database holds. */
    perAppCore: candidatesFor(1, app),
    perDatabaseCore: candidatesFor(1, database),
  };
}
