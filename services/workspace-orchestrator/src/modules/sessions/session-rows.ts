import { randomBytes } from 'node:crypto';
import { editorPathOf, type Session } from '@exam/domain/workspace';
import type { WorkspaceRow } from '../../db/schema.ts';
import type { Deps } from '../../deps.ts';
import type { WorkspaceEngine } from '../../engine/engine.ts';
import type { NewWorkspace, SessionsRepository } from './sessions.repository.ts';
import { volumeNameFor } from './volumes.ts';

export function toSession(row: WorkspaceRow): Session {
  return {
    sessionId: row.id,
    attemptId: row.attemptId ?? '',
    examId: row.examId ?? '',
    userId: row.userId ?? '',
    workspaceType: row.workspaceType as Session['workspaceType'],
    status: row.status === 'warm' ? 'ready' : row.status,
    editorPath: editorPathOf(row.id),
    port: null,
    warm: row.fromWarmPool,
    createdAt: (row.assignedAt ?? row.createdAt).toISOString(),
    lastActivityAt: row.lastActivityAt.toISOString(),
  };
}

/** A second live workspace for one attempt breaks the partial unique index: another create won the race. */
export const isUniqueViolation = (err: unknown): boolean => {
  const e = err as { code?: string; cause?: { code?: string } };
  return e.code === '23505' || e.cause?.code === '23505';
};

/**
 * A 'starting' row on the engine's host; its volume is the attempt's earlier one when `assignment.volume`
 * names it, else a new one.
 */
export async function newWorkspaceRow(
  deps: Pick<Deps, 'clock' | 'ids'>,
  engine: WorkspaceEngine,
  workspaceType: string,
  egress: 'none' | 'registries',
  assignment: Partial<NewWorkspace>,
): Promise<NewWorkspace> {
  const at = deps.clock.now();
  const id = deps.ids.next();
  return {
    id,
    volume: volumeNameFor(id),
    backend: engine.kind,
    host: await engine.hostId(),
    workspaceType,
    egress,
    status: 'starting',
    editorPassword: randomBytes(24).toString('base64url'),
    createdAt: at,
    lastActivityAt: at,
    ...assignment,
  };
}

/**
 * When create last answered each session, kept on the row so that every replica knows it. On a reload the
 * old page's end beacon can reach a replica after the new page's create has reused the same session; a
 * beacon that soon after is ignored.
 */
export function createHandOuts(
  repo: Pick<SessionsRepository, 'update'>,
  clock: { now(): Date },
  pageCloseGraceMs: number,
) {
  return {
    async handOut(row: WorkspaceRow): Promise<Session> {
      if (pageCloseGraceMs > 0) await repo.update(row.id, { handedOutAt: clock.now() });
      return toSession(row);
    },
    /** Whether create answered this session so recently that a page-close beacon is the reloaded page's own. */
    isFresh(row: WorkspaceRow): boolean {
      return !!row.handedOutAt && clock.now().getTime() - row.handedOutAt.getTime() < pageCloseGraceMs;
    },
  };
}
export type HandOuts = ReturnType<typeof createHandOuts>;
