import type { CollaborationSuggestionReply, CollaborationSuggestionRequest } from '@exam/domain/collaboration';
import { AppError, ErrorCode, notFound } from '@exam/domain/errors';
import type { FastifyBaseLogger } from 'fastify';
import type { ProviderRequest } from '../../adapters/providers/types.ts';
import type { Deps } from '../../deps.ts';
import { buildCollaborationSystemPrompt, buildConversationMessage } from './collaboration-prompt.ts';
import { COLLABORATION_FORMAT, parseCollaboration, quotesFromMessages } from './collaboration-format.ts';
import type { GradingKeys } from './grading-target.ts';
import type { GradingUsageRepository } from './grading-usage.repository.ts';
import { sampleStructured } from './sample-suggestion.ts';
import { GradingMessages, readyGradingTarget } from './suggest-marks.ts';

/**
 * Low but not 0: one call, whose level should be the model's considered one rather than a draw; the grader's
 * decision, not a second sample, is the check (docs/product.md#collaboration-profile).
 */
export const COLLABORATION_TEMPERATURE = 0.2;
/**
 * Two dimensions of a 2–3 sentence rationale (~100 tokens each) and up to 3 quotes (~60 each): about 600 tokens;
 * 1200 leaves room, and a reply cut at the limit is invalid JSON, refused rather than half-read.
 */
export const COLLABORATION_MAX_TOKENS = 1200;

/**
 * Suggested framing and verification levels of one candidate's conversation (docs/product.md#collaboration-profile),
 * on the exam's own provider, spending the exam's grading budget like suggested marks: 409 without a provider, 429
 * once the budget is spent, 502 when the provider failed or its reply is not the schema's. Quotes not found in the
 * candidate's own messages are dropped.
 */
export function createCollaborationSuggester(
  repo: GradingUsageRepository,
  deps: Pick<Deps, 'exams' | 'llm' | 'clock' | 'baseUrlGuard'>,
  keys: GradingKeys,
) {
  return {
    async suggest(
      examId: string,
      body: CollaborationSuggestionRequest,
      ctx: { signal: AbortSignal; log: FastifyBaseLogger },
    ): Promise<CollaborationSuggestionReply> {
      const exam = await deps.exams.findExam(examId);
      if (!exam) throw notFound('Exam');
      const target = await readyGradingTarget(exam, { repo, deps, keys });
      // The questions and the conversation only: results-service sends no name, ID or e-mail, and nothing is added.
      const request: ProviderRequest = {
        ...target,
        system: buildCollaborationSystemPrompt(body.figures),
        messages: [buildConversationMessage(body)],
        temperature: COLLABORATION_TEMPERATURE,
        maxTokens: COLLABORATION_MAX_TOKENS,
        responseFormat: COLLABORATION_FORMAT,
      };
      const outcome = await sampleStructured(deps.llm, request, ctx.signal, [target.apiKey], parseCollaboration);
      await repo.addSpend(examId, { calls: 1, ...outcome.usage }, deps.clock.now());
      const call = { examId, provider: target.provider, model: target.model };
      if (outcome.kind === 'failed') {
        ctx.log.warn(
          { ...call, upstreamStatus: outcome.status, reason: outcome.reason },
          'a collaboration suggestion failed upstream',
        );
        throw new AppError(ErrorCode.UPSTREAM, GradingMessages.upstreamFailed(outcome.reason));
      }
      if (outcome.kind === 'invalid') {
        ctx.log.warn({ ...call, reason: outcome.reason }, 'a collaboration suggestion was invalid');
        throw new AppError(ErrorCode.UPSTREAM, CollaborationGatewayMessages.invalid);
      }
      const said = body.messages.filter((m) => m.role === 'user').map((m) => m.content);
      const { framing, verification } = outcome.value;
      return {
        framing: { ...framing, quotes: quotesFromMessages(framing.quotes, said) },
        verification: { ...verification, quotes: quotesFromMessages(verification.quotes, said) },
        provider: target.provider,
        model: target.model,
        usage: outcome.usage,
      };
    },
  };
}
export type CollaborationSuggester = ReturnType<typeof createCollaborationSuggester>;

export const CollaborationGatewayMessages = {
  invalid:
    'The AI provider answered, but its reply was not a valid collaboration suggestion (not JSON of the suggestion’s shape).',
} as const;
