import { WorkspaceTypeSchema } from '@exam/domain/exam';
import { baseConfigShape, booleanFlag, parseConfig, resolveServiceSecrets } from '@exam/server-kit/config';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { DEFAULT_ALLOWED_HOSTS, parseAllowlist } from './engine/egress/allowlist.ts';

const DEFAULT_CATALOGUE = resolve(fileURLToPath(new URL('../../../infra/workspaces/catalogue.json', import.meta.url)));

const ConfigSchema = z.object({
  ...baseConfigShape,
  /** workspace-orchestrator's API port (`pnpm start` sets it from WORKSPACE_ORCHESTRATOR_PORT). */
  PORT: z.coerce.number().int().min(0).max(65535).default(4004),
  /**
   * Where workspaces run: containers on the Docker engine at DOCKER_SOCKET (with CODE_SERVER_BIN as the fallback),
   * or pods in WORKSPACE_NAMESPACE of a Kubernetes cluster (engine/kubernetes-engine.ts).
   */
  WORKSPACE_ENGINE: z.enum(['docker', 'kubernetes']).default('docker'),
  /** The namespace of the workspace pods, claims, Services and policies (infra/k8s grants the rights there). */
  WORKSPACE_NAMESPACE: z
    .string()
    .regex(/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/, 'must be a Kubernetes namespace name')
    .default('exam-workspaces'),
  /** A kubeconfig file for the Kubernetes engine; unset, the pod's own service account (in-cluster). */
  KUBECONFIG: z.string().min(1).optional(),
  /** The StorageClass of the attempts' claims; unset, the cluster's default class. */
  WORKSPACE_STORAGE_CLASS: z.string().min(1).optional(),
  /**
   * The most a workspace may hold, a Kubernetes quantity such as 2Gi: each attempt's claim size on Kubernetes,
   * and on Docker the quota of each workspace volume (the `local` driver's `size`, which needs the engine's
   * volumes folder on XFS mounted with project quotas; see infra/workspaces/README.md). Past it the candidate's
   * writes fail with "No space left on device" and the host's disk is untouched. The collected files are capped
   * far lower; installed packages are not.
   */
  WORKSPACE_VOLUME_SIZE: z
    .string()
    .regex(/^[0-9]+(\.[0-9]+)?(Ki|Mi|Gi|Ti|k|M|G|T)?$/, 'must be a Kubernetes quantity such as 2Gi')
    .default('2Gi'),
  /**
   * Whether and how Docker workspace volumes are limited to WORKSPACE_VOLUME_SIZE. `loop` (production, any host):
   * each volume is a filesystem of that fixed size in a sparse file under WORKSPACE_VOLUME_DIR on the engine's host,
   * on a loop device (engine/docker-loop-volumes.ts); it needs no XFS and works on every Linux engine with the loop
   * driver. `required`: the `local` driver's XFS project quota, and an engine that cannot limit volumes refuses
   * every start with a reason saying so. `when-supported` (default): that quota where the engine can, otherwise
   * unlimited with a warning logged once (a developer machine). `off`: never. `when-supported` does not fall back to
   * `loop` on its own: a loop volume needs a host folder and a helper image the operator chooses.
   */
  WORKSPACE_VOLUME_QUOTA: z.enum(['loop', 'required', 'when-supported', 'off']).default('when-supported'),
  /**
   * WORKSPACE_VOLUME_QUOTA=loop: the folder on the Docker engine's host that holds each workspace's image file
   * (sparse: it takes only what the candidate wrote, at most WORKSPACE_VOLUME_SIZE). Put it on a disk the database
   * does not use, or size WORKSPACE_VOLUME_SIZE × seats below its free space.
   */
  WORKSPACE_VOLUME_DIR: z
    .string()
    .startsWith('/', 'must be an absolute path')
    .default('/var/lib/exam-workspaces/volumes'),
  /**
   * WORKSPACE_VOLUME_QUOTA=loop: the image of the short-lived helper container that makes, attaches and deletes the
   * image files (needs sh, truncate, mke2fs, losetup, mount and stat: the platform's busybox base image has them).
   */
  WORKSPACE_VOLUME_HELPER_IMAGE: z.string().min(1).default('exam/busybox-base'),
  /** The Kubernetes engine: the workspace pods' image pull policy. */
  WORKSPACE_IMAGE_PULL_POLICY: z.enum(['Always', 'IfNotPresent', 'Never']).default('IfNotPresent'),
  /** How long a workspace pod may take to become Ready: scheduling, attaching its claim, pulling the image. */
  WORKSPACE_POD_READY_TIMEOUT_SECONDS: z.coerce.number().min(1).default(120),
  /** The Docker engine's unix socket. When it does not answer, CODE_SERVER_BIN is the fallback. */
  DOCKER_SOCKET: z.string().default('/var/run/docker.sock'),
  /** A local code-server binary, run as one process per session when no engine is reachable. */
  CODE_SERVER_BIN: z.string().optional(),
  /**
   * The catalogue of workspace types and their images.
   * @default `infra/workspaces/catalogue.json`
   */
  WORKSPACE_CATALOGUE: z.string().default(DEFAULT_CATALOGUE),
  /** Comma-separated `type=entry` overrides, e.g. `vscode=test` serves vscode from the catalogue's test image. */
  WORKSPACE_IMAGE_OVERRIDES: z.string().default(''),
  /** Names this orchestrator's containers (label exam.orchestrator) so two deployments on one engine never adopt each other's. */
  WORKSPACE_INSTANCE: z
    .string()
    .regex(/^[a-z0-9][a-z0-9_.-]*$/)
    .default('default'),
  /**
   * Names the machine this orchestrator's engine runs on, recorded on every session and volume so that an
   * orchestrator on another host leaves them alone at re-adoption and reaping. Unset: the Docker engine's ID, or
   * for the Kubernetes engine an identity of its namespace in its cluster.
   */
  WORKSPACE_HOST_ID: z.string().min(1).max(200).optional(),
  /** Internal bridge (no egress, no container-to-container traffic) the proxy reaches containers on. */
  WORKSPACE_NETWORK: z.string().default('exam-workspaces'),
  /** Internal bridge for exams whose creator allowed package registries; its only way out is the egress proxy. */
  WORKSPACE_EGRESS_NETWORK: z.string().default('exam-workspaces-egress'),
  /**
   * What the egress proxy lets those workspaces reach, comma-separated: `host` (ports 443 and 80) or
   * `host:port`. Exact names, no wildcards. A name resolving to a private or loopback address is refused
   * unless the entry is that address itself (e.g. `10.0.0.5:4873` for a registry mirror on the LAN); see
   * infra/workspaces/README.md.
   * @default the npm, PyPI, Maven Central and CRAN hosts (engine/egress/allowlist.ts)
   */
  EGRESS_ALLOWED_HOSTS: z
    .string()
    .default(DEFAULT_ALLOWED_HOSTS)
    .transform((value, ctx) => {
      const { hosts, invalid } = parseAllowlist(value);
      for (const entry of invalid) ctx.addIssue({ code: 'custom', message: `"${entry}" is not a host or host:port` });
      return hosts;
    }),
  /** The egress proxy's port on the egress bridge's gateway address (infra/workspaces/host-firewall.sh opens it there). */
  EGRESS_PROXY_PORT: z.coerce.number().int().min(1).max(65535).default(3128),
  /**
   * The AI relay's port on every workspace bridge's gateway address (infra/workspaces/host-firewall.sh opens it
   * there): a workspace's coding agent reaches llm-gateway's agent endpoint (LLM_GATEWAY_URL) through it, as
   * `http://exam-ai:<port>/v1`, and nothing else (engine/egress/agent-relay.ts).
   */
  AGENT_RELAY_PORT: z.coerce.number().int().min(1).max(65535).default(3140),
  /** A workspace container's memory limit. */
  WORKSPACE_MEMORY_MB: z.coerce.number().int().min(16).default(1024),
  /** A workspace container's CPU limit. */
  WORKSPACE_CPUS: z.coerce.number().min(0.05).max(64).default(1),
  /** Processes a workspace container may hold. */
  WORKSPACE_PIDS_LIMIT: z.coerce.number().int().min(16).default(512),
  /** The size of a workspace container's /tmp. */
  WORKSPACE_TMP_MB: z.coerce.number().int().min(1).default(256),
  /** Ready editor containers kept per workspace type whose image is present. */
  WARM_POOL_SIZE: z.coerce.number().int().min(0).max(50).default(1),
  /** Comma-separated workspace types the pool keeps warm; empty: every type whose image is present. */
  WARM_POOL_TYPES: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((type) => type.trim())
        .filter(Boolean),
    )
    .pipe(z.array(WorkspaceTypeSchema)),
  /** How often the warm pool is topped up. */
  WARM_POOL_INTERVAL_SECONDS: z.coerce.number().min(0.1).default(5),
  /** Quiet time after the last warm hand-out before replacements start. */
  WARM_POOL_REFILL_DELAY_MS: z.coerce.number().int().min(0).default(1500),
  /**
   * How long before an availability window opens its editors start (the roster's size or the exam's expected
   * candidates, from exam-service); 0 turns pre-starting off.
   */
  PREWARM_HORIZON_MINUTES: z.coerce
    .number()
    .min(0)
    .max(24 * 60)
    .default(15),
  /** How long after the opening latecomers are still expected (their editors stay started). */
  PREWARM_GRACE_MINUTES: z.coerce
    .number()
    .min(0)
    .max(24 * 60)
    .default(10),
  /**
   * Live workspace containers one host holds at most (assigned and warm together); 0: 80 % of the host's
   * memory at 256 MiB each, an idle editor's typical footprint rather than its WORKSPACE_MEMORY_MB limit.
   */
  WORKSPACE_HOST_CAPACITY: z.coerce.number().int().min(0).default(0),
  /** Hosts running workspaces for this platform: each pre-starts its share of a window's candidates. */
  WORKSPACE_HOST_COUNT: z.coerce.number().int().min(1).default(1),
  /** A workspace nobody used for this long is stopped by the reaper. */
  IDLE_TIMEOUT_SECONDS: z.coerce
    .number()
    .min(1)
    .default(30 * 60),
  /** How often the reaper looks for idle workspaces and expired volumes. */
  REAPER_INTERVAL_SECONDS: z.coerce.number().min(0.1).default(30),
  /** How long a started editor may take to answer its health check. */
  START_TIMEOUT_SECONDS: z.coerce.number().min(1).default(30),
  /** The largest file collected from a workspace. */
  WORKSPACE_FILE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(1024 * 1024),
  /** The most bytes collected from one workspace. */
  WORKSPACE_TOTAL_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(10 * 1024 * 1024),
  /** The most files collected from one workspace. */
  WORKSPACE_MAX_FILES: z.coerce.number().int().min(1).default(2000),
  /**
   * How often a running workspace's files are read for its file history (the timeline's workspace changes): each
   * look stores only the files whose text changed since the last one, the first version of a file whole and later
   * ones as line diffs, a vanished file as deleted. Each look reads the workspace folder as collection does (a tar
   * of the folder, dependency folders included), so a shorter interval costs the engine more. 0: no snapshots
   * while workspaces run (collection still stores one at submit).
   */
  WORKSPACE_HISTORY_INTERVAL_SECONDS: z.coerce.number().min(0).max(3600).default(5),
  /**
   * The most one attempt's file history may store: each version's text (whole or diff) and path, plus 64 bytes.
   * Past it no further snapshot of that attempt is stored, not even the one at submit, and the history says
   * `capped: true`; the collected files are unaffected. The default, 5 MiB, holds the first copies of a
   * typical workspace's files (tens of kilobytes) and several hours of edits: a snapshot of a file edited
   * between two looks is a diff of the changed lines, a few hundred bytes, so three hours of continuous editing at
   * one look every 5 s stays under 1.5 MiB. It runs out early only where the workspace holds large text files
   * that change, which the history could not show usefully anyway. A thousand candidates at the cap take 5 GiB.
   */
  WORKSPACE_HISTORY_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .default(5 * 1024 * 1024),
  /** How long an attempt's volume is kept after the attempt closed without its files being collected. */
  WORKSPACE_VOLUME_GRACE_SECONDS: z.coerce
    .number()
    .min(0)
    .default(60 * 60),
  /**
   * Days a workspace's start-failure record (the reason it could not start, shown to the exam's creator) is kept
   * after its last failed try; the reaper deletes older records.
   */
  START_FAILURE_RETENTION_DAYS: z.coerce.number().min(1).default(30),
  /** A page-close beacon this soon after a create of the same session is the reloaded page's old one, and ignored. */
  WORKSPACE_PAGE_CLOSE_GRACE_MS: z.coerce.number().int().min(0).default(5000),
  /** Lifetime of the proxy's session cookie; renewed while the candidate keeps working. */
  WORKSPACE_COOKIE_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(30)
    .default(30 * 60),
  /**
   * The editors' own listener. The editor never shares an origin with the exam page (so it cannot read the page's
   * storage or attempt token).
   */
  WORKSPACE_PORT: z.coerce.number().int().min(0).max(65535).default(4005),
  /**
   * The public origin browsers reach the editors by; the taker page may frame only it. It must be same-site with
   * TAKER_ORIGIN (e.g. workspace.exam.example beside exam.example) so its SameSite cookie is sent inside the exam
   * page's frame.
   * @default `http://localhost:<WORKSPACE_PORT>`
   */
  WORKSPACE_ORIGIN: z.url().optional(),
  /** How long a one-time editor launch link (the ticket in the editor frame's URL) waits to be opened. */
  WORKSPACE_LAUNCH_TTL_SECONDS: z.coerce.number().int().min(5).max(600).default(60),
  /** Background pool refill and reaping on their intervals (jobs/workspace-jobs.ts, started by server.ts). */
  WORKSPACE_BACKGROUND: booleanFlag.default(true),
  /** Whether this replica executes queued code runs (jobs/runner-worker.ts); off, it only queues and answers. */
  RUNNER_WORKER: booleanFlag.default(true),
  /** Code runs one replica executes at once (one container each). */
  RUNNER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  /**
   * Of RUNNER_CONCURRENCY, the slots only candidates' own runs ("Run tests", purpose `check`) may take, so grading
   * and creators' reference runs never keep a candidate waiting (at most RUNNER_CONCURRENCY - 1; with one slot
   * there is nothing to reserve). Across replicas, RUNNER_GLOBAL_CONCURRENCY keeps as many free for candidates.
   */
  RUNNER_CANDIDATE_SLOTS: z.coerce.number().int().min(0).max(64).default(1),
  /** Creators' reference runs one replica executes at once (within the slots candidates do not hold). */
  RUNNER_REFERENCE_SLOTS: z.coerce.number().int().min(1).max(64).default(1),
  /** Reference runs one creator may have queued or running at once; one more is refused with 429 and Retry-After. */
  RUNNER_REFERENCE_IN_FLIGHT: z.coerce.number().int().min(1).max(100).default(2),
  /**
   * The longest a whole run may take, all its tests together, in seconds: its container is killed then and the
   * tests it did not reach are timeouts. Without it a run of 50 tests at a 30 s limit could hold a slot an hour.
   */
  RUNNER_MAX_RUN_SECONDS: z.coerce.number().int().min(10).max(7200).default(300),
  /** Code runs executing at once across every replica; unset, each replica's RUNNER_CONCURRENCY is the only cap. */
  RUNNER_GLOBAL_CONCURRENCY: z.coerce.number().int().min(1).max(1024).optional(),
  /** How often an idle replica looks for runs queued on another replica. */
  RUNNER_POLL_MS: z.coerce.number().int().min(10).default(200),
  /** Finished runs are deleted this long after they finished. */
  RUNNER_RETENTION_DAYS: z.coerce.number().min(0).default(30),
  /** A creator's reference runs allowed per minute. */
  RUNNER_REFERENCE_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  /** Processes (and threads) a run's container may hold: a fork bomb stops here. */
  RUNNER_PIDS_LIMIT: z.coerce.number().int().min(8).default(64),
  /**
   * WORKSPACE_ENGINE=kubernetes: the namespace each code run's pod goes to (engine/kubernetes-runner-engine.ts).
   * Its NetworkPolicy runner-deny-all takes the pods' network away; runs are refused while it is missing.
   */
  RUNNER_NAMESPACE: z
    .string()
    .regex(/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/, 'must be a Kubernetes namespace name')
    .default('exam-runners'),
  /** WORKSPACE_ENGINE=kubernetes: the RuntimeClass of runner pods (gVisor's, e.g. `gvisor`); unset, the node's default. */
  RUNNER_RUNTIME_CLASS: z.string().min(1).optional(),
  /** WORKSPACE_ENGINE=kubernetes: how long a runner pod may take to start (scheduling, pulling its image). */
  RUNNER_POD_START_TIMEOUT_SECONDS: z.coerce.number().int().min(1).default(60),
});

export type Config = z.infer<typeof ConfigSchema> & {
  jwtSecret: string;
  internalToken: string;
  pgliteDir: string;
  localWorkspacesDir: string;
  allowedOrigins: string[];
  workspaceOrigin: string;
};

export function loadConfig(env: Record<string, string | undefined>): Config {
  const parsed = parseConfig(ConfigSchema, env);
  return {
    ...parsed,
    ...resolveServiceSecrets(parsed),
    pgliteDir: join(parsed.DATA_DIR, 'workspace-orchestrator'),
    localWorkspacesDir: join(parsed.DATA_DIR, 'workspaces'),
    allowedOrigins: [new URL(parsed.TAKER_ORIGIN).origin, new URL(parsed.CREATOR_ORIGIN).origin],
    workspaceOrigin: new URL(parsed.WORKSPACE_ORIGIN ?? `http://localhost:${parsed.WORKSPACE_PORT}`).origin,
  };
}
