import { WORKSPACE_FOLDER, type CatalogueEntry } from '@exam/domain/workspace';
import Docker from 'dockerode';
import type { RegistryProxy } from './egress/registry-proxy.ts';
import {
  editorPasswordHash,
  LABELS,
  type ManagedWorkspace,
  type StartedWorkspace,
  type WorkspaceEngine,
  type WorkspaceSpec,
} from './engine.ts';

export type DockerEngineOptions = {
  socketPath: string;
  instance: string;
  network: string;
  egressNetwork: string;
  memoryMb: number;
  cpus: number;
  pidsLimit: number;
  tmpMb: number;
  /**
   * The forward proxy that is the egress network's only way out (engine/egress). It listens on that
   * bridge's gateway address at the first free port of `ports`. Without it an exam that allows package
   * registries cannot start a workspace (it fails closed rather than open).
   */
  egressProxy?: { proxy: RegistryProxy; ports: readonly number[]; reusePort: boolean };
};

/** Loopback inside the container is the container's own: a candidate's local server never goes through the proxy. */
const NO_PROXY = 'localhost,127.0.0.1,::1';

/** What makes npm, pip, cargo, go, R (libcurl) and the JVM tools use the proxy. */
export function proxyEnvironment(host: string, port: number): string[] {
  const url = `http://${host}:${port}`;
  const java = `-Dhttp.proxyHost=${host} -Dhttp.proxyPort=${port} -Dhttps.proxyHost=${host} -Dhttps.proxyPort=${port} -Dhttp.nonProxyHosts=localhost|127.0.0.1`;
  return [
    `HTTP_PROXY=${url}`,
    `HTTPS_PROXY=${url}`,
    `http_proxy=${url}`,
    `https_proxy=${url}`,
    `NO_PROXY=${NO_PROXY}`,
    `no_proxy=${NO_PROXY}`,
    `MAVEN_OPTS=${java}`,
    `GRADLE_OPTS=${java}`,
  ];
}

/** Bridge names are fixed so infra/workspaces/host-firewall.sh can keep containers away from the host's own services. */
const BRIDGES = { internal: 'exam-ws0', egress: 'exam-ws1' } as const;

const isNotFound = (err: unknown) => (err as { statusCode?: number }).statusCode === 404;
const isConflict = (err: unknown) => (err as { statusCode?: number }).statusCode === 409;

/** Workspaces as containers on a real Docker engine (dockerode over its unix socket). */
export function createDockerEngine(opts: DockerEngineOptions): WorkspaceEngine {
  const docker = new Docker({ socketPath: opts.socketPath, timeout: 60_000 });
  let networksReady: Promise<void> | undefined;
  let proxyReady: Promise<string[]> | undefined;
  // A burst of creates asks the same questions; a recent 'yes' is reused for a moment.
  const recentlyOk = new Map<string, number>();
  const fresh = (key: string) => Date.now() - (recentlyOk.get(key) ?? 0) < 2000;

  async function ensureNetwork(name: string, bridge: string) {
    try {
      const existing = (await docker.getNetwork(name).inspect()) as {
        Internal?: boolean;
        Containers?: Record<string, unknown>;
      };
      if (existing.Internal) return;
      // An egress network made before the proxy existed routes straight out: it is replaced, and
      // refused while containers still use it.
      if (Object.keys(existing.Containers ?? {}).length)
        throw new Error(
          `the Docker network ${name} has a route out and containers on it; remove them so it can be recreated as internal`,
        );
      await docker.getNetwork(name).remove();
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
    try {
      await docker.createNetwork({
        Name: name,
        Driver: 'bridge',
        // Internal: no route out, on both bridges; the egress bridge's only way out is the registry
        // proxy on its gateway. enable_icc=false: containers on the bridge cannot reach each other,
        // only the host (the proxies) can reach them.
        Internal: true,
        Options: { 'com.docker.network.bridge.enable_icc': 'false', 'com.docker.network.bridge.name': bridge },
        Labels: { [LABELS.managed]: 'true' },
      });
    } catch (err) {
      if (!isConflict(err)) throw err;
    }
  }

  function ensureNetworks() {
    networksReady ??= (async () => {
      await ensureNetwork(opts.network, BRIDGES.internal);
      await ensureNetwork(opts.egressNetwork, BRIDGES.egress);
    })().catch((err: unknown) => {
      networksReady = undefined;
      throw err;
    });
    return networksReady;
  }

  /** Starts the registry proxy on the egress bridge's gateway (once); answers the containers' proxy variables. */
  function ensureEgressProxy(): Promise<string[]> {
    const egress = opts.egressProxy;
    if (!egress)
      return Promise.reject(
        new Error('package registries are allowed for this exam, but no egress proxy is configured'),
      );
    proxyReady ??= (async () => {
      const info = (await docker.getNetwork(opts.egressNetwork).inspect()) as {
        IPAM?: { Config?: { Gateway?: string }[] };
      };
      const gateway = info.IPAM?.Config?.find((c) => c.Gateway)?.Gateway;
      if (!gateway)
        throw new Error(`the Docker network ${opts.egressNetwork} has no gateway address for the egress proxy`);
      const port = await egress.proxy.listen(gateway, egress.ports, { reusePort: egress.reusePort });
      return proxyEnvironment(gateway, port);
    })().catch((err: unknown) => {
      proxyReady = undefined;
      throw err;
    });
    return proxyReady;
  }

  return {
    kind: 'docker',

    async unavailableReason() {
      if (fresh('ping')) return undefined;
      try {
        await Promise.race([
          docker.ping(),
          new Promise((_, reject) => setTimeout(() => reject(new Error('timed out')), 2000)),
        ]);
        recentlyOk.set('ping', Date.now());
        return undefined;
      } catch (err) {
        return `the Docker engine at ${opts.socketPath} is not reachable (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`;
      }
    },

    async entryUnavailableReason(entry: CatalogueEntry) {
      if (fresh(`image:${entry.image}`)) return undefined;
      try {
        await docker.getImage(entry.image).inspect();
        recentlyOk.set(`image:${entry.image}`, Date.now());
        return undefined;
      } catch (err) {
        if (isNotFound(err)) return `the image ${entry.image} is not installed on this server (see infra/workspaces)`;
        throw err;
      }
    },

    async start(spec: WorkspaceSpec): Promise<StartedWorkspace> {
      await ensureNetworks();
      const network = spec.egress === 'registries' ? opts.egressNetwork : opts.network;
      const proxyEnv = spec.egress === 'registries' ? await ensureEgressProxy() : [];
      const memory = opts.memoryMb * 1024 * 1024;
      // Idempotent: an existing volume (the attempt's earlier session) is reused as it is.
      await docker.createVolume({
        Name: spec.volume.name,
        Labels: { ...spec.volume.labels, [LABELS.managed]: 'true', [LABELS.instance]: opts.instance },
      });
      const container = await docker.createContainer({
        name: `exam-ws-${spec.id}`,
        Image: spec.entry.image,
        ...(spec.entry.command.length ? { Cmd: spec.entry.command } : {}),
        User: '1000:1000',
        WorkingDir: WORKSPACE_FOLDER,
        Env: [`HASHED_PASSWORD=${editorPasswordHash(spec.password)}`, ...proxyEnv],
        Labels: {
          ...spec.labels,
          [LABELS.managed]: 'true',
          [LABELS.instance]: opts.instance,
          [LABELS.sessionId]: spec.id,
          [LABELS.workspaceType]: spec.workspaceType,
        },
        HostConfig: {
          // A named volume, not tmpfs: it outlives the container (a reload ends the session, not the
          // files) and the engine's archive API can read it. A new volume takes the image folder's owner (1000).
          Mounts: [{ Type: 'volume', Source: spec.volume.name, Target: WORKSPACE_FOLDER }],
          NetworkMode: network,
          CapDrop: ['ALL'],
          SecurityOpt: ['no-new-privileges'],
          ReadonlyRootfs: true,
          Tmpfs: { '/tmp': `rw,nosuid,nodev,size=${opts.tmpMb}m,mode=1777` },
          Memory: memory,
          MemorySwap: memory,
          NanoCpus: Math.round(opts.cpus * 1e9),
          PidsLimit: opts.pidsLimit,
          PublishAllPorts: false,
          RestartPolicy: { Name: 'no' },
        },
      });
      try {
        await container.start();
        const info = await container.inspect();
        const address = info.NetworkSettings.Networks[network]?.IPAddress;
        if (!address) throw new Error(`container has no address on ${network}`);
        return { handle: container.id, target: `${address}:${spec.entry.port}` };
      } catch (err) {
        await container.remove({ force: true, v: true }).catch(() => undefined);
        throw err;
      }
    },

    async isRunning(handle: string) {
      try {
        return (await docker.getContainer(handle).inspect()).State.Running;
      } catch (err) {
        if (isNotFound(err)) return false;
        throw err;
      }
    },

    async remove(handle: string) {
      try {
        await docker.getContainer(handle).remove({ force: true, v: true });
      } catch (err) {
        if (!isNotFound(err) && !isConflict(err)) throw err;
      }
    },

    async list(): Promise<ManagedWorkspace[]> {
      const containers = await docker.listContainers({
        all: true,
        filters: { label: [`${LABELS.managed}=true`, `${LABELS.instance}=${opts.instance}`] },
      });
      return containers.map((c) => ({
        id: c.Labels[LABELS.sessionId] ?? '',
        handle: c.Id,
        running: c.State === 'running',
        labels: c.Labels,
      }));
    },

    async archiveWorkspace(workspace: { handle: string }) {
      return (await docker
        .getContainer(workspace.handle)
        .getArchive({ path: WORKSPACE_FOLDER })) as NodeJS.ReadableStream;
    },

    async archiveVolume<T>(
      volume: string,
      entry: CatalogueEntry,
      read: (tar: NodeJS.ReadableStream) => Promise<T>,
    ): Promise<T> {
      // A container that is created but never started: the archive API mounts its volumes for the copy,
      // and nothing of the candidate's code runs. It is removed once the tar has been read.
      const reader = await docker.createContainer({
        Image: entry.image,
        Labels: { [LABELS.managed]: 'true', [LABELS.instance]: opts.instance, [LABELS.sessionId]: `reader-${volume}` },
        HostConfig: {
          NetworkMode: 'none',
          ReadonlyRootfs: true,
          Mounts: [{ Type: 'volume', Source: volume, Target: WORKSPACE_FOLDER, ReadOnly: true }],
        },
      });
      try {
        return await read((await reader.getArchive({ path: WORKSPACE_FOLDER })) as NodeJS.ReadableStream);
      } finally {
        await reader.remove({ force: true }).catch(() => undefined);
      }
    },

    async removeVolume(volume: string) {
      try {
        await docker.getVolume(volume).remove();
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    },

    async listVolumes() {
      const { Volumes } = await docker.listVolumes({
        filters: { label: [`${LABELS.managed}=true`, `${LABELS.instance}=${opts.instance}`] },
      });
      return (Volumes ?? []).map((v) => v.Name);
    },

    async close() {},
  };
}
