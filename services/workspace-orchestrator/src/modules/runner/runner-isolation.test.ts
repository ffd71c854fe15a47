import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import type { RunReport, TestVerdict } from '@exam/domain/coding';
import { TEST_SECRETS } from '@exam/server-kit/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { dockerClient } from '../../engine/docker-client.ts';
import { RUNNER_LABEL } from '../../engine/runner-engine.ts';
import { buildTestApp } from '../../testing/app.ts';
import { testRunnerWorker } from '../../testing/runner.ts';
import { ESCAPED_MARKER, TRUNCATED_MARKER } from './runner-verdicts.ts';

const socketPath = inject('dockerSocket');
const instance = inject('workspaceInstance');
const internal = { 'x-internal-token': TEST_SECRETS.INTERNAL_TOKEN };

type Test = { stdin?: string; expected?: string; args?: string[] };

/**
 * The runner's sandbox on the real Docker engine with the real exam/runner-python image (built by
 * scripts/docker-test-engine.ts): what a candidate's code can and cannot do inside it.
 */
describe.skipIf(!socketPath)('code runs in the real runner container (python)', () => {
  let app: Awaited<ReturnType<typeof buildTestApp>>;
  let stopWorker: () => Promise<void>;
  const docker = dockerClient(socketPath ?? '');

  const enqueue = async (code: string, tests: Test[], limits = { cpuSeconds: 1, memoryMb: 64 }) => {
    const response = await app.inject({
      method: 'POST',
      url: '/internal/runs',
      headers: internal,
      payload: {
        purpose: 'check',
        language: 'python',
        code,
        tests: tests.map((t, i) => ({ id: `t${i}`, stdin: '', expected: '', ...t })),
        limits,
      },
    });
    expect(response.statusCode, response.body).toBe(202);
    return (response.json() as RunReport).runId;
  };
  const finished = async (runId: string): Promise<RunReport> => {
    const response = await app.inject({ url: `/internal/runs/${runId}?waitMs=25000`, headers: internal });
    const report = response.json() as RunReport;
    expect(report.state, JSON.stringify(report)).toBe('done');
    return report;
  };
  const run = async (code: string, tests: Test[], limits?: { cpuSeconds: number; memoryMb: number }) =>
    (await finished(await enqueue(code, tests, limits))).verdicts;
  const only = (verdicts: TestVerdict[]) => {
    expect(verdicts).toHaveLength(1);
    return verdicts[0]!;
  };

  beforeAll(async () => {
    app = await buildTestApp({ socketPath: socketPath!, instance });
    const worker = testRunnerWorker(app, { concurrency: 2 });
    const loop = worker.start();
    stopWorker = async () => {
      await loop.stop();
      await worker.drain();
    };
  });
  afterAll(async () => {
    await stopWorker?.();
    await app?.close();
  });

  it('finishes a run whose program prints NUL bytes and invalid UTF-8, its output stored as U+FFFD', async () => {
    const runId = await enqueue(
      "import sys\nsys.stdout.buffer.write(b'ok\\x00\\xff\\n')\nsys.stderr.buffer.write(b'\\x00')",
      [{ stdin: 'secret stdin', expected: 'ok' }],
    );
    const report = await finished(runId);
    expect(report.reason).toBeUndefined();
    const verdict = only(report.verdicts);
    expect(verdict).toMatchObject({ outcome: 'failed', actual: `ok\uFFFD\uFFFD\n${ESCAPED_MARKER}` });
    expect(verdict.stderr).toBe(`\uFFFD${ESCAPED_MARKER}`);
  });

  it('passes a correct solution and fails a wrong one with the expected and actual output', async () => {
    const verdicts = await run('import sys\nprint(sum(int(x) for x in sys.stdin.read().split()), *sys.argv[1:])', [
      { stdin: '1 2 3', expected: '6' },
      { stdin: '2 2', expected: '5' },
      { stdin: '1', args: ['a b', 'c'], expected: '1 a b c' },
    ]);
    expect(verdicts.map((v) => v.outcome)).toEqual(['passed', 'failed', 'passed']);
    expect(verdicts[1]).toMatchObject({ expected: '5', actual: '4\n', exitCode: 0 });
  });

  it('lets a run take as long as its tests need (three tests of about a second each)', async () => {
    const verdicts = await run('import time\ntime.sleep(0.9)\nprint("slept")', [
      { expected: 'slept' },
      { expected: 'slept' },
      { expected: 'slept' },
    ]);
    expect(verdicts.map((v) => v.outcome)).toEqual(['passed', 'passed', 'passed']);
  });

  it('kills an infinite loop at the time limit (timeout)', async () => {
    const verdict = only(await run('while True:\n    pass', [{}], { cpuSeconds: 0.5, memoryMb: 64 }));
    expect(verdict.outcome).toBe('timeout');
    expect(verdict.timeMs).toBeGreaterThanOrEqual(450);
  });

  it('stops a memory hog at the memory limit (memory)', async () => {
    const verdict = only(await run('a = []\nwhile True:\n    a.append(bytearray(8 * 1024 * 1024))', [{}]));
    expect(verdict.outcome).toBe('memory');
  });

  it('contains a fork bomb while a run beside it still passes', async () => {
    const bomb = await enqueue(
      'import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass',
      [{}],
      { cpuSeconds: 1, memoryMb: 64 },
    );
    const normal = await enqueue('print("fine")', [{ expected: 'fine' }]);
    expect(only((await finished(normal)).verdicts).outcome).toBe('passed');
    expect(['runtime-error', 'timeout']).toContain(only((await finished(bomb)).verdicts).outcome);
  });

  it("has no network: neither an outside address nor the host's own address and PostgreSQL port answer", async () => {
    const hostAddress =
      Object.values(networkInterfaces())
        .flat()
        .find((a) => a && a.family === 'IPv4' && !a.internal)?.address ?? '10.0.0.1';
    const verdicts = await run(
      'import socket, sys\nsocket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=3)\nprint("reached")',
      [{ args: ['1.1.1.1', '80'] }, { args: [hostAddress, '5432'] }],
    );
    expect(verdicts.map((v) => v.outcome)).toEqual(['runtime-error', 'runtime-error']);
    expect(verdicts[1]?.stderr).toMatch(/unreachable|refused|timed out/i);
  });

  it("cannot read the host's files", async () => {
    const secret = `/tmp/runner-secret-${randomBytes(6).toString('hex')}`;
    writeFileSync(secret, 'top secret');
    try {
      const verdict = only(await run(`print(open(${JSON.stringify(secret)}).read())`, [{}]));
      expect(verdict.outcome).toBe('runtime-error');
      expect(verdict.stderr).toContain('No such file');
    } finally {
      rmSync(secret, { force: true });
    }
  });

  it('cannot write outside its work folder (read-only root filesystem)', async () => {
    const verdicts = await run('import sys\nopen(sys.argv[1], "w").write("x")', [
      { args: ['/usr/x'] },
      { args: ['/home/x'] },
      { args: ['/opt/harness/harness.sh'] },
    ]);
    expect(verdicts.map((v) => v.outcome)).toEqual(['runtime-error', 'runtime-error', 'runtime-error']);
    expect(verdicts[0]?.stderr).toMatch(/Read-only file system|Permission denied/);
  });

  it('caps a flood of output and marks it truncated (failed)', async () => {
    const verdict = only(await run('while True:\n    print("x" * 1000)', [{ expected: 'x' }]));
    expect(verdict.outcome).toBe('failed');
    expect(verdict.actual?.endsWith(TRUNCATED_MARKER)).toBe(true);
    expect(verdict.actual!.length).toBeLessThanOrEqual(4000);
  });

  it('leaves nothing of one run to the next, in a fresh container it removes afterwards', async () => {
    const write = 'open("left.txt", "w").write("x")\nopen("/tmp/left.txt", "w").write("x")\nprint("written")';
    expect(only(await run(write, [{ expected: 'written' }])).outcome).toBe('passed');
    const look = 'import os\nprint(os.path.exists("left.txt"), os.path.exists("/tmp/left.txt"), os.getuid())';
    expect(only(await run(look, [{ expected: 'False False 1000' }])).outcome).toBe('passed');
    const left = await docker.listContainers({
      all: true,
      filters: { label: [`${RUNNER_LABEL}=true`, `exam.orchestrator=${instance}`] },
    });
    expect(left).toEqual([]);
  });

  it('runs in a container without network, capabilities or a writable root, under the limits', async () => {
    const runId = await enqueue('import time\ntime.sleep(1.5)', [{}]);
    let info: Awaited<ReturnType<ReturnType<typeof docker.getContainer>['inspect']>> | undefined;
    const deadline = Date.now() + 10_000;
    while (!info && Date.now() < deadline) {
      const [container] = await docker.listContainers({
        filters: { label: [`${RUNNER_LABEL}=true`, `exam.orchestrator=${instance}`] },
      });
      if (container) info = await docker.getContainer(container.Id).inspect();
      else await new Promise((r) => setTimeout(r, 50));
    }
    await finished(runId);
    expect(info).toBeDefined();
    expect(info!.Config.User).toBe('1000:1000');
    expect(info!.HostConfig).toMatchObject({
      NetworkMode: 'none',
      ReadonlyRootfs: true,
      CapDrop: ['ALL'],
      SecurityOpt: ['no-new-privileges'],
      PidsLimit: 64,
      Memory: (64 + 64) * 1024 * 1024,
      MemorySwap: (64 + 64) * 1024 * 1024,
      NanoCpus: 1e9,
    });
    expect(info!.Config.Labels).toMatchObject({ [RUNNER_LABEL]: 'true', 'exam.orchestrator': instance });
  });

  it('removes the runner containers a replica that died mid-run left behind', async () => {
    const left = await docker.createContainer({
      Image: 'exam/runner-python',
      Entrypoint: ['sleep', '60'],
      Labels: { [RUNNER_LABEL]: 'true', 'exam.orchestrator': instance },
    });
    await new Promise((r) => setTimeout(r, 1100));
    expect(await app.runner.engine.removeStale(1000)).toBe(1);
    await expect(left.inspect()).rejects.toMatchObject({ statusCode: 404 });
  });
});
