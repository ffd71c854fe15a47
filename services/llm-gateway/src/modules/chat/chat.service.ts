import type { AuditConfiguration } from '@exam/domain/assistant-audit';
import type { AttemptClaims, CreatorClaims } from '@exam/domain/auth';
import { AppError, ErrorCode } from '@exam/domain/errors';
import type { InternalExam } from '@exam/domain/internal';
import type { ChatRequest, TestChatRequest } from '@exam/domain/llm';
import type { Deps } from '../../deps.ts';
import type { ProviderMessage, ProviderRequest } from '../../adapters/providers/types.ts';
import type { AnswerKey } from './answer-guard.ts';
import { examWithConfiguration, examWithDraftSettings, ownConfiguration, type ServerKeys } from './assistant-config.ts';
import { createBudgetHints } from './budgets.ts';
import { prepareCandidateChat } from './candidate-chat.ts';
import type { ChatRepository } from './chat.repository.ts';
import {
  earlierReplies,
  guardedKeys,
  guardedOptions,
  targetOf,
  upstreamRequest,
  type PreparedChat,
} from './prepared-chat.ts';
import { estimatedUsage, noTranscript } from './transcript-writer.ts';
import { assertCan } from '../../access/exam-access.ts';

export type ChatServiceOptions = {
  encryptionKey: Buffer;
  serverKeys: ServerKeys;
  historyMessages: number;
  onDecryptFailure: () => void;
  /** The Test Assistant's limit per creator. */
  testChatLimit: { messages: number; windowMs: number };
};

export const testChatLimitMessage = (minutes: number) =>
  `You have reached the Test Assistant's message limit. Please wait ${minutes} minute${minutes === 1 ? '' : 's'}.`;

export function createChatService(
  repo: ChatRepository,
  deps: Pick<Deps, 'exams' | 'attempts' | 'clock' | 'ids' | 'baseUrlGuard'>,
  opts: ChatServiceOptions,
) {
  const candidateChat = { repo, deps, opts, budgetHints: createBudgetHints() };

  return {
    /** The candidate's message, admitted and stored before any upstream call (candidate-chat.ts). */
    prepareCandidateChat: (claims: AttemptClaims, body: ChatRequest): Promise<PreparedChat> =>
      prepareCandidateChat(candidateChat, claims, body),

    /** The creator's try-out of the assistant exactly as configured; the conversation is the client's and nothing is stored. */
    async prepareTestChat(creator: CreatorClaims, body: TestChatRequest): Promise<PreparedChat> {
      const saved = await assertCan(deps, body.examId, creator.sub, 'exam:edit');
      const exam = body.aiSettings ? examWithDraftSettings(saved, body.aiSettings, opts.encryptionKey) : saved;
      const request = upstreamRequest(
        exam,
        undefined,
        await targetOf(exam, opts, deps.baseUrlGuard),
        body.questionIndex ?? null,
        body.messages,
      );
      if (request.messages.at(-1)?.role !== 'user')
        throw new AppError(ErrorCode.VALIDATION, "The last message must be the creator's", [
          { path: 'messages', message: 'The last message must have the role user' },
        ]);
      // Counted last, so a refused request does not use up the creator's messages.
      const now = deps.clock.now();
      const admission = await repo.admitTestChat(
        creator.sub,
        opts.testChatLimit.messages,
        opts.testChatLimit.windowMs,
        now,
      );
      if (!admission.admitted) {
        const waitMs = admission.oldestInWindow.getTime() + opts.testChatLimit.windowMs - now.getTime();
        throw new AppError(ErrorCode.RATE_LIMITED, testChatLimitMessage(Math.max(1, Math.ceil(waitMs / 60_000))));
      }
      return {
        request,
        secrets: [request.apiKey],
        answerKeys: guardedKeys(exam, body.questionIndex),
        answerOptions: guardedOptions(exam, body.questionIndex),
        earlierReplies: earlierReplies(body.messages.slice(0, -1)),
        transcript: noTranscript,
      };
    },

    /**
     * The assistant exactly as a candidate of this exam gets it (provider, model, key, system prompt with its
     * guardrails, help level and course materials, and the "stop solutions" keys), for one-message
     * conversations about a question: the solvability check asks through this. Refuses as the chat does
     * when the assistant is off or incomplete. The draft's questions stand in for an attempt's snapshot.
     */
    /**
     * The exam's assistant exactly as a candidate gets it, for checks that ask it questions (solvability, audit).
     * With a `configuration` (and its position in the creator's compareWith list), the same assistant on another
     * provider or model (assistant-config.ts examWithConfiguration: 400 when no key serves it).
     */
    async prepareProbe(
      exam: InternalExam,
      configuration?: { configuration: AuditConfiguration; position: number },
    ): Promise<Probe> {
      const asked = configuration
        ? examWithConfiguration(exam, configuration.configuration, configuration.position, opts)
        : exam;
      const target = await targetOf(asked, opts, deps.baseUrlGuard);
      return {
        request: (questionIndex, message) =>
          upstreamRequest(asked, undefined, target, questionIndex, [{ role: 'user', content: message }]),
        converse: (questionIndex, conversation) =>
          upstreamRequest(asked, undefined, target, questionIndex, conversation),
        answerKeys: guardedKeys(asked),
        secrets: [target.apiKey],
        configuration: configuration?.configuration ?? ownConfiguration(exam),
      };
    },

    estimatedUsage,
  };
}

/** A candidate's one-message chat about a question, ready to send (chat service's prepareProbe). */
export type Probe = {
  request(questionIndex: number, message: string): ProviderRequest;
  /** A conversation of several turns (the user's and the assistant's as the candidate saw them), ending with the user's. */
  converse(questionIndex: number, conversation: ProviderMessage[]): ProviderRequest;
  answerKeys: AnswerKey[];
  secrets: string[];
  /** What is being asked: the exam's own configuration or the compared one. */
  configuration: AuditConfiguration;
};
export type ChatService = ReturnType<typeof createChatService>;
