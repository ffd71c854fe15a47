import { AppError, ErrorCode } from '@exam/domain/errors';
import type { WorkspaceRow } from '../../db/schema.ts';
import type { SessionsRepository } from '../sessions/sessions.repository.ts';

/**
 * Where /workspace/{sessionId}/ goes. An editor loads dozens of assets at once, so a row is cached for
 * a moment; activity is written at most every few seconds per session (the reaper reads it).
 */
export function createProxyTargets(
  repo: SessionsRepository,
  clock: { now(): Date },
  opts: { cacheMs?: number; touchEveryMs?: number } = {},
) {
  const cacheMs = opts.cacheMs ?? 2000;
  const touchEveryMs = opts.touchEveryMs ?? 5000;
  const cache = new Map<string, { row: WorkspaceRow | undefined; at: number }>();
  const touched = new Map<string, number>();

  return {
    async get(sessionId: string): Promise<WorkspaceRow> {
      const hit = cache.get(sessionId);
      let row = hit && Date.now() - hit.at < cacheMs ? hit.row : undefined;
      if (!row) {
        row = await repo.find(sessionId);
        cache.set(sessionId, { row, at: Date.now() });
      }
      if (!row || !row.attemptId || row.endedAt) throw new AppError(ErrorCode.NOT_FOUND, 'Session not found');
      if (row.status !== 'ready' || !row.target || !row.editorCookie)
        throw new AppError(ErrorCode.UNAVAILABLE, 'The workspace is still starting');
      return row;
    },
    forget(sessionId: string) {
      cache.delete(sessionId);
    },
    touch(sessionId: string) {
      const last = touched.get(sessionId) ?? 0;
      if (Date.now() - last < touchEveryMs) return;
      touched.set(sessionId, Date.now());
      void repo.touch(sessionId, clock.now()).catch(() => touched.delete(sessionId));
    },
  };
}
export type ProxyTargets = ReturnType<typeof createProxyTargets>;
