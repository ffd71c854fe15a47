import type { LtiScoreOutcome, LtiScoreRequest } from '@exam/domain/lti-ags';
import type { FastifyBaseLogger } from 'fastify';
import type { ScorePublisher } from '../../adapters/lti-ags.ts';
import { LtiServiceError } from '../../adapters/lti-service-token.ts';
import type { AdvantageRepository } from './advantage.repository.ts';
import { isRegisteredOrigin } from './platform-origins.ts';

/**
 * Score passback for results-service (ARCHITECTURE.md "LTI Advantage: score passback and course rosters"): results-service keeps the outbox and the retries;
 * this service holds the registrations and the tool's keys, so it talks to the LMS and says whether the LMS
 * took the score, and if not, whether another try may help.
 */
export function createLtiScoresService(repo: AdvantageRepository, publisher: ScorePublisher, log: FastifyBaseLogger) {
  const failed = (code: string, message: string, retryable: boolean): LtiScoreOutcome => ({
    outcome: 'failed',
    code,
    message,
    retryable,
  });
  return {
    /** undefined when the platform registration does not exist (the route answers 404). */
    async publish(score: LtiScoreRequest): Promise<LtiScoreOutcome | undefined> {
      const platform = await repo.platform(score.platformId);
      if (!platform) return undefined;
      if (platform.tokenOrigin === null)
        return failed(
          'LTI_PLATFORM_SUSPENDED',
          "This LMS registration shares its client ID and token endpoint with another creator's: correct it first",
          false,
        );
      // The registration's token goes only to its own LMS: a line item on another origin (stored before origins were
      // checked at the launch) is never posted to.
      if (!isRegisteredOrigin(platform, score.lineItemUrl))
        return failed(
          'LTI_ORIGIN_NOT_REGISTERED',
          'That gradebook column is not on an address of this LMS registration',
          false,
        );
      // The bearer token goes only to a line item a launch of this platform named.
      if (!(await repo.isKnownLineItem(platform.id, score.lineItemUrl)))
        return failed('LTI_LINE_ITEM_UNKNOWN', 'No launch from this LMS named that gradebook column', false);
      try {
        await publisher.publish(platform, score);
        return { outcome: 'sent' };
      } catch (err) {
        if (err instanceof LtiServiceError) {
          log.warn({ platformId: platform.id, code: err.code, retryable: err.retryable }, err.message);
          return failed(err.code, err.message, err.retryable);
        }
        throw err;
      }
    },
  };
}
export type LtiScoresService = ReturnType<typeof createLtiScoresService>;
