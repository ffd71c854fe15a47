import type { AppModule } from '../../module-context.ts';
import { createScoreSyncRepository } from './score-sync.repository.ts';
import { scoreSyncRoutes } from './score-sync.routes.ts';
import { createScoreSyncService } from './score-sync.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** One pass of the LTI score passback job (jobs/lti-score-sync.ts); server.ts runs it on an interval, tests directly. */
    syncLtiScores: () => Promise<number>;
  }
}

/** The LMS score passback's outbox and its retry route. */
export const ltiModule: AppModule = async (app, { config, deps, use }) => {
  const scoreSync = createScoreSyncService(createScoreSyncRepository(deps.database), deps, app.log, {
    backoffMs: config.LTI_SCORE_SYNC_BACKOFF_SECONDS * 1000,
    backoffCapMs: config.LTI_SCORE_SYNC_BACKOFF_CAP_SECONDS * 1000,
    maxTries: config.LTI_SCORE_SYNC_MAX_TRIES,
  });
  app.decorate('syncLtiScores', () => scoreSync.syncDue());
  // results sits above lti: the route reads its detail at request time, once every module is registered.
  const results = { detail: (id: string, ownerId: string) => use('resultsService').detail(id, ownerId) };
  await app.register(scoreSyncRoutes(scoreSync, results));
};
