import type { TokenClaims } from '@exam/domain/auth';
import { AppError, ErrorCode } from '@exam/domain/errors';
import type { WorkspaceFile } from '@exam/domain/internal';
import { grantCan } from '@exam/domain/roles';
import type { Session } from '@exam/domain/workspace';
import type { WorkspaceRow } from '../../db/schema.ts';
import type { Deps } from '../../deps.ts';
import type { EntryResolver } from '../../engine/catalogue.ts';
import type { CollectLimits } from '../../engine/collect-files.ts';
import type { WorkspaceEngine } from '../../engine/engine.ts';
import { createEngineChoice } from './engines.ts';
import type { FileHistory } from './file-history.ts';
import { createSessionFiles } from './session-files.ts';
import { createHandOuts, newWorkspaceRow, toSession } from './session-rows.ts';
import { createSessionStarts } from './session-start.ts';
import type { NewWorkspace, SessionsRepository } from './sessions.repository.ts';
import { createVolumes } from './volumes.ts';
import { createWorkspaceRuns } from './workspace-runs.ts';
import { createWorkspaceSetup, type SignAgentToken } from './workspace-setup.ts';

/**
 * `pageCloseGraceMs`: how long after a create a page-close beacon for the same session is taken to be the reloaded
 * page's own. `history`: where the workspace's file snapshots go (file-history.ts).
 */
export type SessionsOptions = {
  startTimeoutMs: number;
  pageCloseGraceMs: number;
  collect: CollectLimits;
  history: FileHistory;
  /** Signs a workspace's agent token with the services' JWT secret (workspace-setup.ts). */
  signAgentToken: SignAgentToken;
};

/**
 * Session rules: one workspace per attempt, warm pool first, cold start otherwise. The parts the
 * background jobs drive (launch, newRow, endRow, the engines, the volumes) are exposed beside the
 * HTTP feature's own calls.
 */
export function createSessionsService(
  repo: SessionsRepository,
  deps: Omit<Deps, 'database'>,
  resolveEntry: EntryResolver,
  opts: SessionsOptions,
) {
  const engines = createEngineChoice(deps.engines);
  const volumes = createVolumes(repo, deps, resolveEntry, opts.collect);
  const runs = createWorkspaceRuns(repo, deps, { volumes, engines }, opts);
  const handOuts = createHandOuts(repo, deps.clock, opts.pageCloseGraceMs);
  let onWarmClaimed: (workspaceType: string) => void = () => {};
  const starts = createSessionStarts(repo, deps, {
    volumes,
    engines,
    runs,
    handOuts,
    resolveEntry,
    setup: createWorkspaceSetup({ clock: deps.clock, signAgentToken: opts.signAgentToken }),
    onWarmClaimed: (workspaceType) => onWarmClaimed(workspaceType),
  });
  const files = createSessionFiles(
    repo,
    { volumes, engines, runs, history: opts.history, clock: deps.clock },
    opts.collect,
  );

  /** Full: less left than one mebibyte or one percent of the volume, whichever is more (a save needs room). */
  async function storageOf(row: WorkspaceRow): Promise<Pick<Session, 'storage'>> {
    if (row.status !== 'ready' || !row.handle) return {};
    const usage = await engines
      .engineOf(row)
      .diskUsage?.(row.handle)
      .catch(() => undefined);
    if (!usage) return {};
    const reserve = Math.max(1024 ** 2, usage.sizeBytes / 100);
    return { storage: { ...usage, full: usage.availableBytes < reserve } };
  }

  return {
    ...engines,
    ...runs,
    volumes,
    newRow: (engine: WorkspaceEngine, type: string, egress: 'none' | 'registries', assignment: Partial<NewWorkspace>) =>
      newWorkspaceRow(deps, engine, type, egress, assignment),
    setOnWarmClaimed(listener: (workspaceType: string) => void) {
      onWarmClaimed = listener;
    },
    create: starts.create,
    collect: files.collect,
    snapshot: files.snapshot,

    /** The attempt's workspace while it is ready (its container started); undefined otherwise. */
    async findLiveWorkspace(attemptId: string): Promise<WorkspaceRow | undefined> {
      const row = await repo.findLiveByAttempt(attemptId);
      return row?.status === 'ready' && row.handle ? row : undefined;
    },

    /** The session, live or ended; undefined when there is none by that id. */
    findSession: (sessionId: string) => repo.find(sessionId),

    /** Ends the session (its container); `pageClose` marks the page-close beacon, ignored right after a create. */
    async end(row: WorkspaceRow, how: { pageClose?: boolean } = {}): Promise<void> {
      if (row.endedAt) return;
      if (how.pageClose && handOuts.isFresh(row)) return;
      await runs.endRow(row, 'ended by the candidate');
    },

    /**
     * A candidate's own sessions; for a creator, the live sessions of their own exams and of the exams shared with
     * them in a role with the live view (@exam/domain/roles 'live:view': editors and proctors, not graders or
     * viewers). Without exam-service the creator still gets their own exams' sessions.
     */
    async list(claims: TokenClaims): Promise<Session[]> {
      if (claims.kind !== 'attempt') {
        const shared = await deps.directory
          .examGrants(claims.sub)
          .then((grants) => grants.filter((g) => grantCan(g, 'live:view')).map((g) => g.examId))
          .catch(() => []);
        const [own, others] = await Promise.all([repo.listLiveForOwner(claims.sub), repo.listLiveForExams(shared)]);
        const seen = new Set(own.map((row) => row.id));
        return [...own, ...others.filter((row) => !seen.has(row.id))].map(toSession);
      }
      const rows = await repo.listLiveForAttempt(claims.sub);
      // The candidate's page polls this: it says so when the workspace is full (its writes then fail with ENOSPC).
      return Promise.all(rows.map(async (row) => ({ ...toSession(row), ...(await storageOf(row)) })));
    },

    /** The files of a session whose container still runs (the route's guard has checked who asks). */
    async files(row: WorkspaceRow): Promise<Record<string, WorkspaceFile>> {
      if (row.endedAt)
        throw new AppError(ErrorCode.CONFLICT, 'This workspace session has ended; its files are kept in the result');
      return files.readFiles(row);
    },
  };
}
export type SessionsService = ReturnType<typeof createSessionsService>;
