import { randomBytes } from 'node:crypto';
import { PassThrough } from 'node:stream';
import type Docker from 'dockerode';
import type { RunJob } from '../db/schema.ts';
import { makeBundle, OUTPUT_MAX, parseHarnessOutput, type HarnessReport } from './runner-protocol.ts';
import { dockerClient, isNotFound } from './docker-client.ts';
import type { Unavailable } from '@exam/domain/service-status';
import { LABELS } from './engine.ts';

/** Marks the runner's containers (beside exam.orchestrator, the instance). */
export const RUNNER_LABEL = 'exam.runner';

export type RunnerExecution = HarnessReport & {
  /** The whole run hit its wall clock and was killed; the tests it had not reported are timeouts. */
  killed: boolean;
};

/** Runs code in sandboxes: the Docker implementation below; unit tests pass a fake. */
export type RunnerEngine = {
  /**
   * Why a run in this language cannot start now (no engine, no image), or undefined when it can. The detail names
   * sockets, images and scripts: it is for the log and the admin status page, never for a response.
   */
  unavailableReason(language: RunJob['language']): Promise<Unavailable | undefined>;
  execute(job: RunJob): Promise<RunnerExecution>;
  /** How many runner containers of this instance exist right now (the burst benchmark samples it). */
  countContainers(): Promise<number>;
  /**
   * Removes this instance's runner containers created more than `olderThanMs` ago: those of a replica that
   * died mid-run (a live run removes its own container). Returns how many went.
   */
  removeStale(olderThanMs: number): Promise<number>;
};

export type RunnerEngineOptions = {
  socketPath: string;
  instance: string;
  pidsLimit: number;
  /** The cap on a whole run (RUNNER_MAX_RUN_SECONDS); unset, only the run's own deadline. */
  maxRunMs?: number | undefined;
};

export const runnerImage = (language: string) => `exam/runner-${language}`;

/**
 * Memory of the container: the question's limit plus room for the harness and the tmpfs work folder (tmpfs
 * pages count against the cgroup). Compiled languages need more to compile and to host a JVM; their
 * programs are held to the question's limit by `ulimit -v` (C++) and -Xmx (Java) inside the harness.
 */
export function containerMemoryMb(job: RunJob): number {
  const mb = job.limits.memoryMb;
  if (job.language === 'java') return Math.max(mb + 320, 640);
  if (job.language === 'cpp') return Math.max(mb + 64, 640);
  return mb + 64;
}

/**
 * The longest a whole run may take: start-up, the compile, then every test at its wall-clock limit; no longer
 * than `maxRunMs` (RUNNER_MAX_RUN_SECONDS) when given.
 */
export function runDeadlineMs(job: RunJob, maxRunMs = Infinity): number {
  const compile = job.language === 'cpp' || job.language === 'java' ? 60_000 : 0;
  return Math.min(maxRunMs, 10_000 + compile + job.tests.length * (2 * job.limits.cpuSeconds + 2) * 1000);
}

function runnerContainer(job: RunJob, opts: RunnerEngineOptions): Docker.ContainerCreateOptions {
  const memory = containerMemoryMb(job) * 1024 * 1024;
  // An agentic task's repository is in the bundle and copied into the build folder, like the source file.
  const repositoryChars = (job.files ?? []).reduce((n, f) => n + f.content.length, 0);
  const inputMb = Math.ceil(
    job.tests.reduce((n, t) => n + t.stdin.length, job.code.length + repositoryChars) / (1024 * 1024),
  );
  return {
    Image: runnerImage(job.language),
    User: '1000:1000',
    WorkingDir: '/work',
    Env: [
      `RUNNER_TESTS=${job.tests.length}`,
      `RUNNER_CPU_SECONDS=${job.limits.cpuSeconds}`,
      `RUNNER_MEMORY_MB=${job.limits.memoryMb}`,
      `RUNNER_OUTPUT_MAX=${OUTPUT_MAX}`,
    ],
    // Not exam.managed: the workspace reaper would take a runner container for an orphaned editor.
    Labels: { [LABELS.instance]: opts.instance, [RUNNER_LABEL]: 'true' },
    // The bundle arrives on standard input (the root filesystem is read-only, so no archive upload).
    AttachStdin: true,
    AttachStdout: true,
    AttachStderr: true,
    OpenStdin: true,
    StdinOnce: true,
    Tty: false,
    NetworkDisabled: true,
    HostConfig: {
      NetworkMode: 'none',
      ReadonlyRootfs: true,
      CapDrop: ['ALL'],
      SecurityOpt: ['no-new-privileges'],
      PidsLimit: opts.pidsLimit,
      Memory: memory,
      MemorySwap: memory,
      NanoCpus: 1e9,
      // exec: compiled programs run from the work folder.
      Tmpfs: {
        '/work': `rw,exec,nosuid,nodev,size=${64 + 2 * inputMb}m,uid=1000,gid=1000,mode=0700`,
        '/tmp': 'rw,exec,nosuid,nodev,size=32m,mode=1777',
      },
      Ulimits: [
        { Name: 'nofile', Soft: 256, Hard: 256 },
        { Name: 'fsize', Soft: 64 * 1024 * 1024, Hard: 64 * 1024 * 1024 },
      ],
      // Nothing is logged to the engine's disk: the output is read from the attached stream only.
      LogConfig: { Type: 'none', Config: {} },
      RestartPolicy: { Name: 'no' },
    },
  };
}

/** Reads the container's standard output up to `max` bytes; past it the run is killed. */
function collect(stream: NodeJS.ReadableStream, max: number, onOverflow: () => void) {
  const chunks: Buffer[] = [];
  let size = 0;
  const ended = new Promise<void>((resolve) => {
    stream.on('data', (chunk: Buffer) => {
      if (size > max) return;
      size += chunk.length;
      chunks.push(chunk);
      if (size > max) onOverflow();
    });
    stream.on('end', resolve);
    stream.on('close', resolve);
  });
  return { ended, text: () => Buffer.concat(chunks).toString('utf8') };
}

/** Code runs in one fresh, locked-down container per run on a real Docker engine. */
export function createDockerRunnerEngine(opts: RunnerEngineOptions): RunnerEngine {
  const docker = dockerClient(opts.socketPath, { timeoutMs: 60_000 });
  const recentlyOk = new Map<string, number>();
  const fresh = (key: string) => Date.now() - (recentlyOk.get(key) ?? 0) < 2000;
  const listOwn = () =>
    docker.listContainers({
      all: true,
      filters: { label: [`${RUNNER_LABEL}=true`, `${LABELS.instance}=${opts.instance}`] },
    });

  return {
    async unavailableReason(language) {
      if (!fresh('ping')) {
        try {
          await Promise.race([
            docker.ping(),
            new Promise((_, reject) => setTimeout(() => reject(new Error('timed out')), 2000)),
          ]);
          recentlyOk.set('ping', Date.now());
        } catch (err) {
          return {
            kind: 'engine-unreachable',
            detail: `no Docker engine at ${opts.socketPath} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
          };
        }
      }
      const image = runnerImage(language);
      if (fresh(image)) return undefined;
      try {
        await docker.getImage(image).inspect();
        recentlyOk.set(image, Date.now());
        return undefined;
      } catch (err) {
        if (isNotFound(err))
          return {
            kind: 'image-missing',
            detail: `runner image ${image} is not built (scripts/build-runner-images.sh ${language})`,
          };
        return {
          kind: 'engine-unreachable',
          detail: `the Docker engine at ${opts.socketPath} failed: ${(err as Error).message}`,
        };
      }
    },

    async execute(job) {
      const nonce = randomBytes(12).toString('hex');
      const bundle = await makeBundle(job, nonce);
      const container = await docker.createContainer(runnerContainer(job, opts));
      let killed = false;
      const kill = () => {
        killed = true;
        void container.kill().catch(() => undefined);
      };
      try {
        const stream = await container.attach({ stream: true, stdin: true, stdout: true, stderr: true, hijack: true });
        const stdout = new PassThrough();
        const stderr = new PassThrough();
        docker.modem.demuxStream(stream, stdout, stderr);
        stderr.resume();
        stream.on('end', () => stdout.end());
        stream.on('close', () => stdout.end());
        // Each test's two outputs in base64, plus the compiler's: more than that is not the harness talking.
        const output = collect(stdout, (job.tests.length * 2 + 1) * (OUTPUT_MAX * 1.4 + 200), kill);
        // Asked before the start: the default condition (not-running) would answer at once for a created container.
        const exited = container.wait({ condition: 'next-exit' });
        await container.start();
        stream.end(bundle);
        const timer = setTimeout(kill, runDeadlineMs(job, opts.maxRunMs));
        try {
          await exited;
        } finally {
          clearTimeout(timer);
        }
        await Promise.race([output.ended, new Promise((r) => setTimeout(r, 2000))]);
        return { ...parseHarnessOutput(output.text(), nonce), killed };
      } finally {
        await container.remove({ force: true, v: true }).catch(() => undefined);
      }
    },

    async countContainers() {
      return (await listOwn()).length;
    },

    async removeStale(olderThanMs) {
      const cutoff = (Date.now() - olderThanMs) / 1000;
      const stale = (await listOwn()).filter((c) => c.Created < cutoff);
      for (const c of stale)
        await docker
          .getContainer(c.Id)
          .remove({ force: true, v: true })
          .catch(() => undefined);
      return stale.length;
    },
  };
}
