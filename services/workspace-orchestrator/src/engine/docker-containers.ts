import { AGENT_RELAY_HOST } from '@exam/domain/workspace-agents';
import { workspaceUnavailableError } from '@exam/domain/service-status';
import { WORKSPACE_FOLDER } from '@exam/domain/workspace';
import { PassThrough } from 'node:stream';
import type Docker from 'dockerode';
import { isConflict, isNotFound } from './docker-client.ts';
import type { LoopVolumes } from './docker-loop-volumes.ts';
import type { DockerNetworks } from './docker-networks.ts';
import {
  editorPasswordHash,
  LABELS,
  tarOf,
  type WorkspaceWrite,
  type ManagedWorkspace,
  type StartedWorkspace,
  type WorkspaceSpec,
} from './engine.ts';

/**
 * The only resolver a workspace container is given: an address of TEST-NET-1 (RFC 5737 §3, reserved for
 * documentation, routed nowhere). Docker's embedded DNS (127.0.0.11 in the container) forwards every name it does
 * not know itself to the container's DNS servers, by default the host's: a way to carry data out in query names
 * that no bridge or firewall rule sees on engines that forward from the host's namespace. Pointed here, it forwards
 * nowhere; a workspace needs no name resolution, since its only way out, the registry proxy, resolves names itself
 * after its allowlist (engine/egress/decision.ts).
 */
export const WORKSPACE_DNS_SINK = '192.0.2.53';

/** How every workspace container is confined. */
export type ContainerLimits = {
  instance: string;
  memoryMb: number;
  cpus: number;
  pidsLimit: number;
  tmpMb: number;
  /** The size limit of each workspace volume (WORKSPACE_VOLUME_SIZE and WORKSPACE_VOLUME_QUOTA); none when unset. */
  volumeQuota?: { bytes: number; required: boolean; loop?: { hostDir: string; helperImage: string } };
};

const NO_QUOTA = /quota/i;

/**
 * Creates the workspace volume with the `local` driver's `size` (a project quota: the engine's volumes folder on
 * XFS mounted with prjquota). Past it the candidate's writes fail with ENOSPC and the host's disk is untouched.
 * An engine that cannot limit volumes refuses the start when the quota is required, and otherwise creates the
 * volume unlimited, warning once.
 */
function workspaceVolumes(docker: Docker, opts: ContainerLimits, loop?: LoopVolumes) {
  let unsupported = false;
  return async function createWorkspaceVolume(spec: WorkspaceSpec) {
    if (loop) return loop.ensure(spec.volume.name, spec.volume.labels);
    const quota = opts.volumeQuota;
    const create = (sized: boolean) =>
      // Idempotent: an existing volume (the attempt's earlier session) is reused as it is.
      docker.createVolume({
        Name: spec.volume.name,
        Labels: { ...spec.volume.labels, [LABELS.managed]: 'true', [LABELS.instance]: opts.instance },
        ...(sized && quota ? { DriverOpts: { size: String(quota.bytes) } } : {}),
      });
    if (!quota || (unsupported && !quota.required)) return create(false);
    try {
      return await create(true);
    } catch (err) {
      if (!NO_QUOTA.test((err as Error).message)) throw err;
      if (quota.required)
        throw workspaceUnavailableError({
          kind: 'not-configured',
          detail:
            'this Docker engine cannot limit the size of workspace volumes (its volumes folder must be on XFS mounted ' +
            'with project quotas, see infra/workspaces/README.md); WORKSPACE_VOLUME_QUOTA=required refuses to start ' +
            `a workspace without a limit (${(err as Error).message})`,
        });
      unsupported = true;
      process.emitWarning(
        'workspace volumes have no size limit: this Docker engine cannot limit them (infra/workspaces/README.md)',
      );
      return create(false);
    }
  };
}

/** The locked-down container of one workspace: non-root, read-only root, no capabilities, no published port. */
function workspaceContainer(
  spec: WorkspaceSpec,
  limits: ContainerLimits,
  network: string,
  proxyEnv: string[],
  relayAddress: string | undefined,
): Docker.ContainerCreateOptions {
  const memory = limits.memoryMb * 1024 * 1024;
  return {
    name: `exam-ws-${spec.id}`,
    Image: spec.entry.image,
    ...(spec.entry.command.length ? { Cmd: spec.entry.command } : {}),
    User: '1000:1000',
    WorkingDir: WORKSPACE_FOLDER,
    Env: [`HASHED_PASSWORD=${editorPasswordHash(spec.password)}`, ...proxyEnv],
    Labels: {
      ...spec.labels,
      [LABELS.managed]: 'true',
      [LABELS.instance]: limits.instance,
      [LABELS.sessionId]: spec.id,
      [LABELS.workspaceType]: spec.workspaceType,
    },
    HostConfig: {
      // A named volume, not tmpfs: it outlives the container (a reload ends the session, not the
      // files) and the engine's archive API can read it. A new volume takes the image folder's owner (1000).
      Mounts: [{ Type: 'volume', Source: spec.volume.name, Target: WORKSPACE_FOLDER }],
      NetworkMode: network,
      // The AI relay on the bridge's gateway (engine/egress/agent-relay.ts): every container gets the name, warm
      // ones too (their exam is not known yet); without the attempt's token the gateway answers nothing.
      ...(relayAddress ? { ExtraHosts: [`${AGENT_RELAY_HOST}:${relayAddress}`] } : {}),
      Dns: [WORKSPACE_DNS_SINK],
      DnsSearch: [],
      CapDrop: ['ALL'],
      SecurityOpt: ['no-new-privileges'],
      ReadonlyRootfs: true,
      Tmpfs: { '/tmp': `rw,nosuid,nodev,size=${limits.tmpMb}m,mode=1777` },
      Memory: memory,
      MemorySwap: memory,
      NanoCpus: Math.round(limits.cpus * 1e9),
      PidsLimit: limits.pidsLimit,
      PublishAllPorts: false,
      RestartPolicy: { Name: 'no' },
    },
  };
}

/** Workspace containers: started on the bridge their exam's network profile names, listed and removed by label. */
export function createContainers(
  docker: Docker,
  networks: DockerNetworks,
  opts: ContainerLimits & { network: string; egressNetwork: string; agentRelay?: unknown },
  loop?: LoopVolumes,
) {
  const createVolume = workspaceVolumes(docker, opts, loop);
  return {
    async start(spec: WorkspaceSpec): Promise<StartedWorkspace> {
      await networks.ensure();
      const registries = spec.egress === 'registries';
      const network = registries ? opts.egressNetwork : opts.network;
      const proxyEnv = registries ? await networks.egressEnvironment() : [];
      const relayAddress = opts.agentRelay ? await networks.gateway(network) : undefined;
      await createVolume(spec);
      const container = await docker.createContainer(workspaceContainer(spec, opts, network, proxyEnv, relayAddress));
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

    /**
     * `df -P` in the container (POSIX: 1024-byte blocks, one line per file system), as the candidate's user: the
     * workspace volume's own size under a quota. Undefined when the image has no df or the container is gone.
     */
    async diskUsage(handle: string) {
      try {
        const exec = await docker.getContainer(handle).exec({
          Cmd: ['df', '-P', '-k', WORKSPACE_FOLDER],
          AttachStdout: true,
          AttachStderr: false,
          User: '1000:1000',
        });
        const stream = await exec.start({ hijack: true, stdin: false });
        let out = '';
        const stdout = new PassThrough().on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
        docker.modem.demuxStream(stream, stdout, new PassThrough().resume());
        await new Promise<void>((resolve) => {
          stream.on('end', resolve);
          stream.on('error', () => resolve());
        });
        const fields = out.trim().split('\n').at(-1)?.trim().split(/\s+/) ?? [];
        const [size, used, available] = [Number(fields[1]), Number(fields[2]), Number(fields[3])];
        if (![size, used, available].every(Number.isFinite) || size <= 0) return undefined;
        return { usedBytes: used * 1024, availableBytes: available * 1024, sizeBytes: size * 1024 };
      } catch (err) {
        if (isNotFound(err) || isConflict(err)) return undefined;
        throw err;
      }
    },

    /** `tar -x` in the container as the candidate's user, the archive on its stdin; fails on tar's failure. */
    async writeFiles(handle: string, dir: string, files: ReadonlyArray<WorkspaceWrite>): Promise<void> {
      if (!files.length) return;
      const exec = await docker.getContainer(handle).exec({
        Cmd: ['sh', '-c', 'mkdir -p "$1" && tar -x -m -C "$1" -f -', 'write-files', dir],
        AttachStdin: true,
        AttachStdout: true,
        AttachStderr: true,
        User: '1000:1000',
      });
      const stream = await exec.start({ hijack: true, stdin: true });
      let errors = '';
      const sink = new PassThrough().on('data', (chunk: Buffer) => (errors += chunk.toString('utf8')));
      docker.modem.demuxStream(stream, sink, sink);
      const ended = new Promise<void>((resolve, reject) => {
        stream.on('end', resolve);
        stream.on('close', resolve);
        stream.on('error', reject);
      });
      stream.end(await tarOf(files));
      await ended;
      const { ExitCode } = await exec.inspect();
      if (ExitCode !== 0) throw new Error(`writing files into the workspace failed (${ExitCode}): ${errors.trim()}`);
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
  };
}
