import type { LtiScoreRequest } from '@exam/domain/lti-ags';
import {
  bodyExtract,
  isRetryableStatus,
  LtiScopes,
  LtiServiceError,
  type LtiPlatformAuth,
  type ServiceTokens,
} from './lti-service-token.ts';

/** AGS 2.0 §3.4: the media type of a Score. */
export const SCORE_MEDIA_TYPE = 'application/vnd.ims.lis.v1.score+json';

/**
 * The scores endpoint of a line item (AGS 2.0 §3.4: the line item URL with `/scores` appended to its path).
 * A line item URL may carry a query string or a fragment (Canvas and Moodle add parameters); `/scores` goes
 * into the path, before them.
 */
export function scoresUrl(lineItemUrl: string): string {
  const url = new URL(lineItemUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/scores`;
  return url.toString();
}

/** The Score's JSON (AGS 2.0 §3.4.1–3.4.8): scoreGiven only with its maximum, comment only when given. */
export function scoreBody(score: LtiScoreRequest) {
  return {
    userId: score.userId,
    ...(score.scoreGiven !== undefined ? { scoreGiven: score.scoreGiven, scoreMaximum: score.scoreMaximum } : {}),
    activityProgress: score.activityProgress,
    gradingProgress: score.gradingProgress,
    timestamp: score.timestamp,
    ...(score.comment ? { comment: score.comment } : {}),
  };
}

/**
 * Posts scores to an LMS line item with a bearer token of the score scope. A 401 with a cached token is
 * tried once more with a new token (the LMS may have revoked it early). Throws LtiServiceError otherwise.
 */
export function createScorePublisher(tokens: ServiceTokens, opts: { fetch?: typeof fetch; timeoutMs?: number } = {}) {
  const doFetch = opts.fetch ?? fetch;
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const scopes = [LtiScopes.score];

  async function post(url: string, token: string, body: string): Promise<Response> {
    try {
      return await doFetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': SCORE_MEDIA_TYPE },
        body,
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      if (err instanceof LtiServiceError) throw err;
      throw new LtiServiceError('LMS_UNREACHABLE', `The LMS could not be reached (${(err as Error).message})`, true);
    }
  }

  return {
    async publish(platform: LtiPlatformAuth, score: LtiScoreRequest): Promise<void> {
      const url = scoresUrl(score.lineItemUrl);
      const body = JSON.stringify(scoreBody(score));
      let token = await tokens.token(platform, scopes);
      let response = await post(url, token, body);
      if (response.status === 401) {
        tokens.forget(platform, scopes, token);
        token = await tokens.token(platform, scopes);
        response = await post(url, token, body);
      }
      if (response.ok) return;
      const detail = `(${response.status})${await bodyExtract(response)}`;
      if (isRetryableStatus(response.status))
        throw new LtiServiceError('LMS_UNAVAILABLE', `The LMS could not take the score now ${detail}`, true);
      if (response.status === 401 || response.status === 403)
        throw new LtiServiceError('LMS_UNAUTHORIZED', `The LMS refused the tool's access token ${detail}`, false);
      if (response.status === 404)
        throw new LtiServiceError('LMS_LINE_ITEM_GONE', `The LMS gradebook column no longer exists ${detail}`, false);
      throw new LtiServiceError('LMS_REJECTED', `The LMS refused the score ${detail}`, false);
    },
  };
}
export type ScorePublisher = ReturnType<typeof createScorePublisher>;
