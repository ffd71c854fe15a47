import type { WebSocket } from 'ws';

/** Wire shapes of the Kubernetes API for the fake API server (fake-kubernetes.ts): objects, Status, selectors, exec. */

export type Obj = {
  apiVersion?: string;
  kind?: string;
  metadata: {
    name: string;
    namespace?: string;
    uid?: string;
    resourceVersion?: string;
    creationTimestamp?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
  [key: string]: unknown;
};

export type Resource = 'pods' | 'services' | 'persistentvolumeclaims' | 'configmaps' | 'networkpolicies';
export const RESOURCES: Record<Resource, { kind: string; apiVersion: string }> = {
  pods: { kind: 'Pod', apiVersion: 'v1' },
  services: { kind: 'Service', apiVersion: 'v1' },
  persistentvolumeclaims: { kind: 'PersistentVolumeClaim', apiVersion: 'v1' },
  configmaps: { kind: 'ConfigMap', apiVersion: 'v1' },
  networkpolicies: { kind: 'NetworkPolicy', apiVersion: 'networking.k8s.io/v1' },
};

/** How a new pod behaves: Ready after a while, never Ready, or stuck on a bad image. */
export type PodBehaviour = 'ready' | 'never-ready' | 'image-pull-error';
export type ExecResult = { stdout: Buffer; stderr?: string; exitCode: number };
export type RecordedRequest = { method: string; path: string; query: URLSearchParams; body?: Obj; token?: string };

export const status = (code: number, reason: string, message: string, details: Record<string, unknown> = {}) => ({
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message,
  reason,
  details,
  code,
});

/** RFC 1123 label (pods, claims, policies, config maps take the longer subdomain; every name here is a label). */
const DNS_1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
/** RFC 1035 label: what a Service's name must be. */
const DNS_1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

export function selectorMatches(selector: string | null, labels: Record<string, string> = {}): boolean {
  if (!selector) return true;
  return selector.split(',').every((term) => {
    const t = term.trim();
    if (!t) return true;
    const notEqual = t.match(/^([^!=]+)!=(.*)$/);
    if (notEqual) return labels[notEqual[1]!] !== notEqual[2];
    const equal = t.match(/^([^!=]+)==?(.*)$/);
    if (equal) return labels[equal[1]!] === equal[2];
    if (t.startsWith('!')) return !(t.slice(1) in labels);
    return t in labels;
  });
}

export function fieldMatches(selector: string | null, object: Obj): boolean {
  if (!selector) return true;
  return selector.split(',').every((term) => {
    const [field, value] = term.split('=');
    if (field === 'metadata.name') return object.metadata.name === value;
    if (field === 'metadata.namespace') return object.metadata.namespace === value;
    return false;
  });
}

export const now = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');

export function invalidObject(resource: Resource, object: Obj): string | undefined {
  const name = object.metadata?.name ?? '';
  const pattern = resource === 'services' ? DNS_1035_LABEL : DNS_1123_LABEL;
  if (!pattern.test(name) || name.length > 63) return `metadata.name: Invalid value: "${name}"`;
  for (const [label, value] of Object.entries(object.metadata.labels ?? {}))
    if (value.length > 63 || !/^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/.test(value))
      return `metadata.labels: Invalid value: "${value}" (${label})`;
  return undefined;
}

type Container = { name: string; image: string };

/** A container the image of which cannot be pulled, as the kubelet reports it. */
export function pullErrorStatus(container: Container) {
  return {
    name: container.name,
    image: container.image,
    ready: false,
    restartCount: 0,
    state: {
      waiting: {
        reason: 'ErrImagePull',
        message: `rpc error: code = NotFound desc = failed to pull and unpack image "${container.image}": not found`,
      },
    },
  };
}

/** A running pod whose readiness probe passed. */
export function readyPodStatus(container: Container) {
  const at = now();
  return {
    phase: 'Running',
    hostIP: '10.0.1.4',
    podIP: '10.244.1.17',
    podIPs: [{ ip: '10.244.1.17' }],
    startTime: at,
    qosClass: 'Burstable',
    conditions: ['PodScheduled', 'Initialized', 'ContainersReady', 'Ready'].map((type) => ({
      type,
      status: 'True',
      lastProbeTime: null,
      lastTransitionTime: at,
    })),
    containerStatuses: [
      {
        name: container.name,
        image: container.image,
        imageID: `${container.image}@sha256:${'0'.repeat(64)}`,
        ready: true,
        started: true,
        restartCount: 0,
        state: { running: { startedAt: at } },
      },
    ],
  };
}

/** A command's outcome over the exec channels: stdout on 1, stderr on 2, its Status on 3, then the close. */
export function sendExecResult(ws: WebSocket, command: string[], result: ExecResult) {
  const frame = (channel: number, data: Buffer) => ws.send(Buffer.concat([Buffer.from([channel]), data]));
  // Large outputs arrive in many messages, as the kubelet's stream copies them.
  for (let at = 0; at < result.stdout.length; at += 16 * 1024) frame(1, result.stdout.subarray(at, at + 16 * 1024));
  if (result.stderr) frame(2, Buffer.from(result.stderr));
  const outcome =
    result.exitCode === 0
      ? { metadata: {}, status: 'Success' }
      : {
          metadata: {},
          status: 'Failure',
          message: `command terminated with non-zero exit code: error executing command [${command.join(' ')}], exit code ${result.exitCode}`,
          reason: 'NonZeroExitCode',
          details: { causes: [{ reason: 'ExitCode', message: String(result.exitCode) }] },
        };
  frame(3, Buffer.from(JSON.stringify(outcome)));
  ws.close(1000);
}

/**
 * How a runner pod's container ends once its stdin is closed (fake-kubernetes.ts plays the kubelet): what it wrote
 * to its log, its exit code and the kubelet's reason (Completed, Error, OOMKilled); 'hang' never ends by itself,
 * so only activeDeadlineSeconds (DeadlineExceeded) or a delete ends it.
 */
export type RunnerOutcome =
  { log: Buffer | string; exitCode: number; reason?: 'Completed' | 'Error' | 'OOMKilled' } | 'hang';

/**
 * The status the kubelet reports for a pod whose only container ended: Succeeded on exit 0, Failed otherwise; a
 * pod ended by its activeDeadlineSeconds is Failed with reason DeadlineExceeded, its container killed (137).
 */
export function endedPodStatus(
  current: Record<string, unknown> | undefined,
  container: Container,
  ending: { exitCode: number; reason: string; podReason?: string; podMessage?: string },
) {
  const at = now();
  const startedAt =
    ((current?.containerStatuses as Array<{ state?: { running?: { startedAt?: string } } }> | undefined)?.[0]?.state
      ?.running?.startedAt as string | undefined) ?? at;
  return {
    ...current,
    phase: ending.exitCode === 0 && !ending.podReason ? 'Succeeded' : 'Failed',
    ...(ending.podReason ? { reason: ending.podReason, message: ending.podMessage ?? '' } : {}),
    conditions: ['PodScheduled', 'Initialized', 'ContainersReady', 'Ready'].map((type) => ({
      type,
      status: type === 'PodScheduled' || type === 'Initialized' ? 'True' : 'False',
      lastProbeTime: null,
      lastTransitionTime: at,
      ...(type === 'Ready' || type === 'ContainersReady' ? { reason: 'PodCompleted' } : {}),
    })),
    containerStatuses: [
      {
        name: container.name,
        image: container.image,
        imageID: `${container.image}@sha256:${'0'.repeat(64)}`,
        ready: false,
        started: false,
        restartCount: 0,
        state: {
          terminated: {
            exitCode: ending.exitCode,
            reason: ending.reason,
            startedAt,
            finishedAt: at,
            containerID: `containerd://${'1'.repeat(64)}`,
          },
        },
      },
    ],
  };
}
