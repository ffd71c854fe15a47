import { readFileSync } from 'node:fs';
import { loadAllYaml, type V1NetworkPolicy, type V1Pod, type V1Role } from '@kubernetes/client-node';
import { loadConfig } from '../../config.ts';
import { RUNNER_DENY_POLICY } from '../../engine/kubernetes-runner-pod.ts';
import { RUNNER_LABEL } from '../../engine/runner-engine.ts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { verdictsOf } from './runner-verdicts.ts';
import { startFakeKubernetes, type FakeKubernetes } from '../../testing/fake-kubernetes.ts';
import {
  filesOf,
  jobOf,
  kubernetesRunnerFor,
  RUNNERS,
  seedRunnerPolicy,
  testLine,
} from '../../testing/kubernetes-runner.ts';
import type { RunJob } from '../../db/schema.ts';
import type { RunnerEngine } from '../../engine/runner-engine.ts';

let fake: FakeKubernetes;
let engine: RunnerEngine;

beforeEach(async () => {
  fake = await startFakeKubernetes({ namespaces: [RUNNERS, 'exam-workspaces'], readyAfterMs: 20 });
  seedRunnerPolicy(fake);
  engine = kubernetesRunnerFor(fake, { runtimeClassName: 'gvisor' });
});
afterEach(async () => {
  await fake.close();
});

/** The harness answering each test's stdin upper-cased, from the bundle it was given. */
async function upperHarness(stdin: Buffer) {
  const files = await filesOf(stdin);
  const tests = Object.keys(files).filter((f) => /^tests\/\d+\/stdin$/.test(f)).length;
  const lines = Array.from({ length: tests }, (_, i) =>
    testLine(files.nonce!, i, files[`tests/${i}/stdin`]!.toUpperCase()),
  );
  return `${lines.join('\n')}\nDONE ${files.nonce}\n`;
}

const outcomes = async (job: RunJob) => {
  const execution = await engine.execute(job);
  return { execution, outcomes: verdictsOf(job.tests, job.limits, execution).verdicts.map((v) => v.outcome) };
};

describe('Kubernetes runner engine', () => {
  it('runs each run in a pod confined as the Docker engine confines its container', async () => {
    fake.state.runner = async (_pod, stdin) => ({ log: await upperHarness(stdin), exitCode: 0 });
    await engine.execute(jobOf('print(input().upper())', [{ stdin: 'a', expected: 'A' }]));
    const [pod] = fake.created('pods') as unknown as V1Pod[];
    const spec = pod!.spec!;
    const container = spec.containers[0]!;
    expect(pod!.metadata!.labels).toEqual({
      'exam.runner': 'true',
      'exam.orchestrator': 'test',
      'exam.runner-language': 'python',
    });
    expect(pod!.metadata!.labels!['exam.managed']).toBeUndefined();
    expect(spec.securityContext).toEqual({
      runAsNonRoot: true,
      runAsUser: 1000,
      runAsGroup: 1000,
      fsGroup: 1000,
      seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(container.securityContext).toEqual({
      runAsNonRoot: true,
      runAsUser: 1000,
      runAsGroup: 1000,
      privileged: false,
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ['ALL'] },
      seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(spec.automountServiceAccountToken).toBe(false);
    expect(spec.enableServiceLinks).toBe(false);
    expect([spec.hostNetwork, spec.hostPID, spec.hostIPC]).toEqual([false, false, false]);
    expect(spec.dnsPolicy).toBe('None');
    expect(spec.runtimeClassName).toBe('gvisor');
    expect(spec.restartPolicy).toBe('Never');
    // One test at one CPU second: 10 s of start-up and (2 × 1 + 2) s for the test (runner-engine.ts runDeadlineMs).
    expect(spec.activeDeadlineSeconds).toBe(14);
    expect(container.image).toBe('exam/runner-python');
    expect(container.resources!.limits).toEqual({ memory: '128Mi', cpu: '1', 'ephemeral-storage': '17Mi' });
    expect(container.resources!.requests).toEqual(container.resources!.limits);
    expect([container.stdin, container.stdinOnce, container.tty]).toEqual([true, true, false]);
    expect(container.env).toEqual([
      { name: 'RUNNER_TESTS', value: '1' },
      { name: 'RUNNER_CPU_SECONDS', value: '1' },
      { name: 'RUNNER_MEMORY_MB', value: '64' },
      { name: 'RUNNER_OUTPUT_MAX', value: '65536' },
    ]);
    expect(spec.volumes).toEqual([
      { name: 'work', emptyDir: { medium: 'Memory', sizeLimit: '66Mi' } },
      { name: 'tmp', emptyDir: { medium: 'Memory', sizeLimit: '32Mi' } },
    ]);
    expect(spec.volumes!.some((v) => 'hostPath' in v)).toBe(false);
    expect(container.volumeMounts).toEqual([
      { name: 'work', mountPath: '/work' },
      { name: 'tmp', mountPath: '/tmp' },
    ]);
    // Deleted after the run.
    expect(fake.names('pods', RUNNERS)).toEqual([]);
  });

  it('leaves the runtime class to the node when none is configured', async () => {
    engine = kubernetesRunnerFor(fake);
    fake.state.runner = async (_pod, stdin) => ({ log: await upperHarness(stdin), exitCode: 0 });
    await engine.execute(jobOf('x', [{ stdin: 'a' }]));
    expect((fake.created('pods')[0] as unknown as V1Pod).spec!.runtimeClassName).toBeUndefined();
  });

  it("delivers the bundle on the container's stdin through attach and reads the verdicts from its log", async () => {
    let bundle: Record<string, string> = {};
    fake.state.runner = async (_pod, stdin) => {
      bundle = await filesOf(stdin);
      return { log: `harness starting\n${await upperHarness(stdin)}`, exitCode: 0 };
    };
    const job = jobOf('print(input().upper())', [
      { stdin: 'abc', expected: 'ABC', args: ['--fast'] },
      { stdin: 'xyz', expected: 'nope' },
    ]);
    const { execution, outcomes: verdicts } = await outcomes(job);
    expect(bundle['main.py']).toBe('print(input().upper())');
    expect(bundle['tests/0/stdin']).toBe('abc');
    expect(bundle['tests/0/args']).toBe('--fast\0');
    expect(bundle.nonce).toMatch(/^[0-9a-f]{24}$/);
    // A passing test and a failing one, as the orchestrator compares them.
    expect(verdicts).toEqual(['passed', 'failed']);
    expect(execution.killed).toBe(false);
    expect(execution.done).toBe(true);
    const attach = fake.requests.find((r) => r.path.endsWith('/attach'))!;
    expect(attach.path).toMatch(new RegExp(`^/api/v1/namespaces/${RUNNERS}/pods/exam-run-[0-9a-f]{16}/attach$`));
    expect(Object.fromEntries(attach.query)).toMatchObject({
      container: 'runner',
      stdin: 'true',
      stdout: 'false',
      stderr: 'false',
      tty: 'false',
    });
    const log = fake.requests.find((r) => r.path.endsWith('/log'))!;
    expect(log.query.get('follow')).toBe('true');
    expect(log.query.get('container')).toBe('runner');
    expect(fake.names('pods', RUNNERS)).toEqual([]);
  });

  it('closes stdin by closing the attach connection on an API server without v5 (stdinOnce makes it EOF)', async () => {
    fake.state.channelProtocols = ['v4.channel.k8s.io'];
    let bundle: Record<string, string> = {};
    fake.state.runner = async (_pod, stdin) => {
      bundle = await filesOf(stdin);
      return { log: await upperHarness(stdin), exitCode: 0 };
    };
    const job = jobOf('print(input().upper())', [{ stdin: 'abc', expected: 'ABC' }]);
    expect((await outcomes(job)).outcomes).toEqual(['passed']);
    expect(bundle['tests/0/stdin']).toBe('abc');
  });

  it("ignores lines without this run's nonce, as the Docker engine does", async () => {
    fake.state.runner = async (_pod, stdin) => {
      const { nonce } = await filesOf(stdin);
      return { log: `${testLine('forged', 0, 'A')}\n${testLine(nonce!, 0, 'B')}\nDONE ${nonce}\n`, exitCode: 0 };
    };
    const job = jobOf('x', [{ stdin: 'a', expected: 'A' }]);
    expect((await outcomes(job)).outcomes).toEqual(['failed']);
  });

  it('reads a container that exits non-zero by its lines, and a harness that stopped early leaves timeouts', async () => {
    fake.state.runner = async (_pod, stdin) => {
      const { nonce } = await filesOf(stdin);
      return { log: `${testLine(nonce!, 0, 'A')}\nFATAL something\n`, exitCode: 2, reason: 'Error' };
    };
    const job = jobOf('x', [
      { stdin: 'a', expected: 'A' },
      { stdin: 'b', expected: 'B' },
    ]);
    const { execution, outcomes: verdicts } = await outcomes(job);
    expect(verdicts).toEqual(['passed', 'timeout']);
    expect(execution.done).toBe(false);
  });

  it('gives the test in progress a memory verdict when the container is OOMKilled, and runs the rest in a fresh pod', async () => {
    const seen: string[][] = [];
    fake.state.runner = async (_pod, stdin) => {
      const files = await filesOf(stdin);
      const stdins = Object.keys(files)
        .filter((f) => /^tests\/\d+\/stdin$/.test(f))
        .sort()
        .map((f) => files[f]!);
      seen.push(stdins);
      // The memory cgroup's OOM killer ends the whole container (memory.oom.group) at the test reading 'big'.
      const lines: string[] = [];
      for (const [i, input] of stdins.entries()) {
        if (input === 'big') return { log: lines.join('\n') + '\n', exitCode: 137, reason: 'OOMKilled' };
        lines.push(testLine(files.nonce!, i, input.toUpperCase()));
      }
      return { log: `${lines.join('\n')}\nDONE ${files.nonce}\n`, exitCode: 0 };
    };
    const job = jobOf('x', [
      { stdin: 'a', expected: 'A' },
      { stdin: 'big', expected: 'BIG' },
      { stdin: 'c', expected: 'C' },
      { stdin: 'd', expected: 'wrong' },
    ]);
    const { execution, outcomes: verdicts } = await outcomes(job);
    expect(verdicts).toEqual(['passed', 'memory', 'passed', 'failed']);
    expect(seen).toEqual([
      ['a', 'big', 'c', 'd'],
      ['c', 'd'],
    ]);
    expect(execution.killed).toBe(false);
    expect(fake.created('pods')).toHaveLength(2);
    expect(fake.names('pods', RUNNERS)).toEqual([]);
  });

  it('reads an OOMKilled compile as a compile error', async () => {
    fake.state.runner = () => ({ log: '', exitCode: 137, reason: 'OOMKilled' });
    const job = jobOf('int main() {}', [{ stdin: '', expected: '' }], { language: 'cpp' });
    const { execution, outcomes: verdicts } = await outcomes(job);
    expect(verdicts).toEqual(['compile-error']);
    expect(execution.compile?.status).toBe(137);
    expect(fake.created('pods')).toHaveLength(1);
  });

  it("ends a run at its deadline through the pod's activeDeadlineSeconds (DeadlineExceeded): tests not reached are timeouts", async () => {
    engine = kubernetesRunnerFor(fake, { maxRunMs: 1000 });
    fake.state.runner = () => 'hang';
    const job = jobOf('while True: pass', [{ stdin: 'a', expected: 'A' }]);
    const { execution, outcomes: verdicts } = await outcomes(job);
    expect((fake.created('pods')[0] as unknown as V1Pod).spec!.activeDeadlineSeconds).toBe(1);
    expect(execution.killed).toBe(true);
    expect(verdicts).toEqual(['timeout']);
    const ended = fake.requests.filter((r) => r.method === 'DELETE');
    expect(ended).toHaveLength(1);
    expect(fake.names('pods', RUNNERS)).toEqual([]);
  });

  it('fails the run on the runner side when its image cannot be pulled, and deletes the pod', async () => {
    fake.state.podBehaviour = () => 'image-pull-error';
    await expect(engine.execute(jobOf('x', [{ stdin: 'a' }]))).rejects.toThrow(/cannot start: ErrImagePull/);
    expect(fake.names('pods', RUNNERS)).toEqual([]);
  });

  it('is available with its namespace and deny-all policy, and refuses runs without the policy or the rights', async () => {
    expect(await engine.unavailableReason('python')).toBeUndefined();

    const noPolicy = await startFakeKubernetes({ namespaces: [RUNNERS] });
    try {
      const reason = await kubernetesRunnerFor(noPolicy).unavailableReason('python');
      expect(reason?.kind).toBe('engine-refused');
      expect(reason?.detail).toMatch(/NetworkPolicy runner-deny-all is missing in exam-runners/);
      noPolicy.state.forbidden = true;
      const refused = await kubernetesRunnerFor(noPolicy).unavailableReason('python');
      expect(refused).toMatchObject({ kind: 'engine-refused' });
      expect(refused?.detail).toMatch(/refused the orchestrator in the runners' namespace exam-runners \(403/);
    } finally {
      await noPolicy.close();
    }
  });

  it("removes leftover runner pods by label on start, never a live run's pod, another instance's or a workspace's", async () => {
    const make = (name: string, labels: Record<string, string>, namespace = RUNNERS) =>
      fake.seed(
        'pods',
        {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name, labels },
          spec: { activeDeadlineSeconds: 14, containers: [{ name: 'runner', image: 'exam/runner-python' }] },
        },
        namespace,
      );
    const own = { 'exam.runner': 'true', 'exam.orchestrator': 'test' };
    make('exam-run-orphan', own);
    make('exam-run-finished', own);
    make('exam-run-live', own);
    make('exam-run-other', { 'exam.runner': 'true', 'exam.orchestrator': 'other' });
    make('exam-ws-editor', { 'exam.managed': 'true', 'exam.orchestrator': 'test' });
    const ago = (ms: number) => new Date(Date.now() - ms).toISOString().replace(/\.\d+Z$/, 'Z');
    // A replica died 10 minutes into its run: past the pod's deadline, start-up and a minute.
    fake.modify('pods', 'exam-run-orphan', (p) => void (p.metadata.creationTimestamp = ago(10 * 60_000)), RUNNERS);
    fake.modify('pods', 'exam-run-other', (p) => void (p.metadata.creationTimestamp = ago(10 * 60_000)), RUNNERS);
    fake.modify(
      'pods',
      'exam-run-finished',
      (p) =>
        void (p.status = {
          phase: 'Succeeded',
          containerStatuses: [{ name: 'runner', state: { terminated: { exitCode: 0, finishedAt: ago(120_000) } } }],
        }),
      RUNNERS,
    );
    expect(await engine.countContainers()).toBe(3);
    expect(await engine.removeStale(2 * 3600_000)).toBe(2);
    expect(fake.names('pods', RUNNERS)).toEqual(['exam-run-live', 'exam-run-other', 'exam-ws-editor']);
    const deleteRequests = fake.requests.filter((r) => r.method === 'DELETE').map((r) => r.path.split('/').pop());
    expect(deleteRequests.sort()).toEqual(['exam-run-finished', 'exam-run-orphan']);
    const list = fake.requests.find((r) => r.method === 'GET' && r.path === `/api/v1/namespaces/${RUNNERS}/pods`)!;
    expect(list.query.get('labelSelector')).toBe('exam.runner=true,exam.orchestrator=test');
  });

  it('kills a run whose output passes the cap, as the Docker engine does', async () => {
    fake.state.runner = () => ({ log: 'x'.repeat(400_000), exitCode: 0 });
    const execution = await engine.execute(jobOf('x', [{ stdin: 'a', expected: 'A' }]));
    expect(execution.killed).toBe(true);
    expect(execution.tests.size).toBe(0);
    expect(fake.names('pods', RUNNERS)).toEqual([]);
  });
});

/** The deployment's manifests as infra/k8s generates them (`pnpm --filter @exam/k8s generate`). */
const generated = (file: string) =>
  loadAllYaml(readFileSync(new URL(`../../../../../infra/k8s/generated/${file}`, import.meta.url), 'utf8')) as Array<{
    kind: string;
    metadata: { name: string; namespace: string };
  }>;

/** The RBAC verb and resource the API server authorises a recorded request as. */
function authorisedAs(request: { method: string; path: string; query: URLSearchParams }) {
  const [, , , , , resource, name, sub] = request.path.replace(/^\/apis\/networking\.k8s\.io/, '/api').split('/');
  const full = sub ? `${resource}/${sub}` : resource!;
  if (request.method === 'POST') return `create ${full}`;
  if (request.method === 'DELETE') return `delete ${full}`;
  if (!name) return request.query.get('watch') === 'true' ? `watch ${full}` : `list ${full}`;
  return `get ${full}${resource === 'networkpolicies' ? `/${name}` : ''}`;
}

describe("the runner engine and infra/k8s's manifests", () => {
  it("run in the namespace the deployment makes, whose policy selects the engine's label", () => {
    const namespace = loadConfig({}).RUNNER_NAMESPACE;
    const policy = generated('03-network-policies.yaml').find(
      (o) => o.metadata.name === RUNNER_DENY_POLICY && o.metadata.namespace === namespace,
    ) as V1NetworkPolicy | undefined;
    expect(policy?.spec?.podSelector?.matchLabels).toEqual({ [RUNNER_LABEL]: 'true' });
    expect(policy?.spec?.policyTypes).toEqual(['Ingress', 'Egress']);
  });

  it("makes only requests the orchestrator's Role in the runners' namespace grants", async () => {
    fake.state.runner = async (_pod, stdin) => ({ log: await upperHarness(stdin), exitCode: 0 });
    await engine.unavailableReason('python');
    await engine.execute(jobOf('x', [{ stdin: 'a', expected: 'A' }]));
    await engine.removeStale(0);
    const role = generated('02-rbac.yaml').find((o) => o.kind === 'Role' && o.metadata.namespace === RUNNERS) as V1Role;
    const granted = new Set(
      role.rules!.flatMap((r) =>
        r.resources!.flatMap((res) =>
          r.verbs.map((v) => `${v} ${res}${r.resourceNames ? `/${r.resourceNames.join(',')}` : ''}`),
        ),
      ),
    );
    const made = [...new Set(fake.requests.map(authorisedAs))].sort();
    expect(made).toEqual(
      [
        'create pods',
        'delete pods',
        'get networkpolicies/runner-deny-all',
        'get pods/attach',
        'get pods/log',
        'list pods',
        'watch pods',
      ].sort(),
    );
    for (const request of made) expect(granted.has(request), request).toBe(true);
    expect(fake.requests.every((r) => r.path.includes(`/namespaces/${RUNNERS}/`))).toBe(true);
  });
});
