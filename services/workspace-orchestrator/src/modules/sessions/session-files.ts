import type { WorkspaceFile } from '@exam/domain/internal';
import type { WorkspaceRow } from '../../db/schema.ts';
import { collectFiles, type CollectLimits, type CollectPriorities } from '../../engine/collect-files.ts';
import type { EngineChoice } from './engines.ts';
import type { FileHistory } from './file-history.ts';
import type { SessionsRepository } from './sessions.repository.ts';
import type { Volumes } from './volumes.ts';
import type { WorkspaceRuns } from './workspace-runs.ts';

/** The files of a workspace: from its running container, or from its volume once the session ended. */
export function createSessionFiles(
  repo: SessionsRepository,
  parts: { volumes: Volumes; engines: EngineChoice; runs: WorkspaceRuns; history: FileHistory; clock: { now(): Date } },
  collect: CollectLimits,
) {
  const { volumes, engines, runs, history, clock } = parts;

  async function readFiles(
    row: WorkspaceRow,
    priorities: CollectPriorities = {},
  ): Promise<Record<string, WorkspaceFile>> {
    if (!row.handle || row.status !== 'ready') return {};
    const engine = engines.engineOf(row);
    if (!(await engine.isRunning(row.handle))) return {};
    return collectFiles(
      await engine.archiveWorkspace({ id: row.id, handle: row.handle, volume: row.volume ?? '' }),
      collect,
      priorities,
    );
  }

  return {
    readFiles,

    /**
     * A snapshot of a running workspace's files into the attempt's history (jobs/file-history.ts). Undefined when
     * the workspace does not run: an empty read would be taken for every file deleted.
     */
    async snapshot(row: WorkspaceRow): Promise<{ stored: number; capped: boolean } | undefined> {
      if (!row.attemptId || !row.handle || row.status !== 'ready' || row.endedAt) return undefined;
      const engine = engines.engineOf(row);
      if (!(await engine.isRunning(row.handle))) return undefined;
      // Decided before the read: an exam that keeps no files costs no look at them.
      if (!(await history.follows(row.attemptId, row.examId, clock.now()))) return undefined;
      const readAt = clock.now();
      const tar = await engine.archiveWorkspace({ id: row.id, handle: row.handle, volume: row.volume ?? '' });
      return history.record({ attemptId: row.attemptId, examId: row.examId }, await collectFiles(tar, collect), readAt);
    },

    /**
     * Submit-time collection (results-service): the files of the attempt's workspace, from its running
     * container or, when the session already ended, from its volume. Then the session ends; the volume
     * stays (a repeated collect reads it again) until the reaper finds the attempt closed. The files read are
     * the file history's last snapshot, so the history ends at what was collected.
     */
    async collect(attemptId: string, priorities: CollectPriorities = {}): Promise<Record<string, WorkspaceFile>> {
      const row = await repo.findLiveByAttempt(attemptId);
      const volume = await volumes.ofAttempt(attemptId);
      const running = row?.status === 'ready' && row.handle ? await engines.engineOf(row).isRunning(row.handle) : false;
      let files: Record<string, WorkspaceFile> = {};
      const readAt = clock.now();
      if (row && running) files = await readFiles(row, priorities);
      else if (volume) files = await volumes.read(volume, priorities);
      if ((row && running) || volume)
        await history.recordQuietly({ attemptId, examId: row?.examId ?? null }, files, readAt);
      if (row) await runs.endRow(row, 'files collected at submit');
      if (volume) await volumes.markCollected(volume);
      return files;
    },
  };
}
