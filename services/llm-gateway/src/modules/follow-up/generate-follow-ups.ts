import { AppError, ErrorCode, notFound } from '@exam/domain/errors';
import {
  FOLLOW_UP_QUESTION_MAX,
  type GenerateFollowUpsRequest,
  type GenerateFollowUpsResponse,
} from '@exam/domain/follow-up';
import type { FastifyBaseLogger } from 'fastify';
import type { ProviderRequest } from '../../adapters/providers/types.ts';
import type { Deps } from '../../deps.ts';
import { detectLeak, type AuditKeys } from '../audit/leak-detection.ts';
import { answerKeysOf, optionKeysOf } from '../chat/answer-keys.ts';
import type { GradingKeys } from '../grading/grading-target.ts';
import type { GradingUsageRepository } from '../grading/grading-usage.repository.ts';
import { sampleStructured } from '../grading/sample-suggestion.ts';
import { GradingMessages, readyGradingTarget } from '../grading/suggest-marks.ts';
import { FOLLOW_UP_FORMAT, parseFollowUps, type FollowUpOutput } from './follow-up-format.ts';
import { buildAnswersMessage, buildFollowUpSystemPrompt } from './follow-up-prompt.ts';

/** Some variety between candidates, still on topic. */
export const FOLLOW_UP_TEMPERATURE = 0.4;
/** A question is one or two sentences (~60 tokens) with its JSON; 200 for the envelope and slack. */
export const followUpMaxTokens = (count: number) => 200 + 150 * count;

export const FollowUpGatewayMessages = {
  assistantOff: "The exam's assistant is off: no follow-up questions are asked.",
  invalid: 'The AI provider answered, but its reply was not valid follow-up questions (not JSON of their shape).',
  noneUsable: 'The AI provider answered, but none of its follow-up questions could be used.',
} as const;

type Question = GenerateFollowUpsResponse['questions'][number];

/** A long question cut at a word end within FOLLOW_UP_QUESTION_MAX, with an ellipsis. */
export function cutQuestion(text: string): string {
  const trimmed = text.replace(/\s+/g, ' ').trim();
  if (trimmed.length <= FOLLOW_UP_QUESTION_MAX) return trimmed;
  const room = trimmed.slice(0, FOLLOW_UP_QUESTION_MAX - 1);
  const end = room.lastIndexOf(' ');
  return `${end > FOLLOW_UP_QUESTION_MAX / 2 ? room.slice(0, end) : room}…`;
}

/**
 * The usable questions of a reply: about an answer that was sent, not empty, not a repeat, without any of the
 * exam's keys in any form the audit's leak detection knows (a leaking one is dropped, never rewritten), cut to
 * FOLLOW_UP_QUESTION_MAX, at most `count`.
 */
export function usableQuestions(
  output: FollowUpOutput,
  request: Pick<GenerateFollowUpsRequest, 'answers' | 'count'>,
  keys: AuditKeys,
): { questions: Question[]; dropped: { leaked: number; invalid: number } } {
  const sent = new Set(request.answers.map((a) => a.questionIndex));
  const seen = new Set<string>();
  const questions: Question[] = [];
  const dropped = { leaked: 0, invalid: 0 };
  for (const q of output.questions) {
    const text = cutQuestion(q.text);
    if (!sent.has(q.questionIndex) || text === '' || seen.has(text)) {
      dropped.invalid++;
      continue;
    }
    if (detectLeak(q.text, keys).leaked) {
      dropped.leaked++;
      continue;
    }
    seen.add(text);
    if (questions.length < request.count) questions.push({ questionIndex: q.questionIndex, text });
  }
  return { questions, dropped };
}

/**
 * Follow-up questions after submit (docs/product.md#follow-up-questions), for results-service: one structured call
 * on the exam's own provider about the candidate's own answers, spending the exam's grading and audit budget. 409
 * when the assistant is off or has no usable key, 429 once the budget is spent, 502 when the provider fails or no
 * usable question comes back (the key redacted).
 */
export function createFollowUpGenerator(
  repo: GradingUsageRepository,
  deps: Pick<Deps, 'exams' | 'llm' | 'clock' | 'baseUrlGuard'>,
  keys: GradingKeys,
) {
  return {
    async generate(
      attemptId: string,
      body: GenerateFollowUpsRequest,
      ctx: { signal: AbortSignal; log: FastifyBaseLogger },
    ): Promise<GenerateFollowUpsResponse> {
      const exam = await deps.exams.findExam(body.examId);
      if (!exam) throw notFound('Exam');
      if (!exam.aiSettings.enabled) throw new AppError(ErrorCode.CONFLICT, FollowUpGatewayMessages.assistantOff);
      const target = await readyGradingTarget(exam, { repo, deps, keys });
      // The questions' statements and the candidate's answers only, as results-service sent them: no name or key.
      const request: ProviderRequest = {
        ...target,
        system: buildFollowUpSystemPrompt(body.count),
        messages: [buildAnswersMessage(body.answers)],
        temperature: FOLLOW_UP_TEMPERATURE,
        maxTokens: followUpMaxTokens(body.count),
        responseFormat: FOLLOW_UP_FORMAT,
      };
      const outcome = await sampleStructured(deps.llm, request, ctx.signal, [target.apiKey], parseFollowUps);
      await repo.addSpend(exam.id, { calls: 1, ...outcome.usage }, deps.clock.now());
      const call = { examId: exam.id, attemptId, provider: target.provider, model: target.model };
      if (outcome.kind === 'failed') {
        ctx.log.warn(
          { ...call, upstreamStatus: outcome.status, reason: outcome.reason },
          'follow-up questions failed upstream',
        );
        throw new AppError(ErrorCode.UPSTREAM, GradingMessages.upstreamFailed(outcome.reason));
      }
      if (outcome.kind === 'invalid') {
        ctx.log.warn({ ...call, reason: outcome.reason }, 'the follow-up questions were invalid');
        throw new AppError(ErrorCode.UPSTREAM, FollowUpGatewayMessages.invalid);
      }
      const auditKeys: AuditKeys = {
        answers: answerKeysOf(exam.questions),
        options: optionKeysOf(exam.questions, null),
      };
      const { questions, dropped } = usableQuestions(outcome.value, body, auditKeys);
      // Counts only: a dropped question may hold a key.
      if (dropped.leaked || dropped.invalid) ctx.log.warn({ ...call, ...dropped }, 'follow-up questions were dropped');
      if (questions.length === 0) throw new AppError(ErrorCode.UPSTREAM, FollowUpGatewayMessages.noneUsable);
      return { questions, usage: outcome.usage };
    },
  };
}
export type FollowUpGenerator = ReturnType<typeof createFollowUpGenerator>;
