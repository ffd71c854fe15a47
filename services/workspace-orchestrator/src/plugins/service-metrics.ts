import { count, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { WorkspaceDatabase } from '../db/database.ts';
import { codeRuns, workspaces } from '../db/schema.ts';

const LIVE_STATES = ['starting', 'warm', 'ready'] as const;
const QUEUE_STATES = ['queued', 'running'] as const;

/**
 * The orchestrator's own gauges beside server-kit's request metrics (plugins/metrics.ts). Sessions and the
 * run queue are rows every replica shares, so each reports the same values (aggregate with `max`); the
 * runner containers are this replica's own (aggregate with `sum`).
 */
export function registerServiceMetrics(app: FastifyInstance, { db }: WorkspaceDatabase) {
  app.metrics.gauge({
    name: 'workspace_orchestrator_sessions',
    help: 'Workspace sessions not ended, by state (warm: in the pool, ready: a candidate has it) and workspace type, across all replicas',
    labelNames: ['state', 'type'],
    // workspaces_status_type_idx (status, workspace_type) answers this.
    collect: async () => {
      const rows = await db
        .select({ state: workspaces.status, type: workspaces.workspaceType, n: count() })
        .from(workspaces)
        .where(inArray(workspaces.status, [...LIVE_STATES]))
        .groupBy(workspaces.status, workspaces.workspaceType);
      return rows.map((r) => ({ labels: { state: r.state, type: r.type }, value: r.n }));
    },
  });
  app.metrics.gauge({
    name: 'workspace_orchestrator_code_runs',
    help: 'Code runs waiting for a runner (queued) or executing (running), across all replicas',
    labelNames: ['state'],
    // code_runs_state_queued_idx (state, queued_at) answers this.
    collect: async () => {
      const rows = await db
        .select({ state: codeRuns.state, n: count() })
        .from(codeRuns)
        .where(inArray(codeRuns.state, [...QUEUE_STATES]))
        .groupBy(codeRuns.state);
      return QUEUE_STATES.map((state) => ({ labels: { state }, value: rows.find((r) => r.state === state)?.n ?? 0 }));
    },
  });
}

/** The runner containers this replica's worker is executing now (jobs/runner-worker.ts), registered by server.ts. */
export function registerRunnerMetrics(app: FastifyInstance, activeRuns: () => number) {
  app.metrics.gauge({
    name: 'workspace_orchestrator_runner_containers_running',
    help: 'Code runs (one container each) this replica is executing now',
    cached: false,
    collect: activeRuns,
  });
}
