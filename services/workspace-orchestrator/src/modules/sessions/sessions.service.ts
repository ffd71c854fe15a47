import { randomBytes } from 'node:crypto';
import type { AttemptClaims, TokenClaims } from '@exam/domain/auth';
import { AppError, ErrorCode } from '@exam/domain/errors';
import type { WorkspaceFile } from '@exam/domain/internal';
import {
  editorPathOf,
  toWorkspaceUserId,
  workspaceUnavailable,
  type CatalogueEntry,
  type CreateSession,
  type Session,
} from '@exam/domain/workspace';
import type { WorkspaceRow } from '../../db/schema.ts';
import type { Deps } from '../../deps.ts';
import type { EntryResolver } from '../../engine/catalogue.ts';
import { LABELS, type WorkspaceEngine } from '../../engine/engine.ts';
import { collectFiles } from '../../engine/collect-files.ts';
import { loginToEditor, preloadEditor, waitUntilHealthy } from './editor.ts';
import type { NewWorkspace, SessionsRepository } from './sessions.repository.ts';
import { createVolumes, volumeNameFor, type VolumesOptions } from './volumes.ts';

/** `pageCloseGraceMs`: how long after a create a page-close beacon for the same session is taken to be the reloaded page's own. */
export type SessionsOptions = { startTimeoutMs: number; pageCloseGraceMs: number; volumes: VolumesOptions };

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
export function createSessionsService(
  repo: SessionsRepository,
  deps: Omit<Deps, 'database'>,
  resolveEntry: EntryResolver,
  opts: SessionsOptions,
) {
  const now = () => deps.clock.now();
  let onWarmClaimed: (workspaceType: string) => void = () => {};
  const volumes = createVolumes(repo, deps, resolveEntry, opts.volumes);
  /**
   * When create last answered each session. On a reload the old page's end beacon can reach the server
   * after the new page's create has reused the same session; a beacon that soon after is ignored.
   */
  const handedOut = new Map<string, number>();
  const handOut = (row: WorkspaceRow): Session => {
    const at = Date.now();
    handedOut.set(row.id, at);
    for (const [id, when] of handedOut) if (at - when > opts.pageCloseGraceMs) handedOut.delete(id);
    return toSession(row);
  };

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
    if (!engine)
      throw new AppError(
        ErrorCode.UNAVAILABLE,
        workspaceUnavailable(`the ${row.backend} backend of this session is not configured`),
      );
    return engine;
  }

  /** Ends a session: its container goes, its volume stays for the attempt (unless it never had one). */
  async function endRow(row: WorkspaceRow, reason: string, status: 'ended' | 'failed' = 'ended') {
    await repo.markEnded(row.id, now(), reason, status);
    if (row.handle) await engineOf(row).remove(row.handle);
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
      const started = await engine.start({
        id: row.id,
        workspaceType: row.workspaceType,
        entry,
        egress: row.egress,
        password: row.editorPassword,
        labels,
        volume,
      });
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

  /** A 'starting' row; its volume is the attempt's earlier one when `assignment.volume` names it, else a new one. */
  function newRow(
    engine: WorkspaceEngine,
    workspaceType: string,
    egress: 'none' | 'registries',
    assignment: Partial<NewWorkspace>,
  ): NewWorkspace {
    const at = now();
    const id = deps.ids.next();
    return {
      id,
      volume: volumeNameFor(id),
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
    if (!current || current.status !== 'ready')
      throw new AppError(ErrorCode.UNAVAILABLE, workspaceUnavailable('Failed to create your coding workspace'));
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
      await volumes.assign(warm);
      if (warm.handle && (await engine.isRunning(warm.handle))) return warm;
      await endRow(warm, 'the warm workspace had stopped');
    }
    return undefined;
  }

  async function readFiles(row: WorkspaceRow): Promise<Record<string, WorkspaceFile>> {
    if (!row.handle || row.status !== 'ready') return {};
    const engine = engineOf(row);
    if (!(await engine.isRunning(row.handle))) return {};
    return collectFiles(
      await engine.archiveWorkspace({ id: row.id, handle: row.handle, volume: row.volume ?? '' }),
      opts.volumes.collect,
    );
  }

  return {
    activeEngine,
    launch,
    newRow,
    endRow,
    engineOf,
    volumes,
    setOnWarmClaimed(listener: (workspaceType: string) => void) {
      onWarmClaimed = listener;
    },

    async create(claims: AttemptClaims, body: CreateSession): Promise<Session> {
      const found = await reusable(claims.sub);
      if (found) return handOut(found);
      const [settings, open] = await Promise.all([
        deps.directory.workspaceSettings(claims.examId),
        deps.directory.isAttemptOpen(claims.sub),
      ]);
      if (!open) throw new AppError(ErrorCode.ATTEMPT_CLOSED, 'This attempt has ended');
      if (!settings.enabled)
        throw new AppError(ErrorCode.CONFLICT, 'The coding workspace is not enabled for this exam');
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
        // The attempt's earlier volume (a reload ended its session) comes back with its files: a cold
        // start mounting it. Otherwise a warm container, whose fresh volume becomes the attempt's.
        const earlier = await volumes.ofAttempt(claims.sub);
        // Warm containers sit on the internal bridge only, so an exam allowing registries always cold-starts.
        const warm =
          !earlier && egress === 'none' ? await claimWarm(engine, settings.workspaceType, assignment) : undefined;
        if (warm) return handOut(warm);
        const row = await repo.insert(
          newRow(engine, settings.workspaceType, egress, {
            ...assignment,
            ...(earlier ? { volume: earlier.name } : {}),
          }),
        );
        if (!earlier) await volumes.record(row);
        const labels = { [LABELS.attemptId]: claims.sub, [LABELS.ownerId]: claims.ownerId, [LABELS.pool]: 'assigned' };
        return handOut(await launch(engine, row, entry, labels, 'ready'));
      } catch (err) {
        if (isUniqueViolation(err)) {
          const winner = await reusable(claims.sub);
          if (winner) return handOut(winner);
        }
        if (err instanceof AppError) throw err;
        throw new AppError(
          ErrorCode.UNAVAILABLE,
          workspaceUnavailable(`Failed to create your coding workspace (${(err as Error).message})`),
        );
      }
    },

    /** Ends the session (its container); `pageClose` marks the page-close beacon, ignored right after a create. */
    async end(sessionId: string, claims: AttemptClaims, how: { pageClose?: boolean } = {}): Promise<void> {
      const row = await repo.find(sessionId);
      if (!row) throw new AppError(ErrorCode.NOT_FOUND, 'Session not found');
      if (row.attemptId !== claims.sub)
        throw new AppError(ErrorCode.FORBIDDEN, 'This session belongs to another attempt');
      if (row.endedAt) return;
      if (how.pageClose && Date.now() - (handedOut.get(sessionId) ?? 0) < opts.pageCloseGraceMs) return;
      await endRow(row, 'ended by the candidate');
    },

    async list(claims: TokenClaims): Promise<Session[]> {
      const rows =
        claims.kind === 'attempt' ? await repo.listLiveForAttempt(claims.sub) : await repo.listLiveForOwner(claims.sub);
      return rows.map(toSession);
    },

    async files(sessionId: string, claims: TokenClaims): Promise<Record<string, WorkspaceFile>> {
      const row = await repo.find(sessionId);
      if (!row || !row.attemptId) throw new AppError(ErrorCode.NOT_FOUND, 'Session not found');
      const allowed = claims.kind === 'attempt' ? row.attemptId === claims.sub : row.ownerId === claims.sub;
      if (!allowed) throw new AppError(ErrorCode.FORBIDDEN, 'This session belongs to another attempt');
      if (row.endedAt)
        throw new AppError(ErrorCode.CONFLICT, 'This workspace session has ended; its files are kept in the result');
      return readFiles(row);
    },

    /**
     * Submit-time collection (results-service): the files of the attempt's workspace, from its running
     * container or, when the session already ended, from its volume. Then the session ends; the volume
     * stays (a repeated collect reads it again) until the reaper finds the attempt closed.
     */
    async collect(attemptId: string): Promise<Record<string, WorkspaceFile>> {
      const row = await repo.findLiveByAttempt(attemptId);
      const volume = await volumes.ofAttempt(attemptId);
      const running = row?.status === 'ready' && row.handle ? await engineOf(row).isRunning(row.handle) : false;
      let files: Record<string, WorkspaceFile> = {};
      if (row && running) files = await readFiles(row);
      else if (volume) files = await volumes.read(volume);
      if (row) await endRow(row, 'files collected at submit');
      if (volume) await volumes.markCollected(volume);
      return files;
    },
  };
}
export type SessionsService = ReturnType<typeof createSessionsService>;
