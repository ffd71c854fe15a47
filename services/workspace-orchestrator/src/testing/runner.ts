import type { Unavailable, UnavailableKind } from '@exam/domain/service-status';
import type { FastifyInstance } from 'fastify';
import { createRunnerWorker } from '../jobs/runner-worker.ts';
import type { RunJob } from '../db/schema.ts';
import { parseHarnessOutput } from '../engine/runner-protocol.ts';
import type { RunnerEngine, RunnerExecution } from '../engine/runner-engine.ts';

const b64 = (s: string) => (s ? Buffer.from(s).toString('base64') : '-');

/**
 * A runner engine without containers, for the queue and route tests. It answers in the harness's own line
 * format (infra/runners/harness/harness.sh), parsed by the same code as the real engine's output. The
 * "program" is the code itself: `echo` prints its stdin, `upper` prints it upper-cased, `crash` exits 1, `binary` prints NUL and invalid UTF-8,
 * `loop` is killed at the time limit, `syntax error` fails to compile; anything else prints the code.
 * `gate` holds every execution until released, to observe how many run at once.
 */
export function fakeRunnerEngine() {
  let unavailable: Unavailable | undefined;
  let failures = 0;
  let running = 0;
  let maxRunning = 0;
  const gates: Array<() => void> = [];
  let gated = false;

  function harnessLines(job: RunJob, nonce: string): string {
    const lines: string[] = [];
    if (job.code === 'syntax error')
      return `COMPILE ${nonce} 1 ${b64('main.cpp:1: error: expected ;')}\nDONE ${nonce}\n`;
    job.tests.forEach((test, i) => {
      const cpuMs = job.limits.cpuSeconds * 1000;
      if (job.code === 'loop') lines.push(`TEST ${nonce} ${i} 137 ${2 * cpuMs + 1000} 0 0 - -`);
      else if (job.code === 'crash') lines.push(`TEST ${nonce} ${i} 1 5 0 0 - ${b64('Traceback: boom')}`);
      // NUL bytes and bytes that are not UTF-8, on stdout and stderr, as a C program's printf("%c", 0) gives.
      else if (job.code === 'binary') {
        const bytes = Buffer.from([0x6f, 0x6b, 0x00, 0xff, 0xfe, 0x0a]).toString('base64');
        lines.push(`TEST ${nonce} ${i} 0 5 0 0 ${bytes} ${bytes}`);
      } else {
        const out = job.code === 'echo' ? test.stdin : job.code === 'upper' ? test.stdin.toUpperCase() : job.code;
        lines.push(`TEST ${nonce} ${i} 0 7 0 0 ${b64(out)} -`);
      }
    });
    return `${lines.join('\n')}\nDONE ${nonce}\n`;
  }

  const engine: RunnerEngine = {
    async unavailableReason() {
      return unavailable;
    },
    async execute(job): Promise<RunnerExecution> {
      running++;
      maxRunning = Math.max(maxRunning, running);
      try {
        if (gated) await new Promise<void>((resolve) => gates.push(resolve));
        if (failures > 0) {
          failures--;
          throw new Error('the engine refused to create the container');
        }
        return { ...parseHarnessOutput(harnessLines(job, 'n0nce'), 'n0nce'), killed: false };
      } finally {
        running--;
      }
    },
    async countContainers() {
      return running;
    },
    async removeStale() {
      return 0;
    },
  };

  return {
    engine,
    /** The engine's next answers: unavailable for this reason (operator's words), or available again. */
    setUnavailable: (detail: string | undefined, kind: UnavailableKind = 'engine-unreachable') =>
      (unavailable = detail === undefined ? undefined : { kind, detail }),
    failNext: (n: number) => (failures = n),
    gate: () => (gated = true),
    release: () => {
      gated = false;
      for (const open of gates.splice(0)) open();
    },
    get running() {
      return running;
    },
    get maxRunning() {
      return maxRunning;
    },
  };
}

/** The runner worker server.ts starts, for a test to pass and drain by hand (or start on its poll). */
export function testRunnerWorker(
  app: Pick<FastifyInstance, 'runner' | 'log'>,
  opts: {
    concurrency?: number;
    globalConcurrency?: number | undefined;
    pollMs?: number;
    candidateSlots?: number;
    referenceSlots?: number;
  } = {},
) {
  return createRunnerWorker(
    { ...app.runner, clock: { now: () => new Date() }, log: app.log },
    {
      concurrency: opts.concurrency ?? 2,
      globalConcurrency: opts.globalConcurrency,
      pollMs: opts.pollMs ?? 50,
      maxClaims: 2,
      // The production defaults (config.ts): one slot kept for candidates, one for reference runs.
      candidateSlots: opts.candidateSlots ?? 1,
      referenceSlots: opts.referenceSlots ?? 1,
    },
  );
}
