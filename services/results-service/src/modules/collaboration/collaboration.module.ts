import { CollaborationMessages } from '@exam/domain/collaboration';
import type { AppModule } from '../../module-context.ts';
import { gapOfCandidate, type GapRead } from './collaboration-view.ts';
import { createCollaborationRepository, type CollaborationRepository } from './collaboration.repository.ts';
import { collaborationRoutes } from './collaboration.routes.ts';
import { createCollaborationService, type CollaborationService } from './collaboration.service.ts';

/** The judgements and process totals of an exam's profiles: insights show their levels and agreement. */
export type CollaborationCohort = Pick<CollaborationRepository, 'examJudgements' | 'processTotals'>;

declare module '../../module-context.ts' {
  interface Provided {
    collaborationCohort: CollaborationCohort;
    /** One result's profile as its owner reads it: the candidate report shows its levels (modules/reports). */
    collaborationProfile: CollaborationService['profile'];
  }
}

/**
 * The collaboration profile of a result (docs/product.md#collaboration-profile). Independence reads the candidate's
 * gap from the exam's insights report, a module above this one: through the module context at request time, once
 * every module is registered (as lti reads results' detail).
 */
export const collaborationModule: AppModule = async (app, { deps, use, provide }) => {
  const repo = createCollaborationRepository(deps.database);
  provide('collaborationCohort', repo);

  async function gapOf(examId: string, ownerId: string, resultId: string): Promise<GapRead> {
    let candidates;
    try {
      ({ candidates } = await use('insightsReport')(examId, ownerId));
    } catch (err) {
      app.log.warn({ err, examId }, 'the collaboration profile goes on without the ability fit');
      return { gap: null, reason: CollaborationMessages.abilityUnavailable, unavailable: true };
    }
    return gapOfCandidate(candidates, resultId);
  }

  const service = createCollaborationService({ ...deps, repo, timeline: use('timeline'), gapOf });
  provide('collaborationProfile', (resultId, ownerId) => service.profile(resultId, ownerId));
  await app.register(collaborationRoutes(service));
};
