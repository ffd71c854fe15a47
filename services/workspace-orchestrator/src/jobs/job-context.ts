import type { FastifyBaseLogger } from 'fastify';
import type { Deps } from '../deps.ts';
import type { EntryResolver } from '../engine/catalogue.ts';
import type { WorkspaceEngine } from '../engine/engine.ts';
import type { FileHistoryRepository } from '../modules/sessions/file-history.repository.ts';
import type { SessionsRepository } from '../modules/sessions/sessions.repository.ts';
import type { SessionsService } from '../modules/sessions/sessions.service.ts';

/**
 * What the background jobs work with: the app's sessions parts (app.workspaces) and the outside world
 * (the clock, the directory of attempts). Everything they decide comes from the database and the
 * engine's labels, so any orchestrator process can pick the work up after a restart.
 */
export type JobContext = {
  repo: SessionsRepository;
  /** The file history's schedule (jobs/file-history.ts claims due workspaces from it). */
  historyRepo: FileHistoryRepository;
  service: SessionsService;
  resolveEntry: EntryResolver;
  clock: Deps['clock'];
  directory: Deps['directory'];
  log: FastifyBaseLogger;
};

/** The engine that can run workspaces now, or undefined (a job then decides nothing this round). */
export async function availableEngine(ctx: Pick<JobContext, 'service'>): Promise<WorkspaceEngine | undefined> {
  try {
    return await ctx.service.activeEngine();
  } catch {
    return undefined;
  }
}
