import { workspaceUnavailableError } from '@exam/domain/service-status';
import type { CatalogueEntry } from '@exam/domain/workspace';
import type { WorkspaceRow } from '../../db/schema.ts';
import type { Deps } from '../../deps.ts';
import type { WorkspaceEngine } from '../../engine/engine.ts';
import { loginToEditor, preloadEditor, waitUntilHealthy } from './editor.ts';
import type { EngineChoice } from './engines.ts';
import type { SessionsRepository } from './sessions.repository.ts';
import type { Volumes } from './volumes.ts';

/** A workspace row's container (or process) from its start to its end. */
export function createWorkspaceRuns(
  repo: SessionsRepository,
  deps: Pick<Deps, 'clock'>,
  parts: { volumes: Volumes; engines: EngineChoice },
  opts: { startTimeoutMs: number },
) {
  const { volumes, engines } = parts;
  const now = () => deps.clock.now();

  /** Ends a session: its container goes, its volume stays for the attempt (unless it never had one). */
  async function endRow(row: WorkspaceRow, reason: string, status: 'ended' | 'failed' = 'ended') {
    await repo.markEnded(row.id, now(), reason, status);
    if (row.handle) await engines.engineOf(row).remove(row.handle);
    await volumes.discardUnassigned(row);
  }

  /**
   * Starts a container (or process) for a row already inserted as 'starting', waits for the editor and
   * logs in with its password. On any failure the row is marked failed and the container removed.
   */
  async function launch(
    engine: WorkspaceEngine,
    row: WorkspaceRow,
    entry: CatalogueEntry,
    labels: Record<string, string>,
    finalStatus: 'ready' | 'warm',
  ) {
    let handle: string | undefined;
    try {
      const volume = { name: row.volume!, labels: volumes.labels(row) };
      const { workspaceType, egress, editorPassword: password } = row;
      const started = await engine.start({ id: row.id, workspaceType, entry, egress, password, labels, volume });
      handle = started.handle;
      await repo.update(row.id, { handle: started.handle, target: started.target });
      await waitUntilHealthy(started.target, entry, opts.startTimeoutMs, () => engine.isRunning(started.handle));
      const cookie = await loginToEditor(started.target, entry, row.editorPassword);
      // A warm container has VS Code loaded before anyone waits for it; a cold one loads it while
      // the create answer and the page's redirects travel, instead of after them.
      const preloading = preloadEditor(started.target, entry, cookie);
      if (finalStatus === 'warm') await preloading;
      const ready = await repo.update(row.id, { status: finalStatus, editorCookie: cookie });
      if (!ready) throw new Error('the session row disappeared');
      return ready;
    } catch (err) {
      await repo.markEnded(row.id, now(), `start failed: ${(err as Error).message}`, 'failed');
      if (handle) await engine.remove(handle).catch(() => undefined);
      await volumes.discardUnassigned(row).catch(() => undefined);
      throw err;
    }
  }

  /** A 'starting' row being launched by another request: wait until it is ready or has failed. */
  async function waitUntilSettled(row: WorkspaceRow): Promise<WorkspaceRow> {
    const deadline = Date.now() + opts.startTimeoutMs + 5000;
    let current: WorkspaceRow | undefined = row;
    while (current && current.status === 'starting' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      current = await repo.find(row.id);
    }
    if (!current || current.status !== 'ready')
      throw workspaceUnavailableError({
        kind: 'start-failed',
        detail: current
          ? `the session ${row.id} ended as ${current.status} while starting`
          : `the session ${row.id} went away while starting`,
      });
    return current;
  }

  return { endRow, launch, waitUntilSettled };
}
export type WorkspaceRuns = ReturnType<typeof createWorkspaceRuns>;
