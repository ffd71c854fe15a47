import { AppError, ErrorCode } from '@exam/domain/errors';
import type { PrivacyEraseRequest } from '@exam/domain/privacy';
import { and, inArray, isNull } from 'drizzle-orm';
import type { WorkspaceDatabase } from '../../db/database.ts';
import { volumes, workspaces } from '../../db/schema.ts';
import type { WorkspaceEngine } from '../../engine/engine.ts';

/**
 * Before the rows go: the attempts' running containers and their volumes (the candidate's files) are removed from
 * the engine that holds them. A volume on another host's engine cannot be reached from here: the erasure fails, so
 * exam-service's job retries it until a replica on that host (any replica, on Kubernetes) takes it.
 */
export function createEngineCleanup(database: WorkspaceDatabase, engines: WorkspaceEngine[]) {
  const { db } = database;
  async function engineFor(backend: string, host: string | null): Promise<WorkspaceEngine> {
    const engine = engines.find((e) => e.kind === backend);
    if (!engine) throw new AppError(ErrorCode.UNAVAILABLE, `No ${backend} engine here for an attempt's workspace`);
    if (host && backend !== 'local' && (await engine.hostId()) !== host)
      throw new AppError(ErrorCode.UNAVAILABLE, `An attempt's workspace is on host ${host}, not this one`);
    return engine;
  }
  return async (request: PrivacyEraseRequest): Promise<Record<string, number>> => {
    if (request.attemptIds.length === 0) return {};
    const live = await db
      .select()
      .from(workspaces)
      .where(and(inArray(workspaces.attemptId, request.attemptIds), isNull(workspaces.endedAt)));
    let containers = 0;
    for (const row of live) {
      if (!row.handle) continue;
      await (await engineFor(row.backend, row.host)).remove(row.handle);
      containers++;
    }
    const kept = await db
      .select()
      .from(volumes)
      .where(and(inArray(volumes.attemptId, request.attemptIds), isNull(volumes.removedAt)));
    for (const volume of kept) await (await engineFor(volume.backend, volume.host)).removeVolume(volume.name);
    return {
      ...(containers > 0 ? { 'engine:containers': containers } : {}),
      ...(kept.length > 0 ? { 'engine:volumes': kept.length } : {}),
    };
  };
}
