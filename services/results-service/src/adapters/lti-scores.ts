import { ErrorBodySchema } from '@exam/domain/errors';
import { LtiScoreOutcomeSchema, type LtiScoreRequest } from '@exam/domain/lti-ags';
import { createInternalClient, parseUpstream, unexpectedStatus } from '@exam/server-kit/internal-client';
import type { LtiScores } from '../deps.ts';

/** POST {EXAM_SERVICE_URL}/internal/lti/scores: exam-service signs the token request and posts the score. */
export function createHttpLtiScores(baseUrl: string, internalToken: string, opts: { timeoutMs?: number } = {}) {
  const request = createInternalClient(baseUrl, internalToken, opts);
  const scores: LtiScores = {
    async publish(score: LtiScoreRequest) {
      const { status, body } = await request('/internal/lti/scores', { method: 'POST', body: score });
      if (status === 200) return parseUpstream('exam-service', LtiScoreOutcomeSchema, body, 'a score outcome');
      // A score exam-service refuses (e.g. an exam worth no points: AGS needs scoreMaximum > 0) stays refused.
      if (status === 400) {
        const refusal = ErrorBodySchema.safeParse(body);
        const message = refusal.success ? refusal.data.error.message : 'exam-service refused the score';
        return { outcome: 'failed', code: 'LTI_SCORE_INVALID', message, retryable: false };
      }
      // The platform registration was removed: no later try can send to it.
      if (status === 404)
        return {
          outcome: 'failed',
          code: 'LTI_PLATFORM_GONE',
          message: 'The LMS registration no longer exists',
          retryable: false,
        };
      throw unexpectedStatus('exam-service', status, 'an LTI score');
    },
  };
  return Object.assign(scores, { close: () => request.close() });
}
