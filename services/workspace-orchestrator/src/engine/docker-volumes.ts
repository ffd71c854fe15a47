import { WORKSPACE_FOLDER, type CatalogueEntry } from '@exam/domain/workspace';
import type Docker from 'dockerode';
import { isNotFound } from './docker-client.ts';
import type { LoopVolumes } from './docker-loop-volumes.ts';
import { LABELS } from './engine.ts';

/** The workspace folder as a tar, from a running container or from a volume no container runs on any more. */
export function createVolumeArchives(docker: Docker, opts: { instance: string }, loop?: LoopVolumes) {
  return {
    async archiveWorkspace(workspace: { handle: string }) {
      return (await docker
        .getContainer(workspace.handle)
        .getArchive({ path: WORKSPACE_FOLDER })) as NodeJS.ReadableStream;
    },

    async archiveVolume<T>(
      volume: string,
      entry: CatalogueEntry,
      read: (tar: NodeJS.ReadableStream) => Promise<T>,
    ): Promise<T> {
      // A loop volume's device may have changed since its last mount (a reboot): point the record at it first.
      if (loop) {
        const labels = await docker
          .getVolume(volume)
          .inspect()
          .then(
            (v: { Labels?: Record<string, string> | null }) => v.Labels ?? {},
            (err: unknown) => {
              if (isNotFound(err)) return {};
              throw err;
            },
          );
        await loop.ensure(volume, labels);
      }
      // A container that is created but never started: the archive API mounts its volumes for the copy,
      // and nothing of the candidate's code runs. It is removed once the tar has been read.
      const reader = await docker.createContainer({
        Image: entry.image,
        Labels: { [LABELS.managed]: 'true', [LABELS.instance]: opts.instance, [LABELS.sessionId]: `reader-${volume}` },
        HostConfig: {
          NetworkMode: 'none',
          ReadonlyRootfs: true,
          Mounts: [{ Type: 'volume', Source: volume, Target: WORKSPACE_FOLDER, ReadOnly: true }],
        },
      });
      try {
        return await read((await reader.getArchive({ path: WORKSPACE_FOLDER })) as NodeJS.ReadableStream);
      } finally {
        await reader.remove({ force: true }).catch(() => undefined);
      }
    },

    async removeVolume(volume: string) {
      try {
        await docker.getVolume(volume).remove();
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
      await loop?.release(volume);
    },

    async listVolumes() {
      const { Volumes } = await docker.listVolumes({
        filters: { label: [`${LABELS.managed}=true`, `${LABELS.instance}=${opts.instance}`] },
      });
      return (Volumes ?? []).map((v) => v.Name);
    },
  };
}
