import { AppError, ErrorCode } from '@exam/domain/errors';
import type { WorkspaceRow } from '../../db/schema.ts';
import type { SessionsRepository } from '../sessions/sessions.repository.ts';

/**
 * A map whose entries expire `ttlMs` after they were set, at most `maxEntries` of them. Entries are kept in
 * the order they were set and every entry lives equally long, so the expired ones are always at the front:
 * each write drops them there, and the map never holds more than one ttl's worth of writes.
 */
function expiringMap<V>(ttlMs: number, maxEntries: number) {
  const entries = new Map<string, { value: V; at: number }>();
  const sweep = (now: number) => {
    for (const [key, entry] of entries) {
      if (now - entry.at < ttlMs && entries.size <= maxEntries) break;
      entries.delete(key);
    }
  };
  return {
    get(key: string, now: number): V | undefined {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (now - entry.at < ttlMs) return entry.value;
      entries.delete(key);
      return undefined;
    },
    set(key: string, value: V, now: number) {
      entries.delete(key);
      entries.set(key, { value, at: now });
      sweep(now);
    },
    delete: (key: string) => entries.delete(key),
    get size() {
      return entries.size;
    },
  };
}

/**
 * Where /workspace/{sessionId}/ goes. An editor loads dozens of assets at once, so a routable row is
 * remembered for a moment; activity is written at most every few seconds per session (the reaper reads it).
 * Only sessions that exist and can be reached are remembered, so requests for made-up ids (anyone can send
 * them: the id is checked before the cookie) never grow this replica's memory, and nothing here outlives
 * its few seconds: another replica answers the same from the database.
 */
export function createProxyTargets(
  repo: SessionsRepository,
  clock: { now(): Date },
  opts: { cacheMs?: number; touchEveryMs?: number; maxEntries?: number } = {},
) {
  const maxEntries = opts.maxEntries ?? 10_000;
  const touchEveryMs = opts.touchEveryMs ?? 5000;
  const rows = expiringMap<WorkspaceRow>(opts.cacheMs ?? 2000, maxEntries);
  const touched = expiringMap<true>(touchEveryMs, maxEntries);

  return {
    async get(sessionId: string): Promise<WorkspaceRow> {
      let row = rows.get(sessionId, Date.now());
      if (!row) {
        row = await repo.find(sessionId);
        if (!row || !row.attemptId || row.endedAt) throw new AppError(ErrorCode.NOT_FOUND, 'Session not found');
        if (row.status !== 'ready' || !row.target || !row.editorCookie)
          throw new AppError(ErrorCode.UNAVAILABLE, 'The workspace is still starting');
        rows.set(sessionId, row, Date.now());
      }
      return row;
    },
    forget(sessionId: string) {
      rows.delete(sessionId);
    },
    /** Called only for a session get() answered (the proxy has authorized the request). */
    touch(sessionId: string) {
      if (touched.get(sessionId, Date.now())) return;
      touched.set(sessionId, true, Date.now());
      void repo.touch(sessionId, clock.now()).catch(() => touched.delete(sessionId));
    },
    /** How many entries this replica holds (tests prove they stay bounded). */
    size: () => ({ rows: rows.size, touched: touched.size }),
  };
}
export type ProxyTargets = ReturnType<typeof createProxyTargets>;
