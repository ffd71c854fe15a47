import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { CatalogueEntry } from '@exam/domain/workspace';
import { AGENT_RELAY_HOST } from '@exam/domain/workspace-agents';
import { CoreV1Api, NetworkingV1Api, type KubeConfig, type V1Pod } from '@kubernetes/client-node';
import type { Config } from '../config.ts';
import {
  LABELS,
  tarOf,
  type ManagedWorkspace,
  type StartedWorkspace,
  type WorkspaceEngine,
  type WorkspaceSpec,
  type WorkspaceWrite,
} from './engine.ts';
import {
  apiFailureOf,
  describeFailure,
  ignoreNotFound,
  isAlreadyExists,
  isNotFound,
  loadKubeConfig,
} from './kubernetes-client.ts';
import {
  claimOf,
  egressPolicyOf,
  isLabelValue,
  labelsOf,
  managedSelector,
  objectName,
  readerPodOf,
  serviceOf,
  volumeNameOf,
  workspacePodOf,
  type PodSettings,
} from './kubernetes-objects.ts';
import { execTar, execUntar, waitForReady } from './kubernetes-pods.ts';

export type KubernetesEngineOptions = PodSettings & {
  kubeConfig: KubeConfig;
  /** How long a new pod may take to become Ready (scheduling, attaching the claim, pulling the image). */
  readyTimeoutMs: number;
  /** WORKSPACE_HOST_ID; unset, the uid of the namespace's kube-root-ca.crt ConfigMap (see hostId). */
  hostId?: string;
  /**
   * llm-gateway's URL (LLM_GATEWAY_URL, its Service): a workspace's agents reach its agent endpoint directly, by
   * the Service's address under the name exam-ai (workspace pods resolve no name). Unset: no agent endpoint.
   */
  agentGatewayUrl?: string;
};

/** The engine's options as the configuration names them. */
export function kubernetesEngineOptions(config: Config): KubernetesEngineOptions {
  return {
    kubeConfig: loadKubeConfig({ ...(config.KUBECONFIG ? { kubeconfig: config.KUBECONFIG } : {}) }),
    namespace: config.WORKSPACE_NAMESPACE,
    instance: config.WORKSPACE_INSTANCE,
    ...(config.WORKSPACE_HOST_ID ? { hostId: config.WORKSPACE_HOST_ID } : {}),
    memoryMb: config.WORKSPACE_MEMORY_MB,
    cpus: config.WORKSPACE_CPUS,
    tmpMb: config.WORKSPACE_TMP_MB,
    imagePullPolicy: config.WORKSPACE_IMAGE_PULL_POLICY,
    ...(config.WORKSPACE_STORAGE_CLASS ? { storageClass: config.WORKSPACE_STORAGE_CLASS } : {}),
    volumeSize: config.WORKSPACE_VOLUME_SIZE,
    readyTimeoutMs: config.WORKSPACE_POD_READY_TIMEOUT_SECONDS * 1000,
    agentGatewayUrl: config.LLM_GATEWAY_URL,
  };
}

/** The gateway's address as the orchestrator resolves it (in a cluster: its Service's ClusterIP). */
async function gatewayAddress(url: string | undefined): Promise<string | undefined> {
  if (!url) return undefined;
  const host = new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
  return isIP(host) ? host : (await lookup(host)).address;
}

/** Creates an object, or leaves the one already there (a restarted session's claim, a retried start). */
async function createOrKeep(create: () => Promise<unknown>): Promise<void> {
  try {
    await create();
  } catch (err) {
    if (!isAlreadyExists(err)) throw err;
  }
}

/**
 * Workspaces as pods in one namespace of a Kubernetes cluster, through the API server: each with its attempt's
 * claim, a ClusterIP Service the editor proxy reaches, and a NetworkPolicy for its egress rule. Every replica of
 * the orchestrator sees the same pods, so the cluster (not a machine) is the "host" sessions are recorded on.
 */
export function createKubernetesEngine(opts: KubernetesEngineOptions): WorkspaceEngine {
  // Selectors and the Service's selector use it as a label value; WORKSPACE_INSTANCE allows a little more.
  if (!isLabelValue(opts.instance))
    throw new Error(
      `WORKSPACE_INSTANCE "${opts.instance}" cannot be a Kubernetes label value (63 characters at most, alphanumeric at both ends)`,
    );
  const core = opts.kubeConfig.makeApiClient(CoreV1Api);
  const networking = opts.kubeConfig.makeApiClient(NetworkingV1Api);
  const { namespace } = opts;
  let hostId: Promise<string> | undefined = opts.hostId ? Promise.resolve(opts.hostId) : undefined;
  let recentlyOk = 0;

  /** Removes a workspace's pod, Service and policy, which share its name; the claim stays. */
  async function removeObjects(name: string) {
    await Promise.all([
      ignoreNotFound(core.deleteNamespacedPod({ name, namespace, gracePeriodSeconds: 0 })),
      ignoreNotFound(core.deleteNamespacedService({ name, namespace })),
      ignoreNotFound(networking.deleteNamespacedNetworkPolicy({ name, namespace })),
    ]);
  }

  /** Creates the pod; one left by an earlier attempt at this session is replaced, since its spec may differ. */
  async function createPod(pod: V1Pod): Promise<V1Pod> {
    try {
      return await core.createNamespacedPod({ namespace, body: pod });
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
      await core.deleteNamespacedPod({ name: pod.metadata!.name!, namespace, gracePeriodSeconds: 0 });
      return await core.createNamespacedPod({ namespace, body: pod });
    }
  }

  return {
    kind: 'kubernetes',

    /**
     * The uid of the kube-root-ca.crt ConfigMap Kubernetes puts in every namespace: the same for every replica in
     * this cluster and namespace, different in any other (a namespace of the same name elsewhere has its own).
     * A Role cannot grant reading the Namespace object itself, which is cluster-scoped.
     */
    hostId() {
      hostId ??= core.readNamespacedConfigMap({ name: 'kube-root-ca.crt', namespace }).then(
        (map) => {
          if (!map.metadata?.uid) throw new Error(`the ConfigMap kube-root-ca.crt in ${namespace} has no uid`);
          return `kubernetes:${map.metadata.uid}`;
        },
        (err: unknown) => {
          hostId = undefined;
          throw err;
        },
      );
      return hostId;
    },

    async unavailableReason() {
      if (Date.now() - recentlyOk < 2000) return undefined;
      try {
        await core.listNamespacedPod({ namespace, limit: 1, labelSelector: managedSelector(opts.instance) });
        recentlyOk = Date.now();
        return undefined;
      } catch (err) {
        const failure = apiFailureOf(err);
        if (failure?.code === 401 || failure?.code === 403)
          return {
            kind: 'engine-refused',
            detail: `the Kubernetes API refused the orchestrator in the namespace ${namespace} (${failure.code}: ${failure.message}); see infra/k8s/src/rbac.ts`,
          };
        if (failure?.code === 404)
          return {
            kind: 'engine-refused',
            detail: `the namespace ${namespace} does not exist on the Kubernetes cluster`,
          };
        return { kind: 'engine-unreachable', detail: `the Kubernetes API is not reachable (${describeFailure(err)})` };
      }
    },

    // Nodes pull images themselves, and the API cannot tell which a node has; a missing image shows as the pod's
    // ErrImagePull while start waits, which fails the start with that reason.
    async entryUnavailableReason(_entry: CatalogueEntry) {
      return undefined;
    },

    async start(spec: WorkspaceSpec): Promise<StartedWorkspace> {
      // Every pod gets the name, warm ones too; a gateway that cannot be resolved now leaves it out, not the pod.
      const agentGatewayAddress = await gatewayAddress(opts.agentGatewayUrl).catch(() => undefined);
      const pod = workspacePodOf(spec, { ...opts, ...(agentGatewayAddress ? { agentGatewayAddress } : {}) });
      const name = pod.metadata!.name!;
      await createOrKeep(() => core.createNamespacedPersistentVolumeClaim({ namespace, body: claimOf(spec, opts) }));
      try {
        // The policy goes first, so the pod never runs without its egress rule.
        await createOrKeep(() =>
          networking.createNamespacedNetworkPolicy({ namespace, body: egressPolicyOf(spec, opts) }),
        );
        await createOrKeep(() => core.createNamespacedService({ namespace, body: serviceOf(spec, opts) }));
        const created = await createPod(pod);
        await waitForReady(opts.kubeConfig, core, created, opts.readyTimeoutMs);
        return { handle: name, target: `${name}.${namespace}.svc:${spec.entry.port}` };
      } catch (err) {
        await removeObjects(name).catch(() => undefined);
        throw err;
      }
    },

    async isRunning(handle: string) {
      try {
        const pod = await core.readNamespacedPod({ name: handle, namespace });
        return pod.status?.phase === 'Running' && !pod.metadata?.deletionTimestamp;
      } catch (err) {
        if (isNotFound(err)) return false;
        throw err;
      }
    },

    remove: removeObjects,

    async list(): Promise<ManagedWorkspace[]> {
      const pods = await core.listNamespacedPod({ namespace, labelSelector: managedSelector(opts.instance) });
      return pods.items.map((pod) => {
        const labels = labelsOf(pod.metadata ?? {});
        return {
          id: labels[LABELS.sessionId] ?? '',
          handle: pod.metadata?.name ?? '',
          running: pod.status?.phase === 'Running' && !pod.metadata?.deletionTimestamp,
          labels,
        };
      });
    },

    async writeFiles(handle: string, dir: string, files: ReadonlyArray<WorkspaceWrite>) {
      if (files.length) await execUntar(opts.kubeConfig, { namespace, name: handle }, dir, await tarOf(files));
    },

    /** The gateway's Service itself (its port, its agent endpoint's path), by the hosts entry exam-ai. */
    async agentBaseUrl() {
      if (!opts.agentGatewayUrl) return undefined;
      const url = new URL(opts.agentGatewayUrl);
      const port = url.port || (url.protocol === 'https:' ? '443' : '80');
      return `${url.protocol}//${AGENT_RELAY_HOST}:${port}${url.pathname.replace(/\/+$/, '')}/api/agent`;
    },

    async archiveWorkspace(workspace: { handle: string }) {
      return execTar(opts.kubeConfig, { namespace, name: workspace.handle });
    },

    /**
     * A claim is only readable by mounting it in a pod, so a short-lived reader pod mounts it read-only and the
     * tar comes through exec, as from a workspace; the pod is deleted once the tar has been read.
     */
    async archiveVolume<T>(volume: string, entry: CatalogueEntry, read: (tar: NodeJS.ReadableStream) => Promise<T>) {
      const reader = readerPodOf(volume, entry, opts);
      const name = reader.metadata!.name!;
      try {
        await waitForReady(opts.kubeConfig, core, await createPod(reader), opts.readyTimeoutMs);
        return await read(await execTar(opts.kubeConfig, { namespace, name }));
      } finally {
        await ignoreNotFound(core.deleteNamespacedPod({ name, namespace, gracePeriodSeconds: 0 })).catch(
          () => undefined,
        );
      }
    },

    async removeVolume(volume: string) {
      await ignoreNotFound(core.deleteNamespacedPersistentVolumeClaim({ name: objectName(volume), namespace }));
    },

    async listVolumes() {
      const claims = await core.listNamespacedPersistentVolumeClaim({
        namespace,
        labelSelector: managedSelector(opts.instance),
      });
      return claims.items.map(volumeNameOf);
    },

    async close() {},
  };
}
