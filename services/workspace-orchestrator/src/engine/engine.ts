import { createHash } from 'node:crypto';
import type { Unavailable } from '@exam/domain/service-status';
import type { CatalogueEntry } from '@exam/domain/workspace';
import { pack } from 'tar-stream';

/** Where editors run: containers on a Docker engine, pods on a Kubernetes cluster, or local code-server processes. */
export type EngineKind = 'docker' | 'kubernetes' | 'local';

/** What the orchestrator needs from wherever editors run (EngineKind). */
export type WorkspaceSpec = {
  id: string;
  workspaceType: string;
  entry: CatalogueEntry;
  /** 'none': internal bridge only; 'registries': the creator allowed package registries (egress bridge). */
  egress: 'none' | 'registries';
  /** The editor's per-session password; the orchestrator logs in with it on the candidate's behalf. */
  password: string;
  labels: Record<string, string>;
  /** The named volume mounted at the workspace folder, created when missing; it outlives the container. */
  volume: { name: string; labels: Record<string, string> };
};

/** `target` is host:port the proxy forwards to; `handle` names the container or process. */
export type StartedWorkspace = { handle: string; target: string };

export type ManagedWorkspace = { id: string; handle: string; running: boolean; labels: Record<string, string> };

export type WorkspaceEngine = {
  kind: EngineKind;
  /**
   * Which machine (or cluster) this engine's containers live on, recorded on each session and volume: jobs
   * judge only their own host's rows, since this engine cannot see another host's containers.
   */
  hostId(): Promise<string>;
  /** Why this engine cannot run workspaces right now; undefined when it can. */
  unavailableReason(): Promise<Unavailable | undefined>;
  /** Why this catalogue entry cannot start (its image is missing…); undefined when it can. */
  entryUnavailableReason(entry: CatalogueEntry): Promise<Unavailable | undefined>;
  start(spec: WorkspaceSpec): Promise<StartedWorkspace>;
  isRunning(handle: string): Promise<boolean>;
  /** Removes the container (or stops the process); its named volume stays. */
  remove(handle: string): Promise<void>;
  /** Workspaces this orchestrator instance created, found by label (re-adoption after a restart). */
  list(): Promise<ManagedWorkspace[]>;
  /** A tar stream of the workspace folder (entries under 'workspace/'); symlinks stay link entries, never followed. */
  archiveWorkspace(workspace: { id: string; handle: string; volume: string }): Promise<NodeJS.ReadableStream>;
  /** The same tar read from a volume no container runs on any more (the session ended before submit). */
  archiveVolume<T>(volume: string, entry: CatalogueEntry, read: (tar: NodeJS.ReadableStream) => Promise<T>): Promise<T>;
  removeVolume(volume: string): Promise<void>;
  /** How full the workspace folder of a running workspace is; undefined where the engine cannot tell. */
  diskUsage?(handle: string): Promise<{ usedBytes: number; availableBytes: number; sizeBytes: number } | undefined>;
  /** Volumes this orchestrator instance created, by name (re-adoption removes those it has no record of). */
  listVolumes(): Promise<string[]>;
  /**
   * Writes files into a running workspace under the absolute folder `dir`, as the candidate's user (a tar through
   * exec's stdin, so /tmp's tmpfs is reached as well as the volume). Absent where the engine cannot.
   */
  writeFiles?(handle: string, dir: string, files: ReadonlyArray<WorkspaceWrite>): Promise<void>;
  /**
   * The base URL a workspace's agents reach llm-gateway's agent endpoint by (agentEnvironment's relayBaseUrl), on
   * the network `egress` names; undefined where this engine offers the workspace no way to it.
   */
  agentBaseUrl?(egress: 'none' | 'registries'): Promise<string | undefined>;
  close(): Promise<void>;
};

/**
 * What an editor is started with instead of its password: code-server's SHA-256 form (HASHED_PASSWORD).
 * With a plain PASSWORD, code-server checks the session cookie against an argon2 hash on every request
 * (0.2–0.5 s of CPU per page view on one core, and on every WebSocket upgrade); with this it compares
 * two strings. The password is 24 random bytes, so an unsalted digest of it gives nothing away.
 */
export const editorPasswordHash = (password: string): string => createHash('sha256').update(password).digest('hex');

export const LABELS = {
  managed: 'exam.managed',
  instance: 'exam.orchestrator',
  sessionId: 'exam.session-id',
  attemptId: 'exam.attempt-id',
  ownerId: 'exam.owner-id',
  workspaceType: 'exam.workspace-type',
  pool: 'exam.pool',
} as const;

/** A file written into a running workspace: its path under the target folder, its text, its permission bits. */
export type WorkspaceWrite = { path: string; content: string; mode?: number };

/** The tar `writeFiles` extracts: regular files owned by the candidate's user, folders made as tar needs them. */
export async function tarOf(files: ReadonlyArray<WorkspaceWrite>): Promise<Buffer> {
  const archive = pack();
  const chunks: Buffer[] = [];
  archive.on('data', (chunk: unknown) => chunks.push(chunk as Buffer));
  const done = new Promise<void>((resolve, reject) => {
    archive.on('end', resolve);
    archive.on('error', reject);
  });
  for (const file of files)
    archive.entry({ name: file.path, mode: file.mode ?? 0o644, uid: 1000, gid: 1000, mtime: new Date() }, file.content);
  archive.finalize();
  await done;
  return Buffer.concat(chunks);
}
