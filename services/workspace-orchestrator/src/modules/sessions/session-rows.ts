import { randomBytes } from 'node:crypto';
import { editorPathOf, type Session } from '@exam/domain/workspace';
import type { WorkspaceRow } from '../../db/schema.ts';
import type { Deps } from '../../deps.ts';
import type { WorkspaceEngine } from '../../engine/engine.ts';
import type { NewWorkspace } from './sessions.repository.ts';
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
 * When create last answered each session. On a reload the old page's end beacon can reach the server
 * after the new page's create has reused the same session; a beacon that soon after is ignored.
 */
export function createHandOuts(pageCloseGraceMs: number) {
  const handedOut = new Map<string, number>();
  return {
    handOut(row: WorkspaceRow): Session {
      const at = Date.now();
      handedOut.set(row.id, at);
      for (const [id, when] of handedOut) if (at - when > pageCloseGraceMs) handedOut.delete(id);
      return toSession(row);
    },
    /** Whether create answered this session so recently that a page-close beacon is the reloaded page's own. */
    isFresh(sessionId: string): boolean {
      return Date.now() - (handedOut.get(sessionId) ?? 0) < pageCloseGraceMs;
    },
  };
}
export type HandOuts = ReturnType<typeof createHandOuts>;
