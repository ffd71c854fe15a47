import type { WorkspaceFile } from '@exam/domain/internal';
import type { VolumeRow, WorkspaceRow } from '../../db/schema.ts';
import type { Deps } from '../../deps.ts';
import type { EntryResolver } from '../../engine/catalogue.ts';
import { LABELS, type WorkspaceEngine } from '../../engine/engine.ts';
import { collectFiles, type CollectLimits, type CollectPriorities } from '../../engine/collect-files.ts';
import type { SessionsRepository } from './sessions.repository.ts';

/** Docker volume names allow [a-zA-Z0-9][a-zA-Z0-9_.-]; session ids are hex. */
export const volumeNameFor = (sessionId: string) => `exam-ws-${sessionId}`;

/**
 * The attempt's files live in a volume that outlives its containers, so nothing a candidate typed is
 * lost to a reload. Ending a session removes the container only; the volume goes once its files were
 * collected at submit and the attempt is closed, or a grace period after the attempt was seen closed
 * (jobs/volume-reaper.ts).
 */
export function createVolumes(
  repo: SessionsRepository,
  deps: Omit<Deps, 'database'>,
  resolveEntry: EntryResolver,
  collect: CollectLimits,
) {
  const now = () => deps.clock.now();
  const engineOf = (backend: string): WorkspaceEngine | undefined => deps.engines.find((e) => e.kind === backend);

  async function remove(volume: Pick<VolumeRow, 'name' | 'backend'>) {
    await engineOf(volume.backend)?.removeVolume(volume.name);
    await repo.updateVolume(volume.name, { removedAt: now() });
  }

  return {
    /** Removes the volume from its engine and records that it is gone. */
    remove,

    /** Labels for the engine's volume: the attempt when it is known at creation (a warm volume gets it in the database on hand-out). */
    labels(row: WorkspaceRow): Record<string, string> {
      return { [LABELS.sessionId]: row.id, ...(row.attemptId ? { [LABELS.attemptId]: row.attemptId } : {}) };
    },

    /** Records a new volume; called after its workspace row exists so the reaper never sees it unused. */
    async record(row: WorkspaceRow): Promise<void> {
      await repo.insertVolume({
        name: row.volume!,
        backend: row.backend,
        host: row.host,
        workspaceType: row.workspaceType,
        attemptId: row.attemptId,
        createdAt: now(),
      });
    },

    /** The attempt's volume from an earlier session, if any is left. */
    ofAttempt: (attemptId: string) => repo.findVolumeOfAttempt(attemptId),

    /** A warm container's volume becomes the attempt's when the container is handed out. */
    async assign(row: WorkspaceRow): Promise<void> {
      if (row.volume) await repo.updateVolume(row.volume, { attemptId: row.attemptId });
    },

    /** A volume that never held an attempt's files (a warm container that was never handed out) goes with its container. */
    async discardUnassigned(row: WorkspaceRow): Promise<void> {
      if (!row.volume || row.attemptId) return;
      const volume = await repo.findVolume(row.volume);
      if (volume && !volume.attemptId && !volume.removedAt) await remove(volume);
    },

    /** The files of a volume no container runs on any more. */
    async read(volume: VolumeRow, priorities: CollectPriorities = {}): Promise<Record<string, WorkspaceFile>> {
      const engine = engineOf(volume.backend);
      if (!engine) return {};
      return engine.archiveVolume(volume.name, resolveEntry(volume.workspaceType), (tar) =>
        collectFiles(tar, collect, priorities),
      );
    },

    markCollected: (volume: VolumeRow) => repo.updateVolume(volume.name, { collectedAt: now() }),
  };
}
export type Volumes = ReturnType<typeof createVolumes>;
