import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunReport } from '@exam/domain/coding';
import { TEST_SECRETS } from '@exam/server-kit/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runnerEngineFor } from '../../deps.ts';
import { buildTestApp, NO_ENGINE_SOCKET, testConfig } from '../../testing/app.ts';
import { startFakeKubernetes, type FakeKubernetes } from '../../testing/fake-kubernetes.ts';
import { RUNNERS, seedRunnerPolicy } from '../../testing/kubernetes-runner.ts';
import { canRunHarnessLocally, runHarnessLocally } from '../../testing/local-harness.ts';
import { testRunnerWorker } from '../../testing/runner.ts';

const internal = { 'x-internal-token': TEST_SECRETS.INTERNAL_TOKEN };

/**
 * The runner module on WORKSPACE_ENGINE=kubernetes, as server.ts wires it (deps.ts runnerEngineFor), against the
 * fake API server; the fake plays the runner pod's container by running the real harness
 * (infra/runners/harness/harness.sh) on this machine with the bundle that came through attach.
 */
describe('the code runner on Kubernetes (fake API server, real harness)', () => {
  let fake: FakeKubernetes;
  let app: Awaited<ReturnType<typeof buildTestApp>>;
  let dir: string;

  const run = async (payload: Record<string, unknown>) => {
    const response = await app.inject({ method: 'POST', url: '/internal/runs', headers: internal, payload });
    expect(response.statusCode, response.body).toBe(202);
    const worker = testRunnerWorker(app);
    expect(await worker.pass()).toBe(1);
    await worker.drain();
    const { runId } = response.json() as RunReport;
    return (await app.inject({ url: `/internal/runs/${runId}`, headers: internal })).json() as RunReport;
  };

  beforeAll(async () => {
    fake = await startFakeKubernetes({ namespaces: [RUNNERS], readyAfterMs: 20 });
    seedRunnerPolicy(fake);
    dir = mkdtempSync(join(tmpdir(), 'kubeconfig-'));
    const kubeconfig = join(dir, 'config');
    writeFileSync(
      kubeconfig,
      [
        'apiVersion: v1',
        'kind: Config',
        'clusters: [{ name: fake, cluster: { server: "' + fake.url + '", insecure-skip-tls-verify: true } }]',
        'users: [{ name: orchestrator, user: { token: orchestrator-token } }]',
        'contexts: [{ name: fake, context: { cluster: fake, user: orchestrator } }]',
        'current-context: fake',
      ].join('\n'),
    );
    const env = { WORKSPACE_ENGINE: 'kubernetes', KUBECONFIG: kubeconfig, WORKSPACE_INSTANCE: 'k8s-runner' };
    app = await buildTestApp({
      socketPath: NO_ENGINE_SOCKET,
      instance: 'k8s-runner',
      env,
      deps: { runnerEngine: await runnerEngineFor(testConfig({ ...env, DOCKER_SOCKET: NO_ENGINE_SOCKET })) },
    });
  });
  afterAll(async () => {
    await app.close();
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    fake.state.runner = runHarnessLocally;
  });

  it.skipIf(!canRunHarnessLocally())(
    "runs a question's tests end to end in a runner pod: the bundle through attach, the real harness's lines from the log",
    async () => {
      const report = await run({
        purpose: 'check',
        language: 'python',
        code: 'import sys\ns = input()\nif s == "boom":\n    sys.exit("no")\nprint(s.upper(), *sys.argv[1:])\n',
        tests: [
          { id: 't1', name: 'Upper', stdin: 'abc\n', expected: 'ABC', visible: true, points: 2 },
          { id: 't2', stdin: 'xyz\n', args: ['--x'], expected: 'XYZ --x', points: 3 },
          { id: 't3', stdin: 'abc\n', expected: 'not this', points: 1 },
          { id: 't4', stdin: 'boom\n', expected: 'BOOM', points: 1 },
        ],
        limits: { cpuSeconds: 1, memoryMb: 64 },
        attemptId: 'attempt-1',
        questionIndex: 0,
      });
      expect(report.state, JSON.stringify(report)).toBe('done');
      expect(report.verdicts.map((v) => [v.testId, v.outcome])).toEqual([
        ['t1', 'passed'],
        ['t2', 'passed'],
        ['t3', 'failed'],
        ['t4', 'runtime-error'],
      ]);
      expect(report.verdicts[2]!.actual).toBe('ABC\n');
      expect(report.verdicts[3]!.stderr).toBe('no\n');
      expect(report.points).toBe(5);
      // One pod, in the runners' namespace, deleted after the run.
      expect(fake.created('pods')).toHaveLength(1);
      expect(fake.names('pods', RUNNERS)).toEqual([]);
    },
  );
});
