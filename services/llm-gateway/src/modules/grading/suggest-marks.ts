import { AppError, ErrorCode, notFound } from '@exam/domain/errors';
import type { InternalExam } from '@exam/domain/internal';
import {
  SuggestionMessages,
  type InternalSuggestReply,
  type InternalSuggestRequest,
  type SuggestionAvailability,
} from '@exam/domain/question-grading';
import type { FastifyBaseLogger } from 'fastify';
import type { ProviderRequest } from '../../adapters/providers/types.ts';
import type { Deps } from '../../deps.ts';
import { buildAnswerMessage, buildGradingSystemPrompt } from './grading-prompt.ts';
import { findGradingTarget, type GradingKeys, type GradingTarget } from './grading-target.ts';
import type { GradingUsageRepository } from './grading-usage.repository.ts';
import { sampleSuggestion, type SampleOutcome } from './sample-suggestion.ts';
import { SUGGESTION_FORMAT } from './suggestion-format.ts';

/**
 * Samples are drawn at a temperature where they can differ: their disagreement is what flags an answer as
 * uncertain (docs/product.md#grading-by-question). At 0 every sample would say the same, certain or not.
 */
export const SAMPLE_TEMPERATURE = 0.7;
/**
 * A sample is a few hundred tokens: a 2–3 sentence rationale (~80), a short quote (~60) and about 15 per rubric
 * criterion (up to 30 criteria, ~450). 800 leaves room for the largest rubric, and a reply cut at the limit is
 * invalid JSON and dropped rather than half-read.
 */
export const SAMPLE_MAX_TOKENS = 800;

export const GradingMessages = {
  allInvalid: (n: number) =>
    `The AI provider answered, but none of its ${n} replies was a valid suggestion (not JSON of the suggestion's shape).`,
  upstreamFailed: (reason: string) => `The AI provider failed: ${reason}`,
} as const;

const spent = (s: { inputTokens: number; outputTokens: number }) => s.inputTokens + s.outputTokens;

/**
 * The exam's grading target, ready to call: 409 without a usable provider, the self-hosted base URL checked, 429
 * once the exam's grading budget is spent. Every call that spends the grading budget (suggested marks, collaboration
 * suggestions) passes here first.
 */
export async function readyGradingTarget(
  exam: InternalExam,
  ctx: { repo: GradingUsageRepository; deps: Pick<Deps, 'baseUrlGuard'>; keys: GradingKeys },
): Promise<GradingTarget> {
  const target = findGradingTarget(exam, ctx.keys);
  if (!target) throw new AppError(ErrorCode.CONFLICT, SuggestionMessages.noProvider);
  if (target.baseUrl) await ctx.deps.baseUrlGuard.check(target.baseUrl);
  if (spent(await ctx.repo.findSpend(exam.id)) >= exam.aiSettings.budget.gradingTokens)
    throw new AppError(ErrorCode.RATE_LIMITED, SuggestionMessages.budgetExhausted);
  return target;
}

/**
 * AI-suggested marks for results-service (docs/product.md#grading-by-question): one answer's suggestion, sampled
 * several times on the exam's own provider, within the exam's grading budget. The gateway does not queue: its
 * caller's batch bounds how many run at once.
 */
export function createGradingService(
  repo: GradingUsageRepository,
  deps: Pick<Deps, 'exams' | 'llm' | 'clock' | 'baseUrlGuard'>,
  keys: GradingKeys,
) {
  async function examOf(examId: string): Promise<InternalExam> {
    const exam = await deps.exams.findExam(examId);
    if (!exam) throw notFound('Exam');
    return exam;
  }

  return {
    /** Whether suggestions can be asked for, and the grading budget against what is spent. */
    async availability(examId: string): Promise<SuggestionAvailability> {
      const exam = await examOf(examId);
      const target = findGradingTarget(exam, keys);
      const usedTokens = spent(await repo.findSpend(examId));
      const budgetTokens = exam.aiSettings.budget.gradingTokens;
      const reason = !target
        ? SuggestionMessages.noProvider
        : usedTokens >= budgetTokens
          ? SuggestionMessages.budgetExhausted
          : null;
      return {
        available: reason === null,
        reason,
        provider: target?.provider ?? null,
        model: target?.model ?? null,
        budgetTokens,
        usedTokens,
      };
    },

    /**
     * The valid samples of one answer's suggestion. 409 without a usable provider, 429 once the grading budget is
     * spent, 502 when no sample came back valid. What the calls spent is added to the exam's grading usage
     * whatever their outcome. The budget is checked before the calls, so calls already running when it runs out
     * may pass it by at most their own cost.
     */
    async suggest(
      examId: string,
      body: InternalSuggestRequest,
      ctx: { signal: AbortSignal; log: FastifyBaseLogger },
    ): Promise<InternalSuggestReply> {
      const target = await readyGradingTarget(await examOf(examId), { repo, deps, keys });

      // The question and the answer only: results-service sends no name, ID or e-mail, and nothing is added here.
      const request: ProviderRequest = {
        ...target,
        system: buildGradingSystemPrompt(body.question),
        messages: [buildAnswerMessage(body.answer)],
        temperature: SAMPLE_TEMPERATURE,
        maxTokens: SAMPLE_MAX_TOKENS,
        responseFormat: SUGGESTION_FORMAT,
      };
      const outcomes = await Promise.all(
        Array.from({ length: body.samples }, () => sampleSuggestion(deps.llm, request, ctx.signal, [target.apiKey])),
      );
      const usage = {
        inputTokens: outcomes.reduce((sum, o) => sum + o.usage.inputTokens, 0),
        outputTokens: outcomes.reduce((sum, o) => sum + o.usage.outputTokens, 0),
      };
      await repo.addSpend(examId, { calls: outcomes.length, ...usage }, deps.clock.now());
      // Only provider and model: the target also holds the key.
      logDropped(ctx.log, { examId, provider: target.provider, model: target.model }, outcomes);

      const samples = outcomes.flatMap((o) => (o.kind === 'valid' ? [o.sample] : []));
      if (samples.length === 0) {
        const failed = outcomes.find((o) => o.kind === 'failed');
        throw new AppError(
          ErrorCode.UPSTREAM,
          failed ? GradingMessages.upstreamFailed(failed.reason) : GradingMessages.allInvalid(outcomes.length),
        );
      }
      return { samples, provider: target.provider, model: target.model, usage };
    },
  };
}
export type GradingService = ReturnType<typeof createGradingService>;

/** Each dropped sample, with why; never the reply's text, which quotes the candidate's answer. */
function logDropped(
  log: FastifyBaseLogger,
  call: { examId: string; provider: string; model: string },
  outcomes: SampleOutcome[],
) {
  for (const outcome of outcomes) {
    if (outcome.kind === 'invalid')
      log.warn({ ...call, reason: outcome.reason }, 'a grading suggestion sample was invalid and dropped');
    else if (outcome.kind === 'failed')
      log.warn(
        { ...call, upstreamStatus: outcome.status, reason: outcome.reason },
        'a grading suggestion sample failed upstream',
      );
  }
}
