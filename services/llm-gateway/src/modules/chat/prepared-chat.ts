import type { InternalAttempt, InternalExam } from '@exam/domain/internal';
import { passagesFor } from '@exam/domain/passages';
import { toPublicQuestion, type PublicQuestion } from '@exam/domain/question';
import type { TokenUsage } from '@exam/domain/llm';
import type { Deps } from '../../deps.ts';
import type { ProviderMessage, ProviderRequest } from '../../adapters/providers/types.ts';
import { answerKeysOf, optionKeysOf, type AnswerKey, type OptionKey } from './answer-guard.ts';
import { resolveAssistant, type AssistantTarget } from './assistant-config.ts';
import type { PlantedAsk } from './planted-turn.ts';
import { calculatedShapes } from './structured-keys.ts';
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
 * turn the prompt also asks for the planted error. `questions`: as the attempt saw them (results-service's
 * snapshot); undefined for the live exam's, which are turned into the candidate's view here, so no key (an
 * ordering's right order, a matching's pairs) ever reaches the prompt.
 */
export function upstreamRequest(
  exam: InternalExam,
  seen: PublicQuestion[] | undefined,
  target: AssistantTarget,
  questionIndex: number | null,
  conversation: ProviderMessage[],
  planted?: PlantedAsk,
): ProviderRequest {
  const questions = seen ?? exam.questions.map(toPublicQuestion);
  return {
    provider: target.provider,
    model: target.model,
    apiKey: target.apiKey,
    ...(target.baseUrl ? { baseUrl: target.baseUrl } : {}),
    system: buildSystemPrompt({
      questions,
      passages: passagesFor(exam.passages ?? [], questions),
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

/** The attempt's question at `index` (what the candidate's questionIndex points into) as the live exam's index. */
function liveIndex(exam: InternalExam, attempt: InternalAttempt | undefined, index: number): number {
  const id = attempt?.questions?.[index]?.id;
  const live = id === undefined ? -1 : exam.questions.findIndex((q) => q.id === id);
  return live >= 0 ? live : index;
}
const liveFocus = (exam: InternalExam, attempt: InternalAttempt | undefined, focus: number | null | undefined) =>
  focus === null || focus === undefined ? focus : liveIndex(exam, attempt, focus);

/**
 * The live exam's keys (exam-service's answer keys), whatever snapshot the attempt shows: a key the creator has
 * since changed is still an answer worth guarding, and the grader reads the live exam's questions. A calculated
 * question's key is the candidate's own, from their attempt (results-service computed it from their values).
 * `focus`: the question the candidate has open, by its index in the attempt.
 */
export function guardedKeys(exam: InternalExam, focus?: number | null, attempt?: InternalAttempt): AnswerKey[] {
  if (!exam.aiSettings.stopSolutions) return [];
  const own = calculatedShapes(attempt?.calculatedKeys ?? [], (i) => attempt?.questions?.[i]).map((k) => ({
    questionIndex: liveIndex(exam, attempt, k.questionIndex),
    key: k.key,
    shape: k.shape,
  }));
  return [...answerKeysOf(exam.questions, liveFocus(exam, attempt, focus)), ...own];
}
export const guardedOptions = (exam: InternalExam, focus: number | null | undefined, attempt?: InternalAttempt) =>
  exam.aiSettings.stopSolutions ? optionKeysOf(exam.questions, liveFocus(exam, attempt, focus)) : [];
export const earlierReplies = (messages: ReadonlyArray<{ role: string; content: string }>) =>
  messages
    .filter((m) => m.role === 'assistant')
    .map((m) => m.content)
    .join('\n');
