// The top self-time functions of V8 CPU profiles (`node --cpu-prof`, e.g. BENCH_CPU_PROF=<dir> of run.ts), summed
// over the profiles given (a service's two replicas), with each one's share of the samples:
//
//   node bench/capacity/profile-top.ts [--top 25] [--skip 0] [--seconds ∞] <file.cpuprofile>...
//
// --skip leaves out each profile's first seconds (the service starting, the stack idle, the ramp), --seconds keeps
// that many after it (the step's window).
//
// A function is named by its name, file and line; V8's own buckets keep their names: "(garbage collector)",
// "(program)" (native work outside JavaScript: the event loop, syscalls, the HTTP parser), "(idle)" (waiting).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

type Node = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
};
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number };

const { values, positionals } = parseArgs({
  options: {
    top: { type: 'string', default: '25' },
    skip: { type: 'string', default: '0' },
    seconds: { type: 'string', default: 'Infinity' },
  },
  allowPositionals: true,
});

const selfMs = new Map<string, number>();
let totalMs = 0;
for (const file of positionals) {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const from = Number(values.skip) * 1e6;
  const to = from + Number(values.seconds) * 1e6;
  let at = 0;
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    at += profile.timeDeltas[i] ?? 0;
    if (!node || at < from || at > to) return;
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url
      ? ` ${url.replace(/^file:\/\/.*?\/node_modules\/(\.pnpm\/)?/, '').replace(/^file:\/\/.*?\/(services|packages)\//, '$1/')}:${lineNumber + 1}`
      : '';
    const key = `${functionName || '(anonymous)'}${where}`;
    selfMs.set(key, (selfMs.get(key) ?? 0) + ms);
    totalMs += ms;
  });
}
const busyMs = totalMs - (selfMs.get('(idle)') ?? 0);
console.log(
  `${positionals.length} profile(s): ${(totalMs / 1000).toFixed(1)} s sampled, ${(busyMs / 1000).toFixed(1)} s not idle; self time, share of the non-idle time:`,
);
for (const [name, ms] of [...selfMs]
  .filter(([n]) => n !== '(idle)')
  .sort((a, b) => b[1] - a[1])
  .slice(0, Number(values.top)))
  console.log(`${((100 * ms) / busyMs).toFixed(1).padStart(5)}%  ${ms.toFixed(0).padStart(7)} ms  ${name}`);
