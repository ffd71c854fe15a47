import type { CatalogueEntry } from '@exam/domain/workspace';
import type { Unavailable } from '@exam/domain/service-status';
import type Docker from 'dockerode';
import type { Config } from '../config.ts';
import { dockerClient, isNotFound } from './docker-client.ts';
import { createContainers, type ContainerLimits } from './docker-containers.ts';
import { AGENT_RELAY_HOST } from '@exam/domain/workspace-agents';
import { createNetworks, type AgentRelayOptions, type EgressProxyOptions } from './docker-networks.ts';
import { createLoopVolumes } from './docker-loop-volumes.ts';
import { createVolumeArchives } from './docker-volumes.ts';
import type { WorkspaceEngine } from './engine.ts';

const QUANTITY_UNITS: Record<string, number> = {
  '': 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
};

/** Bytes of a Kubernetes quantity as config.ts admits them (decimal and binary suffixes, Kubernetes' meaning). */
export function quantityBytes(quantity: string): number {
  const match = /^([0-9]+(?:\.[0-9]+)?)(Ki|Mi|Gi|Ti|k|M|G|T)?$/.exec(quantity);
  if (!match) throw new Error(`${quantity} is not a quantity`);
  return Math.floor(Number(match[1]) * QUANTITY_UNITS[match[2] ?? '']!);
}

export type DockerEngineOptions = ContainerLimits & {
  socketPath: string;
  network: string;
  egressNetwork: string;
  /**
   * The forward proxy that is the egress network's only way out (engine/egress). It listens on that
   * bridge's gateway address at the first free port of `ports`. Without it an exam that allows package
   * registries cannot start a workspace (it fails closed rather than open).
   */
  egressProxy?: EgressProxyOptions;
  /**
   * The AI relay (engine/egress/agent-relay.ts), on both bridges' gateways at the first port of `ports` free on
   * both; containers reach it as `exam-ai`. Without it no workspace gets a way to an agent endpoint.
   */
  agentRelay?: AgentRelayOptions;
  /** WORKSPACE_HOST_ID; unset, the engine's own ID (`docker info`), which is stable for its data root. */
  hostId?: string;
};

/** The engine's options as the configuration names them (everything but the egress proxy and the AI relay). */
export function dockerEngineOptions(config: Config): Omit<DockerEngineOptions, 'egressProxy' | 'agentRelay'> {
  return {
    socketPath: config.DOCKER_SOCKET,
    instance: config.WORKSPACE_INSTANCE,
    ...(config.WORKSPACE_HOST_ID ? { hostId: config.WORKSPACE_HOST_ID } : {}),
    network: config.WORKSPACE_NETWORK,
    egressNetwork: config.WORKSPACE_EGRESS_NETWORK,
    memoryMb: config.WORKSPACE_MEMORY_MB,
    cpus: config.WORKSPACE_CPUS,
    pidsLimit: config.WORKSPACE_PIDS_LIMIT,
    tmpMb: config.WORKSPACE_TMP_MB,
    volumeQuota:
      config.WORKSPACE_VOLUME_QUOTA === 'off'
        ? undefined
        : {
            bytes: quantityBytes(config.WORKSPACE_VOLUME_SIZE),
            required: config.WORKSPACE_VOLUME_QUOTA === 'required',
            ...(config.WORKSPACE_VOLUME_QUOTA === 'loop'
              ? { loop: { hostDir: config.WORKSPACE_VOLUME_DIR, helperImage: config.WORKSPACE_VOLUME_HELPER_IMAGE } }
              : {}),
          },
  };
}

/** Whether the engine answers and an image is present; a burst of creates asks the same, so a recent 'yes' is reused for a moment. */
function createProbes(docker: Docker, socketPath: string) {
  const recentlyOk = new Map<string, number>();
  const fresh = (key: string) => Date.now() - (recentlyOk.get(key) ?? 0) < 2000;
  return {
    async unavailableReason(): Promise<Unavailable | undefined> {
      if (fresh('ping')) return undefined;
      try {
        await Promise.race([
          docker.ping(),
          new Promise((_, reject) => setTimeout(() => reject(new Error('timed out')), 2000)),
        ]);
        recentlyOk.set('ping', Date.now());
        return undefined;
      } catch (err) {
        return {
          kind: 'engine-unreachable',
          detail: `the Docker engine at ${socketPath} is not reachable (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
        };
      }
    },

    async entryUnavailableReason(entry: CatalogueEntry): Promise<Unavailable | undefined> {
      if (fresh(`image:${entry.image}`)) return undefined;
      try {
        await docker.getImage(entry.image).inspect();
        recentlyOk.set(`image:${entry.image}`, Date.now());
        return undefined;
      } catch (err) {
        if (isNotFound(err))
          return {
            kind: 'image-missing',
            detail: `the image ${entry.image} is not installed on this server (see infra/workspaces)`,
          };
        throw err;
      }
    },
  };
}

/** Workspaces as containers on a real Docker engine (dockerode over its unix socket). */
export function createDockerEngine(opts: DockerEngineOptions): WorkspaceEngine {
  const docker = dockerClient(opts.socketPath, { timeoutMs: 60_000 });
  const networks = createNetworks(docker, opts);
  const quota = opts.volumeQuota;
  const loopVolumes = quota?.loop
    ? createLoopVolumes(docker, { instance: opts.instance, bytes: quota.bytes, ...quota.loop })
    : undefined;
  let hostId: Promise<string> | undefined = opts.hostId ? Promise.resolve(opts.hostId) : undefined;
  return {
    kind: 'docker',
    hostId() {
      hostId ??= docker.info().then(
        (info: { ID?: string }) => {
          if (!info.ID) throw new Error('the Docker engine reported no ID');
          return `docker:${info.ID}`;
        },
        (err: unknown) => {
          hostId = undefined;
          throw err;
        },
      );
      return hostId;
    },
    ...createProbes(docker, opts.socketPath),
    ...createContainers(docker, networks, opts, loopVolumes),
    ...createVolumeArchives(docker, opts, loopVolumes),
    async agentBaseUrl() {
      // One port on both bridges, so the URL is the same whichever bridge the workspace sits on.
      const port = await networks.relayPort();
      return port === undefined ? undefined : `http://${AGENT_RELAY_HOST}:${port}`;
    },
    async close() {},
  };
}
