import { sql } from 'drizzle-orm';
import type { CodingLimits, RepositoryFile, RunRequest, TestCase, TestVerdict } from '@exam/domain/coding';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgSchema,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/** Everything workspace-orchestrator owns lives in its own PostgreSQL schema. */
export const workspaceSchema = pgSchema('workspace_orchestrator');

/**
 * One row per workspace container (or local editor process), warm or assigned. The row and the
 * container's labels are the whole state: a restarted orchestrator re-adopts from them.
 * Docker cannot relabel a container, so a warm container's assignment lives here, keyed by the
 * exam.session-id label it was created with.
 */
export const workspaces = workspaceSchema.table(
  'workspaces',
  {
    id: text('id').primaryKey(),
    backend: text('backend', { enum: ['docker', 'kubernetes', 'local'] }).notNull(),
    /** Container id, or the local process id. */
    handle: text('handle'),
    /**
     * The machine (or cluster) whose engine runs the container: WORKSPACE_HOST_ID, else the Docker engine's own
     * ID. Re-adoption and the reaper only judge rows of their own host, since an engine cannot see another
     * host's containers. Null on rows from before hosts were recorded: taken to be on any host (one host then).
     */
    host: text('host'),
    workspaceType: text('workspace_type').notNull(),
    /** Which network profile the container was started with. */
    egress: text('egress', { enum: ['none', 'registries'] }).notNull(),
    status: text('status', { enum: ['starting', 'warm', 'ready', 'ended', 'failed'] }).notNull(),
    attemptId: text('attempt_id'),
    examId: text('exam_id'),
    ownerId: text('owner_id'),
    userId: text('user_id'),
    /** host:port the proxy forwards to (container address on the internal bridge). */
    target: text('target'),
    /** The editor's per-session password and login cookie; never leave the service. */
    editorPassword: text('editor_password').notNull(),
    editorCookie: text('editor_cookie'),
    fromWarmPool: boolean('from_warm_pool').notNull().default(false),
    /** The named volume mounted at /home/coder/workspace (see `volumes`). */
    volume: text('volume'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    assignedAt: timestamp('assigned_at', { withTimezone: true }),
    /**
     * When create last answered with this session. A reloaded page's create reuses the session while the old
     * page's close beacon may still be on its way, possibly to another replica: a beacon this soon after is
     * ignored (WORKSPACE_PAGE_CLOSE_GRACE_MS).
     */
    handedOutAt: timestamp('handed_out_at', { withTimezone: true }),
    lastActivityAt: timestamp('last_activity_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    endReason: text('end_reason'),
  },
  (t) => [
    // One live workspace per attempt; a second concurrent create loses the race and reuses the first.
    uniqueIndex('workspaces_live_attempt_idx')
      .on(t.attemptId)
      .where(sql`${t.endedAt} is null`),
    index('workspaces_status_type_idx').on(t.status, t.workspaceType),
    index('workspaces_owner_idx').on(t.ownerId),
  ],
);

export type WorkspaceRow = typeof workspaces.$inferSelect;

/**
 * One row per workspace volume. A volume outlives its containers: a page reload ends the session (the
 * container goes) but the candidate's files stay for the next session of the same attempt. A warm
 * container's volume has no attempt until the container is handed out, then becomes the attempt's.
 * Removed once the files were collected at submit and the attempt is closed, or a grace period after
 * the reaper first saw the attempt closed.
 */
export const volumes = workspaceSchema.table(
  'volumes',
  {
    name: text('name').primaryKey(),
    backend: text('backend', { enum: ['docker', 'kubernetes', 'local'] }).notNull(),
    /** The host whose engine holds the volume (as workspaces.host). */
    host: text('host'),
    /** The image family that created it; a helper container of the same image reads it after the session ended. */
    workspaceType: text('workspace_type').notNull(),
    attemptId: text('attempt_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    collectedAt: timestamp('collected_at', { withTimezone: true }),
    /** When the reaper first found the attempt closed; the grace period runs from here. */
    closedSeenAt: timestamp('closed_seen_at', { withTimezone: true }),
    removedAt: timestamp('removed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('volumes_live_attempt_idx')
      .on(t.attemptId)
      .where(sql`${t.removedAt} is null`),
  ],
);

export type VolumeRow = typeof volumes.$inferSelect;

/**
 * Why an attempt's workspace could not start, for its creator (the candidate is only told to carry on in the
 * editor under the question). One row per attempt: the latest reason, how many tries failed, first and last.
 */
export const startFailures = workspaceSchema.table(
  'start_failures',
  {
    attemptId: text('attempt_id').primaryKey(),
    examId: text('exam_id').notNull(),
    /** The creator who owns the exam: the only one who may read the reason. */
    ownerId: text('owner_id').notNull(),
    reason: text('reason').notNull(),
    failures: integer('failures').notNull(),
    firstFailedAt: timestamp('first_failed_at', { withTimezone: true }).notNull(),
    lastFailedAt: timestamp('last_failed_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('start_failures_exam_idx').on(t.examId)],
);

export type StartFailureRow = typeof startFailures.$inferSelect;

/**
 * One-time tickets that let the candidate's browser into an editor on WORKSPACE_ORIGIN: issued to the attempt
 * that owns the session (POST /api/session/{id}/launch), carried once in the frame's URL, and exchanged there
 * for the orchestrator's own cookie. Only a hash is stored; `usedAt` makes each single-use across replicas.
 */
export const launchTokens = workspaceSchema.table(
  'launch_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    sessionId: text('session_id').notNull(),
    attemptId: text('attempt_id').notNull(),
    /** The cookie it buys never outlives the attempt token that asked for it. */
    capAt: timestamp('cap_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('launch_tokens_expires_idx').on(t.expiresAt)],
);

/**
 * The code runner's queue and its results (modules/runner): one row per run of a candidate's or a creator's
 * code against a question's tests. Workers on every replica claim queued rows with FOR UPDATE SKIP LOCKED
 * and hold them under a lease; a run whose lease ran out (its replica died) is queued again, and a run that
 * failed on the runner's side twice ends in `error`. Finished rows are pruned after RUNNER_RETENTION_DAYS.
 */
/** A run's input as queued. */
export type RunJob = {
  language: RunRequest['language'];
  code: string;
  tests: TestCase[];
  limits: CodingLimits;
  setupScript: string;
  /** An agentic task's repository, laid out at the run's root under the source file; absent in older jobs. */
  files?: RepositoryFile[];
};

/** A finished run's result. */
export type RunOutcome = { verdicts: TestVerdict[]; compileOutput?: string; reason?: string };

export const codeRuns = workspaceSchema.table(
  'code_runs',
  {
    id: text('id').primaryKey(),
    purpose: text('purpose', { enum: ['check', 'grade', 'reference'] }).notNull(),
    /** The creator who asked for a reference run (the only one who may read it). */
    creatorId: text('creator_id'),
    attemptId: text('attempt_id'),
    examId: text('exam_id'),
    questionIndex: integer('question_index'),
    language: text('language').notNull(),
    /** What runs: the code, the tests (with their expected outputs), the limits and the SQL setup script. */
    job: jsonb('job').$type<RunJob>().notNull(),
    state: text('state', { enum: ['queued', 'running', 'done', 'unavailable', 'error'] }).notNull(),
    /** Verdicts once done; the reason once unavailable or in error. */
    outcome: jsonb('outcome').$type<RunOutcome>(),
    /** How many times a worker claimed it. */
    claims: integer('claims').notNull().default(0),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    queuedAt: timestamp('queued_at', { withTimezone: true }).notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('code_runs_state_queued_idx').on(t.state, t.queuedAt),
    index('code_runs_creator_idx').on(t.creatorId, t.queuedAt),
    index('code_runs_finished_idx').on(t.finishedAt),
  ],
);

export type CodeRunRow = typeof codeRuns.$inferSelect;

/**
 * The workspace's file history, one row per attempt: how much of the cap (WORKSPACE_HISTORY_MAX_BYTES) its
 * snapshots use and when the next look at its files is due. Replicas claim due rows with FOR UPDATE SKIP LOCKED
 * and push `dueAt` a lease ahead, so no two look at one workspace at once and a replica that dies mid-look is
 * replaced when the lease runs out (jobs/file-history.ts).
 */
export const fileHistories = workspaceSchema.table(
  'file_histories',
  {
    attemptId: text('attempt_id').primaryKey(),
    /** What the attempt's file_versions take, counted as file-history.ts `storedBytes` does. */
    bytes: integer('bytes').notNull().default(0),
    /** When a snapshot would have passed the cap: nothing is stored after it. */
    cappedAt: timestamp('capped_at', { withTimezone: true }),
    /**
     * Whether the attempt's files are followed: its exam keeps workspace files in results (saveFilesInResults).
     * Null until first asked; false: nothing is stored and no replica looks.
     */
    followed: boolean('followed'),
    /** When the files were last read for a snapshot: a change found by the next read happened after it. */
    lookedAt: timestamp('looked_at', { withTimezone: true }),
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('file_histories_due_idx').on(t.dueAt)],
);

export type FileHistoryRow = typeof fileHistories.$inferSelect;

/**
 * One version of one workspace file, append-only: `full` holds the text, `diff` a patch from the version before
 * it (modules/sessions/file-patches.ts, as JSON), `deleted` nothing. Replaying a path's versions in order gives
 * each of its texts. Nothing prunes them: the timeline reads them for as long as the attempt's result exists.
 */
export const fileVersions = workspaceSchema.table(
  'file_versions',
  {
    attemptId: text('attempt_id').notNull(),
    path: text('path').notNull(),
    /** 1, 2, 3… per attempt and path. */
    version: integer('version').notNull(),
    /**
     * When the change happened, as far as it can be known: the file's mtime, kept between the previous look at
     * the files and the look that found the change (the candidate can set an mtime; a starter file's is old).
     */
    at: timestamp('at', { withTimezone: true }).notNull(),
    kind: text('kind', { enum: ['full', 'diff', 'deleted'] }).notNull(),
    body: text('body').notNull(),
    /** SHA-256 of the text after the change (hex); null for a deletion. Comparing it finds unchanged files without a replay. */
    hash: text('hash'),
    /** Who made the change (AnswerSource), null when unknown: see file-history.ts on what would tell. */
    source: text('source'),
  },
  (t) => [primaryKey({ columns: [t.attemptId, t.path, t.version] })],
);

export type FileVersionRow = typeof fileVersions.$inferSelect;
