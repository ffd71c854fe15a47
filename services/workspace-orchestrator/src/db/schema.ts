import { sql } from 'drizzle-orm';
import { boolean, index, pgSchema, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

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
    backend: text('backend', { enum: ['docker', 'local'] }).notNull(),
    /** Container id, or the local process id. */
    handle: text('handle'),
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
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    assignedAt: timestamp('assigned_at', { withTimezone: true }),
    lastActivityAt: timestamp('last_activity_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    endReason: text('end_reason'),
  },
  (t) => [
    // One live workspace per attempt; a second concurrent create loses the race and reuses the first.
    uniqueIndex('workspaces_live_attempt_idx').on(t.attemptId).where(sql`${t.endedAt} is null`),
    index('workspaces_status_type_idx').on(t.status, t.workspaceType),
    index('workspaces_owner_idx').on(t.ownerId),
  ],
);

export type WorkspaceRow = typeof workspaces.$inferSelect;
