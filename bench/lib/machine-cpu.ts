// Machine-wide CPU time from /proc/stat, so a benchmark can say how busy the shared cores were during a
// phase and how much the hypervisor took (steal): on a 2-core box with the load generator, the service
// and PostgreSQL side by side, a tail latency means little without them.
import { readFileSync } from 'node:fs';

export type CpuSnapshot = { busy: number; idle: number; steal: number; total: number };

/** The aggregate `cpu` line of /proc/stat, in clock ticks. */
export function cpuSnapshot(): CpuSnapshot {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = fields;
  const busy = user + nice + system + irq + softirq;
  return { busy, idle: idle + iowait, steal, total: busy + idle + iowait + steal };
}

/** Shares of the machine's CPU time between two snapshots, in percent of all cores. */
export function cpuShares(before: CpuSnapshot, after: CpuSnapshot) {
  const total = after.total - before.total || 1;
  const pct = (ticks: number) => Math.round((1000 * ticks) / total) / 10;
  return {
    busyPct: pct(after.busy - before.busy),
    stealPct: pct(after.steal - before.steal),
    idlePct: pct(after.idle - before.idle),
  };
}
