import { TestCaseSchema, type TestCase } from '@exam/domain/coding';
import { extract } from 'tar-stream';
import type { RunJob } from '../db/schema.ts';
import { kubeConfigForServer } from '../engine/kubernetes-client.ts';
import { createKubernetesRunnerEngine, type KubernetesRunnerOptions } from '../engine/kubernetes-runner-engine.ts';
import { RUNNER_DENY_POLICY } from '../engine/kubernetes-runner-pod.ts';
import { RUNNER_LABEL } from '../engine/runner-engine.ts';
import type { FakeKubernetes } from './fake-kubernetes.ts';

export const RUNNERS = 'exam-runners';

/** The runners' deny-all policy as infra/k8s applies it (the engine refuses runs without it). */
export function seedRunnerPolicy(fake: FakeKubernetes) {
  fake.seed(
    'networkpolicies',
    {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: RUNNER_DENY_POLICY },
      spec: { podSelector: { matchLabels: { [RUNNER_LABEL]: 'true' } }, policyTypes: ['Ingress', 'Egress'] },
    },
    RUNNERS,
  );
}

/** A Kubernetes runner engine on the fake API server. */
export function kubernetesRunnerFor(fake: FakeKubernetes, overrides: Partial<KubernetesRunnerOptions> = {}) {
  return createKubernetesRunnerEngine({
    kubeConfig: kubeConfigForServer(fake.url, { token: 'orchestrator-token' }),
    namespace: RUNNERS,
    instance: 'test',
    imagePullPolicy: 'IfNotPresent',
    startTimeoutMs: 5000,
    ...overrides,
  });
}

export function jobOf(code: string, tests: Array<Partial<TestCase>>, overrides: Partial<RunJob> = {}): RunJob {
  return {
    language: 'python',
    code,
    tests: tests.map((t, i) => TestCaseSchema.parse({ id: `t${i}`, ...t })),
    limits: { cpuSeconds: 1, memoryMb: 64 },
    setupScript: '',
    ...overrides,
  };
}

/** The files of a bundle as the harness would extract them. */
export async function filesOf(bundle: Buffer): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  const tar = extract();
  const done = new Promise<void>((resolve, reject) => {
    tar.on('entry', (header, stream, next) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: unknown) => chunks.push(c as Buffer));
      stream.on('end', () => {
        files[header.name] = Buffer.concat(chunks).toString('utf8');
        next();
      });
    });
    tar.on('finish', resolve);
    tar.on('error', reject);
  });
  tar.end(bundle);
  await done;
  return files;
}

const b64 = (s: string) => (s ? Buffer.from(s).toString('base64') : '-');

/** A harness's line for one test (infra/runners/harness/harness.sh's format). */
export const testLine = (nonce: string, index: number, stdout: string, status = 0, ms = 7) =>
  `TEST ${nonce} ${index} ${status} ${ms} 0 0 ${b64(stdout)} - 0`;
