import type { V1Pod } from '@kubernetes/client-node';
import type { RunJob } from '../db/schema.ts';
import { LABELS } from './engine.ts';
import { OUTPUT_MAX } from './runner-protocol.ts';
import { containerMemoryMb, RUNNER_LABEL, runnerImage } from './runner-engine.ts';

/** The runner's container inside the pod; attach and the log name it. */
export const RUNNER_CONTAINER = 'runner';

/**
 * The NetworkPolicy in the runners' namespace that selects every runner pod (by RUNNER_LABEL) and allows
 * nothing in or out (infra/k8s/src/network.ts makes it). The engine refuses runs while it is missing.
 */
export const RUNNER_DENY_POLICY = 'runner-deny-all';

/** Where runner pods go and how they are confined beyond what every run shares. */
export type RunnerPodSettings = {
  namespace: string;
  instance: string;
  imagePullPolicy: 'Always' | 'IfNotPresent' | 'Never';
  /** A RuntimeClass such as gVisor's `gvisor` (runsc) where the cluster has one; unset, the node's default runtime. */
  runtimeClassName?: string;
};

/** Selects this orchestrator instance's runner pods. */
export const runnerSelector = (instance: string) => `${RUNNER_LABEL}=true,${LABELS.instance}=${instance}`;

/** What the harness may print for a job (each test's two outputs in base64, the compiler's): the runner-engine cap. */
export const outputCapBytes = (job: RunJob) => Math.ceil((job.tests.length * 2 + 1) * (OUTPUT_MAX * 1.4 + 200));

/** The work folder's size, as the Docker engine's tmpfs: room for the build and the bundle twice over. */
export function workFolderMb(job: RunJob): number {
  const repositoryChars = (job.files ?? []).reduce((n, f) => n + f.content.length, 0);
  const inputBytes = job.tests.reduce((n, t) => n + t.stdin.length, job.code.length + repositoryChars);
  return 64 + 2 * Math.ceil(inputBytes / (1024 * 1024));
}

/**
 * One run's pod, the Kubernetes form of runner-engine.ts's container: user 1000 and no root, a read-only root,
 * no privilege escalation, no capabilities, RuntimeDefault seccomp, no API token, memory and one CPU, memory-backed
 * work folders, and the run's deadline as activeDeadlineSeconds, after which the kubelet kills it (DeadlineExceeded)
 * even when the orchestrator that started it is gone. It has no network: the runners' namespace's NetworkPolicy
 * (RUNNER_DENY_POLICY) selects it by RUNNER_LABEL and allows nothing. The bundle arrives on its standard input
 * through attach (stdinOnce: EOF once the attach closes its stdin); the harness's lines are read from its log.
 *
 * What the pod spec cannot say, and the Docker engine does: a pids limit (the kubelet's podPidsLimit sets it per
 * node) and the nofile/fsize ulimits (the runtime's defaults; the harness sets fsize per test itself).
 */
export function runnerPodOf(job: RunJob, name: string, deadlineSeconds: number, settings: RunnerPodSettings): V1Pod {
  const memory = `${containerMemoryMb(job)}Mi`;
  // The container's log is its only disk use (the root is read-only, the work folders are memory): what the
  // harness may print, and room for the kubelet's framing of each line.
  const ephemeral = `${Math.ceil((outputCapBytes(job) * 1.2) / (1024 * 1024)) + 16}Mi`;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: settings.namespace,
      // Not exam.managed: the workspace engine's re-adoption lists pods by it and would take this for an editor.
      labels: { [RUNNER_LABEL]: 'true', [LABELS.instance]: settings.instance, 'exam.runner-language': job.language },
    },
    spec: {
      restartPolicy: 'Never',
      activeDeadlineSeconds: deadlineSeconds,
      terminationGracePeriodSeconds: 0,
      automountServiceAccountToken: false,
      enableServiceLinks: false,
      hostNetwork: false,
      hostPID: false,
      hostIPC: false,
      // No resolver inside: the cluster's DNS is not even named (the policy would drop the packets anyway).
      dnsPolicy: 'None',
      dnsConfig: { nameservers: ['127.0.0.1'] },
      ...(settings.runtimeClassName ? { runtimeClassName: settings.runtimeClassName } : {}),
      securityContext: {
        runAsNonRoot: true,
        runAsUser: 1000,
        runAsGroup: 1000,
        fsGroup: 1000,
        seccompProfile: { type: 'RuntimeDefault' },
      },
      containers: [
        {
          name: RUNNER_CONTAINER,
          image: runnerImage(job.language),
          imagePullPolicy: settings.imagePullPolicy,
          stdin: true,
          stdinOnce: true,
          tty: false,
          workingDir: '/work',
          env: [
            { name: 'RUNNER_TESTS', value: String(job.tests.length) },
            { name: 'RUNNER_CPU_SECONDS', value: String(job.limits.cpuSeconds) },
            { name: 'RUNNER_MEMORY_MB', value: String(job.limits.memoryMb) },
            { name: 'RUNNER_OUTPUT_MAX', value: String(OUTPUT_MAX) },
          ],
          securityContext: {
            runAsNonRoot: true,
            runAsUser: 1000,
            runAsGroup: 1000,
            privileged: false,
            allowPrivilegeEscalation: false,
            readOnlyRootFilesystem: true,
            capabilities: { drop: ['ALL'] },
            seccompProfile: { type: 'RuntimeDefault' },
          },
          // Requests equal limits (Guaranteed): a test's wall-clock limit must not depend on its neighbours.
          resources: {
            limits: { memory, cpu: '1', 'ephemeral-storage': ephemeral },
            requests: { memory, cpu: '1', 'ephemeral-storage': ephemeral },
          },
          volumeMounts: [
            { name: 'work', mountPath: '/work' },
            { name: 'tmp', mountPath: '/tmp' },
          ],
        },
      ],
      // Memory-backed like the Docker engine's tmpfs, and counted against the memory limit as it is.
      volumes: [
        { name: 'work', emptyDir: { medium: 'Memory', sizeLimit: `${workFolderMb(job)}Mi` } },
        { name: 'tmp', emptyDir: { medium: 'Memory', sizeLimit: '32Mi' } },
      ],
    },
  };
}
