import { z } from 'zod';
import { TranscriptMessageSchema } from './internal.ts';
import { AiSettingsInputSchema } from './exam-ai.ts';
import { AgentCallSchema } from './workspace-agents.ts';

/** Contracts of the AI assistant (llm-gateway): chat requests, the SSE events and the spec's messages. */

/** Spec sections 8 and 9: the chat's own wording. */
export const LlmMessages = {
  /** Spec section 8, chat failure: the error-styled reply. */
  chatError:
    'I encountered an error while processing your request. Please try again or contact your instructor if the issue persists.',
  notEnabled: 'AI Assistant is not enabled for this exam',
  configurationIncomplete: 'The AI Assistant is not fully configured for this exam.',
  attemptClosed: 'This exam attempt is no longer open.',
  messageLimit: (minutes: number) =>
    `You have reached the assistant's message limit. Please wait ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  tokenLimit: "You have used the assistant's whole allowance for this exam attempt.",
  /** The exam-wide budget (all attempts together) is spent for now. */
  examBudget: (minutes: number) =>
    `The assistant has reached this exam's usage limit for the hour. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  /** A reply stopped by the "stop solutions" guardrail because it was about to give an answer away. */
  answerWithheld: 'The assistant cannot give answers to exam questions, so this reply was stopped.',
  emptyMessage: 'Type a message or attach a file.',
  attachmentsDisabled: 'File attachments are not allowed for this exam.',
} as const;

/** Per-file and per-message caps of chat attachments (decoded bytes). */
export const CHAT_MAX_FILES = 5;
export const CHAT_MAX_FILE_BYTES = 5 * 1024 * 1024;
export const CHAT_MAX_MESSAGE_CHARS = 20_000;

export const ChatFileSchema = z.object({
  name: z.string().min(1).max(255),
  type: z.string().max(200).default(''),
  size: z.number().int().min(0).max(CHAT_MAX_FILE_BYTES),
  /** The file's bytes in base64; at most CHAT_MAX_FILE_BYTES once decoded. */
  dataBase64: z.string().max(Math.ceil(CHAT_MAX_FILE_BYTES / 3) * 4 + 4),
});
export type ChatFile = z.infer<typeof ChatFileSchema>;

/** POST /api/llm/chat (attempt token). The history is the stored transcript, never the client's copy. */
export const ChatRequestSchema = z.object({
  message: z.string().max(CHAT_MAX_MESSAGE_CHARS),
  questionIndex: z.number().int().min(0).nullable(),
  files: z.array(ChatFileSchema).max(CHAT_MAX_FILES).optional(),
  /**
   * Chosen by the client for each message, and sent again unchanged when it retries that message (a stream cut
   * by a replica's shutdown or crash). The gateway keeps one user message and one reply per id: a reply already
   * completed is sent again as it was stored; one that never completed is generated again (docs/product.md,
   * "Assistant replies across restarts").
   */
  clientMessageId: z.uuid().optional(),
});
export type ChatRequest = z.infer<typeof ChatRequestSchema>;

/** POST /api/llm/test-chat (creator token): the creator's try-out; the conversation comes from the client and nothing is stored. */
export const TestChatRequestSchema = z.object({
  examId: z.string().min(1).max(64),
  messages: z
    .array(z.object({ role: z.enum(['user', 'assistant']), content: z.string().min(1).max(CHAT_MAX_MESSAGE_CHARS) }))
    .min(1)
    .max(50),
  questionIndex: z.number().int().min(0).nullable().optional(),
  /**
   * The editor's AI settings as they stand on screen, saved or not: the gateway tries the assistant with these in
   * place of the saved ones (validated as a save would be; `apiKey` as in a save: omitted keeps the stored key, null
   * uses none; courseMaterialIds choose among the exam's saved materials). Omitted: the saved settings.
   */
  aiSettings: AiSettingsInputSchema.optional(),
});
export type TestChatRequest = z.infer<typeof TestChatRequestSchema>;

export const TokenUsageSchema = z.object({
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  /** True when the provider sent no usage and the gateway estimated it (characters / 4). */
  estimated: z.boolean(),
});
export type TokenUsage = z.infer<typeof TokenUsageSchema>;

/** One `data:` line of the text/event-stream answer of both chat endpoints. */
export const ChatStreamEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('delta'), text: z.string() }),
  /** messageId is the stored assistant message (null for test-chat, which stores nothing). */
  z.object({ type: z.literal('done'), messageId: z.string().nullable(), usage: TokenUsageSchema }),
  z.object({ type: z.literal('error'), message: z.string() }),
  /**
   * The reply was stopped before it gave an exam answer away (the "stop solutions" guardrail): the deltas
   * before it are all the candidate gets, and message says why. messageId as for done.
   */
  z.object({ type: z.literal('withheld'), messageId: z.string().nullable(), message: z.string() }),
  /**
   * The gateway is shutting down and ended the stream before the reply was complete: send the same request again
   * (same clientMessageId) and another replica answers it. The deltas before it are to be discarded.
   */
  z.object({ type: z.literal('interrupted') }),
]);
export type ChatStreamEvent = z.infer<typeof ChatStreamEventSchema>;

/** GET /api/llm/transcript and GET /api/llm/attempts/{attemptId}/transcript. */
export const TranscriptResponseSchema = z.object({
  messages: z.array(TranscriptMessageSchema),
  /** The workspace agent's calls (transcript kind `agent`), in order; for the exam's creator only, never the candidate's own read. */
  agentCalls: z.array(AgentCallSchema).optional(),
});
export type TranscriptResponse = z.infer<typeof TranscriptResponseSchema>;

export const AttemptIdParamsSchema = z.object({ attemptId: z.string().min(1).max(64) });

/** Parses one SSE frame (`data: {...}`) into an event; undefined for comments and blank frames. */
export function parseChatStreamFrame(frame: string): ChatStreamEvent | undefined {
  const data = frame
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).trimStart())
    .join('\n');
  if (!data) return undefined;
  const parsed = ChatStreamEventSchema.safeParse(JSON.parse(data));
  return parsed.success ? parsed.data : undefined;
}

/** What a window of the exam-wide counters holds: messages admitted, tokens used, and messages each budget refused. */
export const AiSpendSchema = z.object({
  requests: z.number().int().nonnegative(),
  tokens: z.number().int().nonnegative(),
  refusals: z.object({
    /** Refused by the exam-wide budget (messages or tokens per hour, all attempts together). */
    examRequests: z.number().int().nonnegative(),
    examTokens: z.number().int().nonnegative(),
    /** Refused by one attempt's own budget (messages per window, tokens per attempt). */
    attemptMessages: z.number().int().nonnegative(),
    attemptTokens: z.number().int().nonnegative(),
  }),
});
export type AiSpend = z.infer<typeof AiSpendSchema>;

/** GET /api/llm/exams/{examId}/usage (the exam's owner): the assistant's spend against the exam-wide budget. */
export const ExamAiUsageSchema = z.object({
  examId: z.string(),
  budget: z.object({ tokensPerHour: z.number().int(), requestsPerHour: z.number().int() }),
  /** The 60 minutes up to now (to the minute), the window the exam-wide budget is checked against. */
  lastHour: AiSpendSchema,
  total: AiSpendSchema,
});
export type ExamAiUsage = z.infer<typeof ExamAiUsageSchema>;
