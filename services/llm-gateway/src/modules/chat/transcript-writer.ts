import { LlmMessages, type TokenUsage } from '@exam/domain/llm';
import type { Deps } from '../../deps.ts';
import type { ProviderRequest } from '../../adapters/providers/types.ts';
import type { ChatRepository } from './chat.repository.ts';
import { plantedRecord, type PlantedAsk } from './planted-turn.ts';

/** Characters / 4: the usual rough token count when a provider reports no usage. */
export const estimateTokens = (chars: number) => Math.ceil(chars / 4);

/** The tokens a request and its reply are estimated at when the provider reports none. */
export function estimatedUsage(request: ProviderRequest, output: string): TokenUsage {
  const inputChars = request.system.length + request.messages.reduce((sum, m) => sum + m.content.length, 0);
  return { inputTokens: estimateTokens(inputChars), outputTokens: estimateTokens(output.length), estimated: true };
}

/**
 * Where a streamed reply is recorded, one method for each way it can end. Each answers the stored reply's id, or
 * null when nothing was stored (a creator's test chat, or a newer try of the same message took it over).
 * `text` is what reached the candidate; `received` what the provider sent, which the tokens are estimated on.
 */
export type TranscriptWriter = {
  /** The provider finished and the whole reply reached the candidate. */
  done(text: string, usage: TokenUsage): Promise<string | null>;
  /** The guardrail stopped the reply before the key of the question at questionIndex reached the candidate. */
  withheld(text: string, received: string, questionIndex: number): Promise<string | null>;
  /** The candidate left, or the replica's drain cut the reply short: stored as partial, replaced on a retry. */
  partial(text: string, received: string): Promise<string | null>;
  /** The provider failed: the candidate is shown LlmMessages.chatError; what it had sent still counts. */
  failed(received: string): Promise<string | null>;
};

/** How a reply ended, as a transcript row records it. */
type Ending =
  | { kind: 'done'; text: string; usage: TokenUsage }
  | { kind: 'error'; received: string }
  | { kind: 'partial'; text: string; received: string }
  | { kind: 'withheld'; text: string; received: string; questionIndex: number };

/** Records nothing: a creator's test chat, whose conversation is the client's. */
export const noTranscript: TranscriptWriter = {
  done: async () => null,
  withheld: async () => null,
  partial: async () => null,
  failed: async () => null,
};

/** A reply already stored by an earlier try: every ending answers its id and stores nothing more. */
export function storedTranscript(messageId: string): TranscriptWriter {
  const stored = async () => messageId;
  return { done: stored, withheld: stored, partial: stored, failed: stored };
}

/**
 * The candidate's transcript for one try of one message: each ending becomes the assistant's row beside the
 * user's message, with the tokens the provider reported or, when it reported none, an estimate.
 */
export function createTranscriptWriter(
  repo: Pick<ChatRepository, 'insertAssistantMessage'>,
  deps: Pick<Deps, 'clock' | 'ids'>,
  reply: {
    attemptId: string;
    questionIndex: number | null;
    clientMessageId: string | null;
    tryId: string | null;
    /** The request the reply answers: the input side of an estimate. */
    request: ProviderRequest;
    /** Set when the reply was asked to carry a planted error: recorded with whether the candidate saw it. */
    planted?: PlantedAsk | undefined;
  },
): TranscriptWriter {
  async function record(ending: Ending): Promise<string | null> {
    const id = deps.ids.next();
    const spent = ending.kind === 'done' ? ending.text : ending.received;
    const usage =
      ending.kind === 'done'
        ? ending.usage
        : spent
          ? estimatedUsage(reply.request, spent)
          : { inputTokens: 0, outputTokens: 0 };
    const stored = await repo.insertAssistantMessage(
      {
        id,
        attemptId: reply.attemptId,
        content: ending.kind === 'error' ? LlmMessages.chatError : ending.text,
        questionIndex: reply.questionIndex,
        isError: ending.kind === 'error',
        isPartial: ending.kind === 'partial',
        withheldQuestionIndex: ending.kind === 'withheld' ? ending.questionIndex : null,
        inputTokens: usage.inputTokens,
        outputTokens: usage.outputTokens,
        clientMessageId: reply.clientMessageId,
        tryId: reply.tryId,
        planted: reply.planted
          ? plantedRecord(reply.planted, ending.kind === 'done' || ending.kind === 'withheld' ? ending.text : null)
          : null,
      },
      deps.clock.now(),
    );
    // Not stored: a newer try of the same message took it over and stores its own reply.
    return stored ? id : null;
  }

  return {
    done: (text, usage) => record({ kind: 'done', text, usage }),
    withheld: (text, received, questionIndex) => record({ kind: 'withheld', text, received, questionIndex }),
    partial: (text, received) => record({ kind: 'partial', text, received }),
    failed: (received) => record({ kind: 'error', received }),
  };
}
