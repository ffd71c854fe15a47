import { randomBytes } from 'node:crypto';
import type { AttemptClaims, TokenClaims } from '@exam/domain/auth';
import { AppError, ErrorCode } from '@exam/domain/errors';
import type { WorkspaceFile } from '@exam/domain/internal';
import { editorPathOf, toWorkspaceUserId, workspaceUnavailable, type CatalogueEntry, type CreateSession, type Session } from '@exam/domain/workspace';
import type { WorkspaceRow } from '../../db/schema.ts';
import type { Deps } from '../../deps.ts';
import type { EntryResolver } from '../../engine/catalogue.ts';
import { LABELS, type WorkspaceEngine } from '../../engine/engine.ts';
import { collectFiles, type CollectLimits } from '../files/collect.ts';
import { loginToEditor, waitUntilHealthy } from './editor.ts';
import type { NewWorkspace, SessionsRepository } from './sessions.repository.ts';

export type SessionsOptions = { startTimeoutMs: number; collect: CollectLimits };

const isUniqueViolation = (err: unknown): boolean => {
  const e = err as { code?: string; cause?: { code?: string } };
  return e.code === '23505' || e.cause?.code === '23505';
};

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

/** Session rules: one workspace per attempt, warm pool first, cold start otherwise (issue 6). */
export function createSessionsService(repo: SessionsRepository, deps: Omit<Deps, 'database'>, resolveEntry: EntryResolver, opts: SessionsOptions) {
  const now = () => deps.clock.now();
  let onWarmClaimed: (workspaceType: string) => void = () => {};

  /** The first engine that can run workspaces now, or 503 with every engine's reason. */
  async function activeEngine(): Promise<WorkspaceEngine> {
    const reasons: string[] = [];
    for (const engine of deps.engines) {
      const reason = await engine.unavailableReason();
      if (!reason) return engine;
      reasons.push(reason);
    }
    if (!reasons.length) reasons.push('no Docker engine or local code-server is configured');
    throw new AppError(ErrorCode.UNAVAILABLE, workspaceUnavailable(reasons.join('; ')));
  }

  function engineOf(row: WorkspaceRow): WorkspaceEngine {
    const engine = deps.engines.find((e) => e.kind === row.backend);
    if (!engine) throw new AppError(ErrorCode.UNAVAILABLE, workspaceUnavailable(`the ${row.backend} backend of this session is not configured`));
    return engine;
  }

  async function endRow(row: WorkspaceRow, reason: string, status: 'ended' | 'failed' = 'ended') {
    await repo.markEnded(row.id, now(), reason, status);
    if (row.handle) await engineOf(row).remove(row.handle);
  }

  /**
   * Starts a container (or process) for a row already inserted as 'starting', waits for the editor and
   * logs in with its password. On any failure the row is marked failed and the container removed.
   */
  async function launch(engine: WorkspaceEngine, row: WorkspaceRow, entry: CatalogueEntry, labels: Record<string, string>, finalStatus: 'ready' | 'warm') {
    let handle: string | undefined;
    try {
      const started = await engine.start({ id: row.id, workspaceType: row.workspaceType, entry, egress: row.egress, password: row.editorPassword, labels });
      handle = started.handle;
      await repo.update(row.id, { handle: started.handle, target: started.target });
      await waitUntilHealthy(started.target, entry, opts.startTimeoutMs, () => engine.isRunning(started.handle));
      const cookie = await loginToEditor(started.target, entry, row.editorPassword);
      const ready = await repo.update(row.id, { status: finalStatus, editorCookie: cookie });
      if (!ready) throw new Error('the session row disappeared');
      return ready;
    } catch (err) {
      await repo.markEnded(row.id, now(), `start failed: ${(err as Error).message}`, 'failed');
      if (handle) await engine.remove(handle).catch(() => undefined);
      throw err;
    }
  }

  function newRow(engine: WorkspaceEngine, workspaceType: string, egress: 'none' | 'registries', assignment: Partial<NewWorkspace>): NewWorkspace {
    const at = now();
    return {
      id: deps.ids.next(),
      backend: engine.kind,
      workspaceType,
      egress,
      status: 'starting',
      editorPassword: randomBytes(24).toString('base64url'),
      createdAt: at,
      lastActivityAt: at,
      ...assignment,
    };
  }

  /** A 'starting' row being launched by another request: wait until it is ready or has failed. */
  async function waitUntilSettled(row: WorkspaceRow): Promise<WorkspaceRow> {
    const deadline = Date.now() + opts.startTimeoutMs + 5000;
    let current: WorkspaceRow | undefined = row;
    while (current && current.status === 'starting' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      current = await repo.find(row.id);
    }
    if (!current || current.status !== 'ready') throw new AppError(ErrorCode.UNAVAILABLE, workspaceUnavailable('Failed to create your coding workspace'));
    return current;
  }

  /** The attempt's live session if its container still runs; a dead one is ended so a new one can start. */
  async function reusable(attemptId: string): Promise<WorkspaceRow | undefined> {
    const existing = await repo.findLiveByAttempt(attemptId);
    if (!existing) return undefined;
    if (existing.status === 'starting') return waitUntilSettled(existing);
    if (existing.handle && (await engineOf(existing).isRunning(existing.handle))) return existing;
    await endRow(existing, 'the workspace stopped');
    return undefined;
  }

  async function claimWarm(engine: WorkspaceEngine, workspaceType: string, assignment: Partial<NewWorkspace>) {
    for (let tries = 0; tries < 3; tries++) {
      const warm = await repo.claimWarm(workspaceType, engine.kind, assignment);
      if (!warm) return undefined;
      onWarmClaimed(workspaceType);
      if (warm.handle && (await engine.isRunning(warm.handle))) return warm;
      await endRow(warm, 'the warm workspace had stopped');
    }
    return undefined;
  }

  async function readFiles(row: WorkspaceRow): Promise<Record<string, WorkspaceFile>> {
    if (!row.handle || row.status !== 'ready') return {};
    const engine = engineOf(row);
    if (!(await engine.isRunning(row.handle))) return {};
    return collectFiles(await engine.archiveWorkspace({ id: row.id, handle: row.handle }), opts.collect);
  }

  return {
    activeEngine,
    launch,
    newRow,
    endRow,
    engineOf,
    setOnWarmClaimed(listener: (workspaceType: string) => void) {
      onWarmClaimed = listener;
    },

    async create(claims: AttemptClaims, body: CreateSession): Promise<Session> {
      const found = await reusable(claims.sub);
      if (found) return toSession(found);
      const [settings, open] = await Promise.all([deps.directory.workspaceSettings(claims.examId), deps.directory.isAttemptOpen(claims.sub)]);
      if (!open) throw new AppError(ErrorCode.ATTEMPT_CLOSED, 'This attempt has ended');
      if (!settings.enabled) throw new AppError(ErrorCode.CONFLICT, 'The coding workspace is not enabled for this exam');
      const engine = await activeEngine();
      const entry = resolveEntry(settings.workspaceType);
      const reason = await engine.entryUnavailableReason(entry);
      if (reason) throw new AppError(ErrorCode.UNAVAILABLE, workspaceUnavailable(reason));

      const at = now();
      const assignment = {
        attemptId: claims.sub,
        examId: claims.examId,
        ownerId: claims.ownerId,
        userId: toWorkspaceUserId(body.userId ?? claims.studentId),
        assignedAt: at,
        lastActivityAt: at,
      };
      const egress = settings.allowPackageRegistries ? 'registries' : 'none';
      try {
        // Warm containers sit on the internal bridge only, so an exam allowing registries always cold-starts.
        const warm = egress === 'none' ? await claimWarm(engine, settings.workspaceType, assignment) : undefined;
        if (warm) return toSession(warm);
        const row = await repo.insert(newRow(engine, settings.workspaceType, egress, assignment));
        const labels = { [LABELS.attemptId]: claims.sub, [LABELS.ownerId]: claims.ownerId, [LABELS.pool]: 'assigned' };
        return toSession(await launch(engine, row, entry, labels, 'ready'));
      } catch (err) {
        if (isUniqueViolation(err)) {
          const winner = await reusable(claims.sub);
          if (winner) return toSession(winner);
        }
        if (err instanceof AppError) throw err;
        throw new AppError(ErrorCode.UNAVAILABLE, workspaceUnavailable(`Failed to create your coding workspace (${(err as Error).message})`));
      }
    },

    async end(sessionId: string, claims: AttemptClaims): Promise<void> {
      const row = await repo.find(sessionId);
      if (!row) throw new AppError(ErrorCode.NOT_FOUND, 'Session not found');
      if (row.attemptId !== claims.sub) throw new AppError(ErrorCode.FORBIDDEN, 'This session belongs to another attempt');
      if (row.endedAt) return;
      await endRow(row, 'ended by the candidate');
    },

    async list(claims: TokenClaims): Promise<Session[]> {
      const rows = claims.kind === 'attempt' ? await repo.listLiveForAttempt(claims.sub) : await repo.listLiveForOwner(claims.sub);
      return rows.map(toSession);
    },

    async files(sessionId: string, claims: TokenClaims): Promise<Record<string, WorkspaceFile>> {
      const row = await repo.find(sessionId);
      if (!row || !row.attemptId) throw new AppError(ErrorCode.NOT_FOUND, 'Session not found');
      const allowed = claims.kind === 'attempt' ? row.attemptId === claims.sub : row.ownerId === claims.sub;
      if (!allowed) throw new AppError(ErrorCode.FORBIDDEN, 'This session belongs to another attempt');
      if (row.endedAt) throw new AppError(ErrorCode.CONFLICT, 'This workspace session has ended; its files are kept in the result');
      return readFiles(row);
    },

    /** Submit-time collection (results-service): the files of the attempt's live workspace, or none. */
    async collect(attemptId: string): Promise<Record<string, WorkspaceFile>> {
      const row = await repo.findLiveByAttempt(attemptId);
      return row ? readFiles(row) : {};
    },
  };
}
export type SessionsService = ReturnType<typeof createSessionsService>;
