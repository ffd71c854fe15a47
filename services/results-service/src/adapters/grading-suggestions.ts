import { CollaborationMessages, CollaborationSuggestionReplySchema } from '@exam/domain/collaboration';
import { AppError, ErrorBodySchema, ErrorCode } from '@exam/domain/errors';
import {
  InternalSuggestReplySchema,
  SuggestionAvailabilitySchema,
  SuggestionMessages,
} from '@exam/domain/question-grading';
import { createInternalClient, parseUpstream, unexpectedStatus } from '@exam/server-kit/internal-client';
import type { GradingSuggester } from '../deps.ts';

/** The gateway's own words for a refusal, when its body says them; else the domain's. */
function messageOf(body: unknown, fallback: string): string {
  const parsed = ErrorBodySchema.safeParse(body);
  return parsed.success ? parsed.data.error.message : fallback;
}

/**
 * llm-gateway's AI-suggested marks (ARCHITECTURE.md, "Who calls whom"): POST
 * /internal/exams/{examId}/grading-suggestions with the question and one answer's text, GET
 * /internal/exams/{examId}/grading-usage, and POST /internal/exams/{examId}/collaboration-suggestions with one
 * candidate's conversation (the collaboration profile), which spends the same grading budget. The gateway answers 409 without a provider, 429 once the exam's grading
 * budget is spent and 502 when the provider failed; each becomes the same status here, with the gateway's message.
 * A gateway that cannot be reached (or answers 503) is UNAVAILABLE with SuggestionMessages.gatewayDown.
 */
export function createHttpGradingSuggester(
  baseUrl: string,
  internalToken: string,
  opts: { timeoutMs: number; maxSockets?: number },
): GradingSuggester & { close(): void } {
  // Its own client: a suggestion waits for every sample of a provider call, far longer than UPSTREAM_TIMEOUT_MS.
  const request = createInternalClient(baseUrl, internalToken, {
    timeoutMs: opts.timeoutMs,
    agent: { maxSockets: opts.maxSockets ?? 64 },
  });
  const path = (examId: string, action: string) => `/internal/exams/${encodeURIComponent(examId)}/${action}`;
  const reach = async <T>(call: () => Promise<T>, down: string = SuggestionMessages.gatewayDown): Promise<T> => {
    try {
      return await call();
    } catch (err) {
      if (err instanceof AppError && err.code === ErrorCode.UNAVAILABLE)
        throw new AppError(ErrorCode.UNAVAILABLE, down);
      throw err;
    }
  };
  /** The gateway's refusals of a suggestion, each as the same status here with the gateway's own message. */
  const refusal = (status: number, reply: unknown, examId: string, down: string): AppError | undefined => {
    if (status === 409) return new AppError(ErrorCode.CONFLICT, messageOf(reply, SuggestionMessages.noProvider));
    if (status === 429)
      return new AppError(ErrorCode.RATE_LIMITED, messageOf(reply, SuggestionMessages.budgetExhausted));
    if (status === 502)
      return new AppError(ErrorCode.UPSTREAM, messageOf(reply, `The AI provider failed for exam ${examId}`));
    if (status === 503) return new AppError(ErrorCode.UNAVAILABLE, down);
    return undefined;
  };
  return {
    async suggest(examId, body) {
      const { status, body: reply } = await reach(() =>
        request(path(examId, 'grading-suggestions'), { method: 'POST', body }),
      );
      if (status === 200) return parseUpstream('llm-gateway', InternalSuggestReplySchema, reply, 'a suggestion');
      throw (
        refusal(status, reply, examId, SuggestionMessages.gatewayDown) ??
        unexpectedStatus('llm-gateway', status, `a grading suggestion for exam ${examId}`)
      );
    },
    async suggestCollaboration(examId, body) {
      const down = CollaborationMessages.gatewayDown;
      const { status, body: reply } = await reach(
        () => request(path(examId, 'collaboration-suggestions'), { method: 'POST', body }),
        down,
      );
      if (status === 200)
        return parseUpstream('llm-gateway', CollaborationSuggestionReplySchema, reply, 'a collaboration suggestion');
      throw (
        refusal(status, reply, examId, down) ??
        unexpectedStatus('llm-gateway', status, `a collaboration suggestion for exam ${examId}`)
      );
    },
    async availability(examId) {
      const { status, body } = await reach(() => request(path(examId, 'grading-usage')));
      if (status !== 200) throw unexpectedStatus('llm-gateway', status, `the grading usage of exam ${examId}`);
      return parseUpstream('llm-gateway', SuggestionAvailabilitySchema, body, 'grading usage');
    },
    close: () => request.close(),
  };
}
