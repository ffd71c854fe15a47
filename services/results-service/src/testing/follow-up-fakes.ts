import { AppError, ErrorCode } from '@exam/domain/errors';
import {
  GenerateFollowUpsRequestSchema,
  type GenerateFollowUpsRequest,
  type GenerateFollowUpsResponse,
} from '@exam/domain/follow-up';
import type { FollowUpQuestions } from '../deps.ts';

export type FollowUpCall = { attemptId: string; request: GenerateFollowUpsRequest };

/**
 * llm-gateway's follow-up route stand-in: records each call (checked against the contract's request schema) and
 * answers as `answer` says; by default one question per answer sent, up to `count`. Throwing an AppError is how
 * the HTTP adapter reports the gateway's refusals (CONFLICT, RATE_LIMITED, UPSTREAM, UNAVAILABLE).
 */
export function fakeFollowUpQuestions() {
  const calls: FollowUpCall[] = [];
  const state = {
    answer: async (call: FollowUpCall): Promise<GenerateFollowUpsResponse> => ({
      questions: call.request.answers.slice(0, call.request.count).map((a) => ({
        questionIndex: a.questionIndex,
        text: `Why did you answer question ${a.questionIndex + 1} that way?`,
      })),
      usage: { inputTokens: 100, outputTokens: 20 },
    }),
  };
  const fake: FollowUpQuestions & { calls: FollowUpCall[]; state: typeof state; down(): void } = {
    calls,
    state,
    /** The gateway cannot be reached from now on. */
    down() {
      state.answer = async () => {
        throw new AppError(ErrorCode.UNAVAILABLE, 'Service at http://llm-gateway is unreachable: ECONNREFUSED');
      };
    },
    async generate(attemptId, request) {
      const call = { attemptId, request: GenerateFollowUpsRequestSchema.parse(request) };
      calls.push(call);
      return state.answer(call);
    },
  };
  return fake;
}
