// CPU time by process from /proc/<pid>/stat (utime + stime), grouped under a name (a service, the database, the
// load generator), so a window's CPU can be split by who spent it.
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { childrenOf } from '../memory/process-tree.ts';

/** Clock ticks per second of /proc's utime and stime (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

export function cpuMsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (2nd field) is in parentheses and may hold spaces: count from the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return 0; // gone
  }
}

/** Every process under `root` (itself included). */
export function treeOf(root: number): number[] {
  const children = childrenOf();
  const pids: number[] = [];
  const walk = (pid: number) => {
    pids.push(pid);
    for (const child of children.get(pid) ?? []) walk(child);
  };
  walk(root);
  return pids;
}

/** The pids whose command name (/proc/<pid>/comm) is `name`, e.g. redis-server. */
export function pidsNamed(name: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === name) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/** A short name for a process of `pnpm start`: the service or app it runs (its folder), else its command. */
export function nameOfStartProcess(pid: number): string {
  try {
    const line = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
    for (const known of ['creator-web', 'taker-web', 'embedded-postgres', 'mailbox'])
      if (line.includes(known)) return known === 'embedded-postgres' ? 'database (embedded PGlite)' : known;
    if (line.includes('scripts/start.ts')) return 'scripts/start.ts';
    if (/\bpnpm\b/.test(line)) return 'pnpm (wrapper)';
    if (line.includes('src/server.ts')) {
      const folder = readlinkSync(`/proc/${pid}/cwd`).split('/').at(-1) ?? line;
      return folder === 'embedded-postgres' ? 'database (embedded PGlite)' : folder;
    }
    return line.slice(0, 40) || `pid ${pid}`;
  } catch {
    return `pid ${pid}`;
  }
}

export type CpuSample = Map<number, { name: string; ms: number }>;

export function sample(processes: Array<{ pid: number; name: string }>): CpuSample {
  return new Map(processes.map((p) => [p.pid, { name: p.name, ms: cpuMsOf(p.pid) }]));
}

/** CPU-ms spent between two samples, by name (a process only in `after` started in between: counted from 0). */
export function spentByName(before: CpuSample, after: CpuSample): Record<string, number> {
  const spent: Record<string, number> = {};
  for (const [pid, { name, ms }] of after)
    spent[name] = (spent[name] ?? 0) + Math.max(0, ms - (before.get(pid)?.ms ?? 0));
  return spent;
}
