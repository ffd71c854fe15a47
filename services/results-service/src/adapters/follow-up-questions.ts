import { ErrorBodySchema, AppError, ErrorCode } from '@exam/domain/errors';
import { FollowUpMessages, GenerateFollowUpsResponseSchema } from '@exam/domain/follow-up';
import { createInternalClient, parseUpstream, unexpectedStatus } from '@exam/server-kit/internal-client';
import type { FollowUpQuestions } from '../deps.ts';

const messageOf = (body: unknown, fallback: string) => {
  const parsed = ErrorBodySchema.safeParse(body);
  return parsed.success ? parsed.data.error.message : fallback;
};

/**
 * llm-gateway's follow-up questions (ARCHITECTURE.md, the results-service ⇄ llm-gateway loop): POST
 * /internal/attempts/{attemptId}/follow-up-questions with the candidate's own answers. Its own client and timeout
 * (FOLLOW_UP_TIMEOUT_MS): the gateway answers after one provider reply. 409, 429 and 502 become CONFLICT,
 * RATE_LIMITED and UPSTREAM with the gateway's message; a gateway that cannot be reached, times out or answers 503
 * is UNAVAILABLE.
 */
export function createHttpFollowUpQuestions(
  baseUrl: string,
  internalToken: string,
  opts: { timeoutMs: number },
): FollowUpQuestions & { close(): void } {
  const request = createInternalClient(baseUrl, internalToken, { timeoutMs: opts.timeoutMs });
  return {
    async generate(attemptId, body) {
      const { status, body: reply } = await request(
        `/internal/attempts/${encodeURIComponent(attemptId)}/follow-up-questions`,
        { method: 'POST', body },
      );
      if (status === 200)
        return parseUpstream('llm-gateway', GenerateFollowUpsResponseSchema, reply, 'follow-up questions');
      if (status === 404 || status === 409)
        throw new AppError(ErrorCode.CONFLICT, messageOf(reply, FollowUpMessages.skippedNoAssistant));
      if (status === 429) throw new AppError(ErrorCode.RATE_LIMITED, messageOf(reply, FollowUpMessages.skippedBudget));
      if (status === 502) throw new AppError(ErrorCode.UPSTREAM, messageOf(reply, FollowUpMessages.skippedProvider));
      if (status === 503) throw new AppError(ErrorCode.UNAVAILABLE, FollowUpMessages.skippedProvider);
      throw unexpectedStatus('llm-gateway', status, `follow-up questions for attempt ${attemptId}`);
    },
    close: () => request.close(),
  };
}
