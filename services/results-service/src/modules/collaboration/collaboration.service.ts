import {
  CollaborationMessages,
  JUDGED_DIMENSIONS,
  type CollaborationJudgement,
  type CollaborationProfile,
  type JudgedDimension,
} from '@exam/domain/collaboration';
import { collaborationFigures } from '@exam/domain/collaboration-figures';
import { AppError, ErrorCode } from '@exam/domain/errors';
import type { Deps } from '../../deps.ts';
import { candidateIdentifiers } from '../suggestions/candidate-masking.ts';
import type { TimelineService } from '../timeline/timeline.service.ts';
import { suggestionRequestOf } from './collaboration-request.ts';
import { profileOf, toJudgement, type GapRead, type LoadedAttempt } from './collaboration-view.ts';
import type { CollaborationRepository } from './collaboration.repository.ts';

export type CollaborationServiceDeps = Pick<Deps, 'gradingSuggester' | 'clock'> & {
  repo: CollaborationRepository;
  timeline: TimelineService;
  /** The candidate's aided/unaided gap from the exam's insights report (modules/insights, read at request time). */
  gapOf(examId: string, ownerId: string, resultId: string): Promise<GapRead>;
};

const notFound = () => new AppError(ErrorCode.NOT_FOUND, 'Result not found');

/**
 * The collaboration profile of one result (docs/product.md#collaboration-profile), for the exam's owner only: anyone
 * else's result answers 404 as if it did not exist. The process figures come from the attempt's timeline (the
 * timeline module's builder), the judged levels from collaboration_judgements, independence from insights.
 */
export function createCollaborationService(deps: CollaborationServiceDeps) {
  async function load(resultId: string, ownerId: string) {
    const [found, timeline] = await Promise.all([
      deps.repo.findOwned(resultId, ownerId),
      // 404 for a result that is not the owner's, as the timeline's own route answers.
      deps.timeline.timeline(resultId, ownerId),
    ]);
    if (!found) throw notFound();
    const questions = found.snapshot.questions.map((q, index) => ({ index, title: q.title, content: q.content }));
    const loaded: LoadedAttempt = { timeline, questions, figures: collaborationFigures(timeline, questions) };
    return { found, loaded };
  }

  return {
    /** GET /api/results/{resultId}/collaboration */
    async profile(resultId: string, ownerId: string): Promise<CollaborationProfile> {
      const [{ found, loaded }, judgements] = await Promise.all([
        load(resultId, ownerId),
        deps.repo.judgementsOf(resultId),
      ]);
      return profileOf(resultId, loaded, judgements, await deps.gapOf(found.examId, ownerId, resultId));
    },

    /**
     * POST …/collaboration/suggestions: asks llm-gateway for framing and verification levels and stores them (a new
     * suggestion replaces an undecided one; a decided one keeps its final level). 400 when the candidate sent the
     * assistant nothing; 503 when the transcript cannot be read; the gateway's 409/429/502/503 pass through.
     */
    async suggest(resultId: string, owner: { sub: string }): Promise<CollaborationProfile> {
      const { found, loaded } = await load(resultId, owner.sub);
      if (loaded.timeline.unavailable.includes('assistant'))
        throw new AppError(ErrorCode.UNAVAILABLE, CollaborationMessages.assistantUnavailable);
      if (!loaded.timeline.messages.some((m) => m.role === 'user'))
        throw new AppError(ErrorCode.VALIDATION, CollaborationMessages.noTranscript, [
          { path: 'resultId', message: CollaborationMessages.noTranscript },
        ]);
      const identifiers = candidateIdentifiers({ name: found.userName, studentId: found.studentId });
      const reply = await deps.gradingSuggester.suggestCollaboration(
        found.examId,
        suggestionRequestOf(loaded, identifiers),
      );
      const suggestedAt = deps.clock.now();
      // One call made both: each row keeps that call's usage.
      const judgements = await Promise.all(
        JUDGED_DIMENSIONS.map((dimension) =>
          deps.repo.storeSuggestion({
            resultId,
            examId: found.examId,
            ownerId: owner.sub,
            dimension,
            suggestedLevel: reply[dimension].level,
            rationale: reply[dimension].rationale,
            quotes: reply[dimension].quotes,
            provider: reply.provider,
            model: reply.model,
            inputTokens: reply.usage.inputTokens,
            outputTokens: reply.usage.outputTokens,
            suggestedAt,
          }),
        ),
      );
      return profileOf(resultId, loaded, judgements, await deps.gapOf(found.examId, owner.sub, resultId));
    },

    /** PUT …/collaboration/{dimension}: the grader's level; 409 before any suggestion of that dimension. */
    async setLevel(
      resultId: string,
      dimension: JudgedDimension,
      level: number,
      owner: { sub: string; email: string },
    ): Promise<CollaborationJudgement> {
      if (!(await deps.repo.findOwned(resultId, owner.sub))) throw notFound();
      const row = await deps.repo.decide(resultId, dimension, level, owner.email, deps.clock.now());
      if (!row) throw new AppError(ErrorCode.CONFLICT, CollaborationMessages.suggestFirst);
      return toJudgement(row);
    },
  };
}
export type CollaborationService = ReturnType<typeof createCollaborationService>;
