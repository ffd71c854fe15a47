import { createHash } from 'node:crypto';
import { WORKSPACE_FOLDER, type CatalogueEntry } from '@exam/domain/workspace';
import { AGENT_RELAY_HOST } from '@exam/domain/workspace-agents';
import type {
  V1NetworkPolicy,
  V1PersistentVolumeClaim,
  V1Pod,
  V1PodSecurityContext,
  V1SecurityContext,
  V1Service,
} from '@kubernetes/client-node';
import { editorPasswordHash, LABELS, type WorkspaceSpec } from './engine.ts';

/** How every workspace pod is confined, and where its objects go. */
export type PodSettings = {
  namespace: string;
  instance: string;
  memoryMb: number;
  cpus: number;
  tmpMb: number;
  imagePullPolicy: 'Always' | 'IfNotPresent' | 'Never';
  storageClass?: string;
  volumeSize: string;
  /**
   * llm-gateway's Service address, which the pod's `exam-ai` names (a hosts entry: the pod resolves no name);
   * the namespace's `to-llm-gateway` policy (infra/k8s) lets it reach the gateway's pods on their port.
   */
  agentGatewayAddress?: string;
};

/** The editor's container inside the pod; exec names it. */
export const EDITOR_CONTAINER = 'editor';

/** The original (unsanitised) labels and the volume's own name, kept where any string may go. */
const ANNOTATIONS = { labels: 'exam.labels', volume: 'exam.volume-name' } as const;

/**
 * A name every object kind here accepts: an RFC 1035 label (lowercase letters, digits and '-', a letter first,
 * at most 63 characters), which is stricter than the RFC 1123 subdomain pods and claims take and exactly what a
 * Service needs. Session ids (32 hex) pass as they are; anything else is cleaned and gets a hash of the
 * original, so two ids never share a name.
 */
export function objectName(raw: string): string {
  if (/^[a-z]([a-z0-9-]{0,61}[a-z0-9])?$/.test(raw)) return raw;
  const hash = createHash('sha256').update(raw).digest('hex').slice(0, 10);
  const cleaned = raw
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^[^a-z]+/, '')
    .slice(0, 63 - hash.length - 1)
    .replace(/-+$/, '');
  return cleaned ? `${cleaned}-${hash}` : `x-${hash}`;
}

/** A label value Kubernetes accepts: at most 63 characters of [A-Za-z0-9-_.], alphanumeric at both ends. */
export const isLabelValue = (value: string) => /^(([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9])?$/.test(value);

/**
 * Labels are what list and select by; a value Kubernetes would refuse (an owner id with '@', say) is left out
 * of the labels, and every label is also kept whole in an annotation that `labelsOf` reads back.
 */
function labelled(labels: Record<string, string>) {
  return {
    labels: Object.fromEntries(Object.entries(labels).filter(([, value]) => isLabelValue(value))),
    annotations: { [ANNOTATIONS.labels]: JSON.stringify(labels) },
  };
}

/** An object's labels as they were given, whether or not Kubernetes could hold them as labels. */
export function labelsOf(metadata: { labels?: Record<string, string>; annotations?: Record<string, string> }) {
  const kept = metadata.annotations?.[ANNOTATIONS.labels];
  try {
    if (kept) return { ...metadata.labels, ...(JSON.parse(kept) as Record<string, string>) };
  } catch {
    // A hand-edited annotation: the labels are still there.
  }
  return { ...metadata.labels };
}

/** The volume name the orchestrator knows a claim by (its own name when that was already valid). */
export const volumeNameOf = (claim: V1PersistentVolumeClaim) =>
  claim.metadata?.annotations?.[ANNOTATIONS.volume] ?? claim.metadata?.name ?? '';

/** Selects the objects of this orchestrator instance. */
export const managedSelector = (instance: string) => `${LABELS.managed}=true,${LABELS.instance}=${instance}`;

const managedLabels = (instance: string) => ({ [LABELS.managed]: 'true', [LABELS.instance]: instance });

export function claimOf(spec: WorkspaceSpec, settings: PodSettings): V1PersistentVolumeClaim {
  const { labels, annotations } = labelled({ ...spec.volume.labels, ...managedLabels(settings.instance) });
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: {
      name: objectName(spec.volume.name),
      namespace: settings.namespace,
      labels,
      annotations: { ...annotations, [ANNOTATIONS.volume]: spec.volume.name },
    },
    spec: {
      // One node mounts it at a time: the workspace pod, or later the reader pod of archiveVolume.
      accessModes: ['ReadWriteOnce'],
      resources: { requests: { storage: settings.volumeSize } },
      ...(settings.storageClass ? { storageClassName: settings.storageClass } : {}),
    },
  };
}

/** Milli-CPUs: Kubernetes quantities, as the Docker engine's NanoCpus. */
const millicores = (cpus: number) => `${Math.max(1, Math.round(cpus * 1000))}m`;

/**
 * The pod-level and container-level lockdown the Docker engine applies with User, CapDrop, no-new-privileges and
 * ReadonlyRootfs; it also passes Pod Security Admission's "restricted" profile (infra/k8s labels the namespace so).
 */
const POD_SECURITY: V1PodSecurityContext = {
  runAsNonRoot: true,
  runAsUser: 1000,
  runAsGroup: 1000,
  // A fresh claim's root is usually root-owned; the kubelet gives it to group 1000 (once, when it differs).
  fsGroup: 1000,
  fsGroupChangePolicy: 'OnRootMismatch',
  seccompProfile: { type: 'RuntimeDefault' },
};

const CONTAINER_SECURITY: V1SecurityContext = {
  runAsNonRoot: true,
  privileged: false,
  allowPrivilegeEscalation: false,
  readOnlyRootFilesystem: true,
  capabilities: { drop: ['ALL'] },
};

/**
 * The workspace's pod: the attempt's claim at the workspace folder, a memory-backed /tmp (the images keep HOME
 * there, infra/workspaces/vscode/Dockerfile) as the Docker engine's tmpfs, and the same limits. Kubernetes has
 * no per-pod PID limit in the pod spec (the kubelet's podPidsLimit sets it for a node), so WORKSPACE_PIDS_LIMIT
 * is the Docker engine's alone.
 */
export function workspacePodOf(spec: WorkspaceSpec, settings: PodSettings): V1Pod {
  const memory = `${settings.memoryMb}Mi`;
  const { labels, annotations } = labelled({
    ...spec.labels,
    ...managedLabels(settings.instance),
    [LABELS.sessionId]: spec.id,
    [LABELS.workspaceType]: spec.workspaceType,
  });
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: objectName(`exam-ws-${spec.id}`), namespace: settings.namespace, labels, annotations },
    spec: {
      restartPolicy: 'Never',
      // No API token and no environment naming the cluster's other Services inside the candidate's editor.
      automountServiceAccountToken: false,
      enableServiceLinks: false,
      ...(settings.agentGatewayAddress
        ? { hostAliases: [{ ip: settings.agentGatewayAddress, hostnames: [AGENT_RELAY_HOST] }] }
        : {}),
      terminationGracePeriodSeconds: 5,
      securityContext: POD_SECURITY,
      containers: [
        {
          name: EDITOR_CONTAINER,
          image: spec.entry.image,
          imagePullPolicy: settings.imagePullPolicy,
          // Docker's Cmd: the image's entrypoint (code-server) stays, these are its arguments.
          ...(spec.entry.command.length ? { args: spec.entry.command } : {}),
          workingDir: WORKSPACE_FOLDER,
          // A digest of the password, as the Docker engine passes it (engine.ts editorPasswordHash); only the
          // orchestrator may read pods in the workspaces' namespace (infra/k8s/src/rbac.ts).
          env: [{ name: 'HASHED_PASSWORD', value: editorPasswordHash(spec.password) }],
          ports: [{ name: 'editor', containerPort: spec.entry.port, protocol: 'TCP' }],
          // The Service sends traffic to a Ready pod only: Ready once the editor accepts connections.
          readinessProbe: { tcpSocket: { port: spec.entry.port }, periodSeconds: 1, failureThreshold: 3 },
          securityContext: CONTAINER_SECURITY,
          resources: {
            limits: { memory, cpu: millicores(settings.cpus) },
            // Memory is reserved whole (an editor is not evicted for using what it was promised); an idle
            // editor uses little CPU, so a quarter of its limit is reserved for scheduling.
            requests: { memory, cpu: millicores(settings.cpus / 4) },
          },
          volumeMounts: [
            { name: 'workspace', mountPath: WORKSPACE_FOLDER },
            { name: 'tmp', mountPath: '/tmp' },
          ],
        },
      ],
      volumes: [
        { name: 'workspace', persistentVolumeClaim: { claimName: objectName(spec.volume.name) } },
        // Counted against the memory limit, as the Docker engine's tmpfs is.
        { name: 'tmp', emptyDir: { medium: 'Memory', sizeLimit: `${settings.tmpMb}Mi` } },
      ],
    },
  };
}

/** What the editor proxy reaches: `<name>.<namespace>.svc:<port>`, routed to the pod while it is Ready. */
export function serviceOf(spec: WorkspaceSpec, settings: PodSettings): V1Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      name: objectName(`exam-ws-${spec.id}`),
      namespace: settings.namespace,
      labels: { ...managedLabels(settings.instance), [LABELS.sessionId]: spec.id },
    },
    spec: {
      type: 'ClusterIP',
      selector: { ...managedLabels(settings.instance), [LABELS.sessionId]: spec.id },
      ports: [{ name: 'editor', port: spec.entry.port, targetPort: spec.entry.port, protocol: 'TCP' }],
    },
  };
}

/** Private, link-local (cloud metadata at 169.254.169.254), loopback and shared address space. */
const NOT_PUBLIC_V4 = [
  '10.0.0.0/8',
  '172.16.0.0/12',
  '192.168.0.0/16',
  '169.254.0.0/16',
  '100.64.0.0/10',
  '127.0.0.0/8',
];
const NOT_PUBLIC_V6 = ['fc00::/7', 'fe80::/10', '::1/128'];

/**
 * The egress rule of one workspace, beside the namespace's default-deny (infra/k8s/src/network.ts). 'none' allows
 * nothing out, not even DNS, as the Docker engine's internal bridge. 'registries' allows DNS and ports 443 and 80
 * to public addresses only.
 *
 * What a NetworkPolicy cannot say: it matches addresses and ports, never host names, so it cannot hold the
 * workspace to EGRESS_ALLOWED_HOSTS the way the Docker engine's registry proxy does (engine/egress) — any public
 * host on 443 or 80 is reachable. A cluster that needs the name allowlist adds an egress gateway or a CNI with
 * DNS-aware policies (Cilium's toFQDNs, Calico's domains) on top. Policies also only ever add: another policy in
 * the namespace that allows more wins over this one, so the namespace's policies are part of the rule.
 */
export function egressPolicyOf(spec: WorkspaceSpec, settings: PodSettings): V1NetworkPolicy {
  const tcp = (port: number) => ({ protocol: 'TCP', port });
  const egress =
    spec.egress === 'registries'
      ? [
          {
            to: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'kube-system' } } }],
            ports: [{ protocol: 'UDP', port: 53 }, tcp(53)],
          },
          {
            to: [
              { ipBlock: { cidr: '0.0.0.0/0', except: NOT_PUBLIC_V4 } },
              { ipBlock: { cidr: '::/0', except: NOT_PUBLIC_V6 } },
            ],
            ports: [tcp(443), tcp(80)],
          },
        ]
      : [];
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: {
      name: objectName(`exam-ws-${spec.id}`),
      namespace: settings.namespace,
      labels: { ...managedLabels(settings.instance), [LABELS.sessionId]: spec.id },
    },
    spec: {
      podSelector: { matchLabels: { ...managedLabels(settings.instance), [LABELS.sessionId]: spec.id } },
      policyTypes: ['Egress'],
      egress,
    },
  };
}

/**
 * A pod that only holds a claim read-only for `tar` through exec (archiveVolume): nothing of the candidate's
 * code runs, it has no API token, and it ends itself after `activeDeadlineSeconds` if it is never removed.
 */
export function readerPodOf(volume: string, entry: CatalogueEntry, settings: PodSettings): V1Pod {
  const name = objectName(`exam-reader-${createHash('sha256').update(volume).digest('hex').slice(0, 16)}`);
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: settings.namespace,
      labels: { ...managedLabels(settings.instance), [LABELS.sessionId]: name },
    },
    spec: {
      restartPolicy: 'Never',
      automountServiceAccountToken: false,
      enableServiceLinks: false,
      activeDeadlineSeconds: 600,
      terminationGracePeriodSeconds: 0,
      securityContext: POD_SECURITY,
      containers: [
        {
          name: EDITOR_CONTAINER,
          image: entry.image,
          imagePullPolicy: settings.imagePullPolicy,
          command: ['sleep', '600'],
          securityContext: CONTAINER_SECURITY,
          resources: { limits: { memory: '128Mi', cpu: '250m' }, requests: { memory: '32Mi', cpu: '10m' } },
          volumeMounts: [{ name: 'workspace', mountPath: WORKSPACE_FOLDER, readOnly: true }],
        },
      ],
      volumes: [{ name: 'workspace', persistentVolumeClaim: { claimName: objectName(volume), readOnly: true } }],
    },
  };
}
