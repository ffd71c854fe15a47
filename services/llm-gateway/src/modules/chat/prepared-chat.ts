import type { InternalExam } from '@exam/domain/internal';
import type { PublicQuestion } from '@exam/domain/question';
import type { TokenUsage } from '@exam/domain/llm';
import type { Deps } from '../../deps.ts';
import type { ProviderMessage, ProviderRequest } from '../../adapters/providers/types.ts';
import { answerKeysOf, optionKeysOf, type AnswerKey, type OptionKey } from './answer-guard.ts';
import { resolveAssistant, type AssistantTarget } from './assistant-config.ts';
import type { PlantedAsk } from './planted-turn.ts';
import { buildSystemPrompt, MAX_TOKENS, normaliseConversation, temperatureOf } from './prompt.ts';
import type { TranscriptWriter } from './transcript-writer.ts';

/** A chat ready to stream: the upstream request, the secrets to keep out of logs, and where its reply is recorded. */
export type PreparedChat = {
  request: ProviderRequest;
  secrets: string[];
  /** The answer keys the reply is checked against as it streams (empty: the guardrail is off). */
  answerKeys: AnswerKey[];
  /** The correct options' letters and numbers the reply is checked against too (empty: off, or no MCQ). */
  answerOptions?: OptionKey[];
  /** The assistant's earlier replies in this conversation, as shown: a key spread over replies is found too. */
  earlierReplies?: string;
  /** Records how the reply ended where the chat is stored. */
  transcript: TranscriptWriter;
  /** A message sent again whose reply was completed and stored: it is sent as stored, with no upstream call. */
  replay?: StoredReply;
};

/** A completed reply as stored: its text, and whether the guardrail stopped it (withheld) or it ended (done). */
export type StoredReply = { messageId: string; text: string; usage: TokenUsage; withheld: boolean };

/**
 * The provider request for a conversation with an exam's assistant, under the exam's system prompt; on a planted
 * turn the prompt also asks for the planted error.
 */
export function upstreamRequest(
  exam: InternalExam,
  questions: PublicQuestion[],
  target: AssistantTarget,
  questionIndex: number | null,
  conversation: ProviderMessage[],
  planted?: PlantedAsk,
): ProviderRequest {
  return {
    provider: target.provider,
    model: target.model,
    apiKey: target.apiKey,
    ...(target.baseUrl ? { baseUrl: target.baseUrl } : {}),
    system: buildSystemPrompt({
      questions,
      materialTexts: exam.materialTexts,
      aiSettings: exam.aiSettings,
      questionIndex,
      planted,
    }),
    messages: normaliseConversation(conversation),
    temperature: temperatureOf(exam.aiSettings),
    maxTokens: MAX_TOKENS,
  };
}

/** The assistant an exam calls, its base URL checked by the SSRF guard. */
export async function targetOf(
  exam: InternalExam,
  keys: Parameters<typeof resolveAssistant>[1],
  guard: Deps['baseUrlGuard'],
): Promise<AssistantTarget> {
  const target = resolveAssistant(exam, keys);
  if (target.baseUrl) await guard.check(target.baseUrl);
  return target;
}

// The live exam's keys (exam-service's answer keys), whatever snapshot the attempt shows: a key the creator
// has since changed is still an answer worth guarding, and the grader reads the live exam's questions.
export const guardedKeys = (exam: InternalExam) => (exam.aiSettings.stopSolutions ? answerKeysOf(exam.questions) : []);
export const guardedOptions = (exam: InternalExam, focus: number | null | undefined) =>
  exam.aiSettings.stopSolutions ? optionKeysOf(exam.questions, focus) : [];
export const earlierReplies = (messages: ReadonlyArray<{ role: string; content: string }>) =>
  messages
    .filter((m) => m.role === 'assistant')
    .map((m) => m.content)
    .join('\n');
