import type { AttemptClaims } from '@exam/domain/auth';
import { AppError, ErrorCode } from '@exam/domain/errors';
import type { CodingWorkspace } from '@exam/domain/exam';
import { workspaceUnavailableError } from '@exam/domain/service-status';
import { toWorkspaceUserId, type CatalogueEntry, type CreateSession, type Session } from '@exam/domain/workspace';
import type { WorkspaceRow } from '../../db/schema.ts';
import type { Deps, WorkspaceExam } from '../../deps.ts';
import type { EntryResolver } from '../../engine/catalogue.ts';
import { LABELS, type WorkspaceEngine } from '../../engine/engine.ts';
import type { EngineChoice } from './engines.ts';
import { isUniqueViolation, newWorkspaceRow, type HandOuts } from './session-rows.ts';
import type { NewWorkspace, SessionsRepository } from './sessions.repository.ts';
import type { Volumes } from './volumes.ts';
import type { WorkspaceRuns } from './workspace-runs.ts';
import type { WorkspaceSetup } from './workspace-setup.ts';

type StartParts = {
  volumes: Volumes;
  engines: EngineChoice;
  runs: WorkspaceRuns;
  handOuts: HandOuts;
  resolveEntry: EntryResolver;
  setup: WorkspaceSetup;
  /** Told each time a warm container is handed out (the warm pool job refills after the burst). */
  onWarmClaimed(workspaceType: string): void;
};
type Prepared = {
  settings: CodingWorkspace;
  exam: WorkspaceExam;
  deadline: string | null;
  engine: WorkspaceEngine;
  entry: CatalogueEntry;
};

/** Create: one workspace per attempt, the attempt's earlier volume first, then the warm pool, a cold start otherwise. */
export function createSessionStarts(repo: SessionsRepository, deps: Omit<Deps, 'database'>, parts: StartParts) {
  const { volumes, engines, runs, handOuts } = parts;

  /** The attempt's live session if its container still runs; a dead one is ended so a new one can start. */
  async function reusable(attemptId: string): Promise<WorkspaceRow | undefined> {
    const existing = await repo.findLiveByAttempt(attemptId);
    if (!existing) return undefined;
    if (existing.status === 'starting') return runs.waitUntilSettled(existing);
    // Another host's engine runs it: this one cannot see the container, and that host's reaper judges it.
    if ((await engines.isOnThisHost(existing)) === false) return existing;
    if (existing.handle && (await engines.engineOf(existing).isRunning(existing.handle))) return existing;
    await runs.endRow(existing, 'the workspace stopped');
    return undefined;
  }

  async function claimWarm(engine: WorkspaceEngine, workspaceType: string, assignment: Partial<NewWorkspace>) {
    for (let tries = 0; tries < 3; tries++) {
      const warm = await repo.claimWarm(workspaceType, engine.kind, await engine.hostId(), assignment);
      if (!warm) return undefined;
      parts.onWarmClaimed(workspaceType);
      await volumes.assign(warm);
      if (warm.handle && (await engine.isRunning(warm.handle))) return warm;
      await runs.endRow(warm, 'the warm workspace had stopped');
    }
    return undefined;
  }

  /** The exam's settings, once the attempt is open and its exam has a workspace this server can run now. */
  async function prepare(claims: AttemptClaims): Promise<Prepared> {
    const [exam, attempt] = await Promise.all([
      deps.directory.workspaceExam(claims.examId),
      deps.directory.attemptState(claims.sub),
    ]);
    if (!attempt.isOpen) throw new AppError(ErrorCode.ATTEMPT_CLOSED, 'This attempt has ended');
    const settings = exam.codingWorkspace;
    if (!settings.enabled) throw new AppError(ErrorCode.CONFLICT, 'The coding workspace is not enabled for this exam');
    const engine = await engines.activeEngine();
    const entry = parts.resolveEntry(settings.workspaceType);
    const reason = await engine.entryUnavailableReason(entry);
    if (reason) throw workspaceUnavailableError(reason, settings.workspaceType);
    return { settings, exam, deadline: attempt.deadline, engine, entry };
  }

  /**
   * Gives the attempt's workspace its starter files (first start only) and its agent's settings before anyone sees
   * it. A failure ends the session; on a first start its volume goes too, so the next try is a first start again.
   */
  async function setUp(row: WorkspaceRow, { exam, deadline, engine }: Prepared, firstStart: boolean) {
    try {
      await parts.setup.setUp(engine, row, exam, { deadline, firstStart });
      return row;
    } catch (err) {
      await runs.endRow(row, `setting up the workspace failed: ${(err as Error).message}`, 'failed');
      const volume = firstStart && row.attemptId ? await volumes.ofAttempt(row.attemptId) : undefined;
      if (volume) await volumes.remove(volume);
      throw err;
    }
  }

  async function start(claims: AttemptClaims, body: CreateSession, prepared: Prepared) {
    const { settings, engine, entry } = prepared;
    const at = deps.clock.now();
    const assignment = {
      attemptId: claims.sub,
      examId: claims.examId,
      ownerId: claims.ownerId,
      userId: toWorkspaceUserId(body.userId ?? claims.studentId),
      assignedAt: at,
      lastActivityAt: at,
    };
    const egress = settings.allowPackageRegistries ? 'registries' : 'none';
    // The attempt's earlier volume (a reload ended its session) comes back with its files: a cold
    // start mounting it. Otherwise a warm container, whose fresh volume becomes the attempt's.
    const earlier = await volumes.ofAttempt(claims.sub);
    // Warm containers sit on the internal bridge only, so an exam allowing registries always cold-starts.
    const warm =
      !earlier && egress === 'none' ? await claimWarm(engine, settings.workspaceType, assignment) : undefined;
    if (warm) return setUp(warm, prepared, true);
    const volume = earlier ? { volume: earlier.name } : {};
    const row = await repo.insert(
      await newWorkspaceRow(deps, engine, settings.workspaceType, egress, { ...assignment, ...volume }),
    );
    if (!earlier) await volumes.record(row);
    const labels = { [LABELS.attemptId]: claims.sub, [LABELS.ownerId]: claims.ownerId, [LABELS.pool]: 'assigned' };
    return setUp(await runs.launch(engine, row, entry, labels, 'ready'), prepared, !earlier);
  }

  return {
    async create(claims: AttemptClaims, body: CreateSession): Promise<Session> {
      const found = await reusable(claims.sub);
      if (found) return handOuts.handOut(found);
      const prepared = await prepare(claims);
      try {
        return handOuts.handOut(await start(claims, body, prepared));
      } catch (err) {
        if (isUniqueViolation(err)) {
          const winner = await reusable(claims.sub);
          if (winner) return handOuts.handOut(winner);
        }
        if (err instanceof AppError) throw err;
        throw workspaceUnavailableError({
          kind: 'start-failed',
          detail: `the workspace did not start: ${(err as Error).message}`,
        });
      }
    },
  };
}
