import { spawn, spawnSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Obj, RunnerOutcome } from './fake-kubernetes-wire.ts';

/** The real harness of every runner image (infra/runners/harness/harness.sh). */
const HARNESS_DIR = resolve(fileURLToPath(new URL('../../../../infra/runners/harness', import.meta.url)));

/**
 * The harness where the runner image has it: /opt/harness, with /work and /tmp fresh, as user 1000, in a PID
 * namespace of its own (the harness's sweep, `kill -9 -1`, then reaches only the run's own processes) and a mount
 * namespace (the binds are seen by nothing else). The machine's python3 stands in for the image's.
 */
// In this order: the harness's folder (under /work here) and the work folder (under /tmp) are bound before the
// mounts over /work and /tmp hide them.
const SANDBOX = `set -e
mount -t tmpfs -o size=1m tmpfs /opt
mkdir /opt/harness
mount --bind -o ro "$HARNESS" /opt/harness
mount --bind "$WORK" /work
mount -t tmpfs -o size=64m tmpfs /tmp
exec setpriv --reuid 1000 --regid 1000 --clear-groups --inh-caps=-all env -i PATH=/usr/bin:/bin HOME=/tmp \\
  RUNNER_LANGUAGE="$RUNNER_LANGUAGE" RUNNER_TESTS="$RUNNER_TESTS" RUNNER_CPU_SECONDS="$RUNNER_CPU_SECONDS" \\
  RUNNER_MEMORY_MB="$RUNNER_MEMORY_MB" RUNNER_OUTPUT_MAX="$RUNNER_OUTPUT_MAX" /bin/bash /opt/harness/harness.sh`;

const unshare = ['--mount', '--pid', '--fork', '--mount-proc', '--kill-child', 'sh', '-c', SANDBOX];

/** Whether this machine can run the harness so (root, with namespaces allowed, and python3 in /usr/bin). */
export function canRunHarnessLocally(): boolean {
  if (process.getuid?.() !== 0) return false;
  const probe = spawnSync(
    'unshare',
    ['--mount', '--pid', '--fork', 'sh', '-c', 'test -x /usr/bin/python3 && test -d /work'],
    {
      timeout: 5000,
    },
  );
  return probe.status === 0;
}

/**
 * What the runner pod's container does with the bundle on its stdin (the fake API server's `state.runner`): the
 * real harness run on this machine, its language from the image's name and its settings from the pod's env.
 */
export async function runHarnessLocally(pod: Obj, stdin: Buffer): Promise<RunnerOutcome> {
  const container = (
    pod.spec?.containers as Array<{ image: string; env?: Array<{ name: string; value: string }> }>
  )[0]!;
  const env = Object.fromEntries((container.env ?? []).map((e) => [e.name, e.value]));
  const work = mkdtempSync(join(tmpdir(), 'runner-work-'));
  chownSync(work, 1000, 1000);
  try {
    const child = spawn('unshare', unshare, {
      env: {
        PATH: '/usr/sbin:/usr/bin:/sbin:/bin',
        WORK: work,
        HARNESS: HARNESS_DIR,
        RUNNER_LANGUAGE: container.image.replace(/^.*runner-/, ''),
        ...env,
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.resume();
    child.stdin.end(stdin);
    const exitCode = await new Promise<number>((done) => child.on('close', (code) => done(code ?? 137)));
    return { log: Buffer.concat(out), exitCode };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
