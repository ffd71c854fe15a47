/** Process CPU time (user + system, all threads) in milliseconds. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/**
 * Wall-clock and CPU milliseconds spent per named phase of one insights request, summed when a phase
 * repeats, rendered as a Server-Timing header (`db;dur=12.3;desc="cpu=8.1", …`). CPU is the whole
 * process's, so it also shows the cost of a phase on a machine busy with other work. Phases may nest:
 * `report` contains `candidates`, `classical`, `rasch`, `one-pl`, `two-pl`, `item-fit` and `rasch-topics` (the
 * topic abilities, from whichever model was chosen).
 */
export function createPhaseTimings() {
  const phases = new Map<string, { wall: number; cpu: number }>();
  const add = (phase: string, wall: number, cpu: number) => {
    const sum = phases.get(phase) ?? { wall: 0, cpu: 0 };
    phases.set(phase, { wall: sum.wall + wall, cpu: sum.cpu + cpu });
  };
  let finished = { wall: 0, cpu: 0 };
  return {
    time<T>(phase: string, run: () => T): T {
      const [wall, cpu] = [performance.now(), cpuMs()];
      try {
        return run();
      } finally {
        add(phase, performance.now() - wall, cpuMs() - cpu);
      }
    },
    async timeAsync<T>(phase: string, run: () => Promise<T>): Promise<T> {
      const [wall, cpu] = [performance.now(), cpuMs()];
      try {
        return await run();
      } finally {
        add(phase, performance.now() - wall, cpuMs() - cpu);
      }
    },
    /** Marks the end of the handler: what happens until `header` is the response's serialization. */
    finish() {
      finished = { wall: performance.now(), cpu: cpuMs() };
    },
    /** The header, once the payload is serialized; `totalMs` is the whole request as Fastify measured it. */
    header(totalMs: number): string {
      add('serialize', performance.now() - finished.wall, cpuMs() - finished.cpu);
      const timed = [...phases].map(
        ([phase, ms]) => `${phase};dur=${ms.wall.toFixed(1)};desc="cpu=${ms.cpu.toFixed(1)}"`,
      );
      return [...timed, `total;dur=${totalMs.toFixed(1)}`].join(', ');
    },
  };
}
