import type { AttemptClaims, CreatorClaims } from '@exam/domain/auth';
import { AppError, ErrorCode, notFound } from '@exam/domain/errors';
import type { InternalAttempt, InternalExam } from '@exam/domain/internal';
import type { AiBudget } from '@exam/domain/exam-ai';
import type { PublicQuestion } from '@exam/domain/question';
import {
  CHAT_MAX_FILE_BYTES,
  LlmMessages,
  type ChatRequest,
  type TestChatRequest,
  type TokenUsage,
} from '@exam/domain/llm';
import type { Deps } from '../../deps.ts';
import type { ImagePart, ProviderMessage, ProviderRequest } from '../../adapters/providers/types.ts';
import { answerKeysOf, optionKeysOf, type AnswerKey, type OptionKey } from './answer-guard.ts';
import { readAttachment } from './attachments.ts';
import { resolveAssistant, type AssistantTarget, type ServerKeys } from './assistant-config.ts';
import type { Admission, ChatRepository, HistoryMessage } from './chat.repository.ts';
import type { StoredFile } from '../../db/schema.ts';
import { buildSystemPrompt, MAX_TOKENS, normaliseConversation, temperatureOf } from './prompt.ts';

/** How a streamed reply ended, as the stream runner saw it. */
export type ReplyOutcome =
  | { kind: 'done'; text: string; usage: TokenUsage }
  | { kind: 'error'; text: string }
  /** text: what reached the candidate; received: what the provider sent (what the tokens are estimated on). */
  | { kind: 'disconnected'; text: string; received: string }
  /** Stopped by the guardrail before the key of the question at questionIndex reached the candidate. */
  | { kind: 'withheld'; text: string; received: string; questionIndex: number };

/** A chat ready to stream: the upstream request, the secrets to keep out of logs, and what to do at the end. */
export type PreparedChat = {
  request: ProviderRequest;
  secrets: string[];
  /** The answer keys the reply is checked against as it streams (empty: the guardrail is off). */
  answerKeys: AnswerKey[];
  /** The correct options' letters and numbers the reply is checked against too (empty: off, or no MCQ). */
  answerOptions?: OptionKey[];
  /** The assistant's earlier replies in this conversation, as shown: a key spread over replies is found too. */
  earlierReplies?: string;
  /** Stores the outcome where the chat is stored; returns the stored reply's id (null when nothing is stored). */
  finish(outcome: ReplyOutcome): Promise<string | null>;
  /** A message sent again whose reply was completed and stored: it is sent as stored, with no upstream call. */
  replay?: StoredReply;
};

/** A completed reply as stored: its text, and whether the guardrail stopped it (withheld) or it ended (done). */
export type StoredReply = { messageId: string; text: string; usage: TokenUsage; withheld: boolean };

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

/** A budget that frees up again later: 429, and when to retry (the route sends it as Retry-After, in seconds). */
export class BudgetRefusal extends AppError {
  readonly retryAfterSeconds: number;
  constructor(message: string, waitMs: number) {
    super(ErrorCode.RATE_LIMITED, message);
    this.retryAfterSeconds = Math.max(1, Math.ceil(waitMs / 1000));
  }
}

/** Characters / 4: the usual rough token count when a provider reports no usage. */
export const estimateTokens = (chars: number) => Math.ceil(chars / 4);

function estimatedUsage(request: ProviderRequest, output: string): TokenUsage {
  const inputChars = request.system.length + request.messages.reduce((sum, m) => sum + m.content.length, 0);
  return { inputTokens: estimateTokens(inputChars), outputTokens: estimateTokens(output.length), estimated: true };
}

/** How many exams' last-read budgets a replica keeps for early admissions (prepareCandidateChat). */
const BUDGET_HINTS_KEPT = 1000;

/**
 * The budget each exam had when this replica last read it. Only a guess for an early admission, always
 * checked against the exam read for the same message, so no other replica needs it.
 */
function createBudgetHints() {
  const hints = new Map<string, AiBudget>();
  return {
    get: (examId: string) => hints.get(examId),
    remember(examId: string, budget: AiBudget) {
      hints.delete(examId);
      hints.set(examId, budget);
      // Map keeps insertion order: the first key is the exam read least recently.
      if (hints.size > BUDGET_HINTS_KEPT) hints.delete(hints.keys().next().value!);
    },
  };
}

const sameBudget = (a: AiBudget, b: AiBudget) =>
  Object.keys(a).length === Object.keys(b).length &&
  (Object.keys(a) as (keyof AiBudget)[]).every((key) => a[key] === b[key]);

type Settled<T> = { ok: true; value: T } | { ok: false; err: unknown };
/** A promise that never rejects, so one waited for only on some paths is never an unhandled rejection. */
const settle = <T>(promise: Promise<T>): Promise<Settled<T>> =>
  promise.then(
    (value) => ({ ok: true as const, value }),
    (err: unknown) => ({ ok: false as const, err }),
  );

export function createChatService(
  repo: ChatRepository,
  deps: Pick<Deps, 'exams' | 'attempts' | 'clock' | 'ids' | 'baseUrlGuard'>,
  opts: ChatServiceOptions,
) {
  function upstreamRequest(
    exam: InternalExam,
    questions: PublicQuestion[],
    target: AssistantTarget,
    questionIndex: number | null,
    conversation: ProviderMessage[],
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
      }),
      messages: normaliseConversation(conversation),
      temperature: temperatureOf(exam.aiSettings),
      maxTokens: MAX_TOKENS,
    };
  }

  async function readFiles(files: NonNullable<ChatRequest['files']>, vision: boolean) {
    const read = await Promise.all(
      files.map(async (file) => {
        const bytes = Buffer.from(file.dataBase64, 'base64');
        if (bytes.length > CHAT_MAX_FILE_BYTES)
          throw new AppError(ErrorCode.PAYLOAD_TOO_LARGE, `${file.name} is larger than ${CHAT_MAX_FILE_BYTES} bytes`);
        const content = await readAttachment({ name: file.name, type: file.type, bytes }, { vision });
        return { ...content, meta: { name: file.name, type: file.type, size: bytes.length } };
      }),
    );
    return {
      text: read.map((r) => r.text).join('\n\n'),
      images: read.flatMap((r) => (r.image ? [r.image] : [])),
      files: read.map((r) => r.meta),
    };
  }

  /** The assistant an exam calls, its base URL checked by the SSRF guard. */
  async function targetOf(exam: InternalExam): Promise<AssistantTarget> {
    const target = resolveAssistant(exam, opts);
    if (target.baseUrl) await deps.baseUrlGuard.check(target.baseUrl);
    return target;
  }

  // The live exam's keys (exam-service's answer keys), whatever snapshot the attempt shows: a key the creator
  // has since changed is still an answer worth guarding, and the grader reads the live exam's questions.
  const guardedKeys = (exam: InternalExam) => (exam.aiSettings.stopSolutions ? answerKeysOf(exam.questions) : []);
  const guardedOptions = (exam: InternalExam, focus: number | null | undefined) =>
    exam.aiSettings.stopSolutions ? optionKeysOf(exam.questions, focus) : [];
  const earlierReplies = (messages: ReadonlyArray<{ role: string; content: string }>) =>
    messages
      .filter((m) => m.role === 'assistant')
      .map((m) => m.content)
      .join('\n');

  const budgetHints = createBudgetHints();

  const isOpenFor = (claims: AttemptClaims, attempt: InternalAttempt | undefined) =>
    !!attempt && attempt.isOpen && attempt.examId === claims.examId;

  /**
   * A message sent again with the clientMessageId of a stored one (the browser's retry after a cut stream; it
   * was admitted and counted the first time, docs/product.md "Assistant replies across restarts"): a reply
   * completed by an earlier try is replayed as stored, with no upstream call and nothing counted; otherwise
   * this try takes the message over and generates the reply again from the conversation before it.
   */
  async function retryOf(
    attemptId: string,
    messageId: string,
    clientMessageId: string,
    tryId: string,
    generate: (history: HistoryMessage[]) => PreparedChat,
  ): Promise<PreparedChat> {
    const earlier = await repo.findReplyOf(attemptId, clientMessageId);
    if (earlier && !earlier.isPartial && !earlier.isError) {
      const replay: StoredReply = {
        messageId: earlier.id,
        text: earlier.content,
        usage: { inputTokens: earlier.inputTokens, outputTokens: earlier.outputTokens, estimated: false },
        withheld: earlier.isWithheld,
      };
      return { ...generate([]), replay, finish: async () => earlier.id };
    }
    return generate(await repo.takeOverMessage(messageId, tryId, opts.historyMessages));
  }

  return {
    /**
     * The candidate's message: checks, budgets and the stored user message all happen before any upstream
     * call. The attempt check (a call to results-service) runs side by side with the budget check and the
     * store (one database round trip), so only the slower of the two is on the path to the first token;
     * a message admitted for an attempt that turns out to be closed is taken back.
     *
     * The budget check needs the exam's budget, which comes with the exam from exam-service. So that the two
     * do not wait for each other, a text message is admitted early, beside the exam's fetch, under the budget
     * this replica last read for the exam (budgetHints), and the admission is kept only when the exam's
     * current budget is the same: otherwise, or when the exam refuses the message (gone, assistant off or
     * incomplete), what the early admission stored is taken back and, where the message goes on, it is admitted
     * again under the current budget. Every message is therefore admitted or refused under the budget the exam
     * has when it is read. In the moment the creator changes that budget or turns the assistant off, an early
     * admission may leave one refusal in the exam's refusal counts, and a message counted early and then taken back
     * may be seen by another message of the same instant (as one of a closed attempt already could). A message
     * with attachments, or empty, waits for the exam as before.
     */
    async prepareCandidateChat(claims: AttemptClaims, body: ChatRequest): Promise<PreparedChat> {
      const attemptCheck = deps.attempts.findAttempt(claims.sub).then(
        (found) => ({ open: isOpenFor(claims, found), attempt: found, err: undefined as unknown }),
        (err: unknown) => ({ open: false, attempt: undefined, err }),
      );
      // A closed attempt is reported as closed whatever else is wrong with the message, as when the check ran first.
      const closedOr = async (err: unknown): Promise<never> => {
        const check = await attemptCheck;
        if (check.err) throw check.err;
        if (!check.open) throw new AppError(ErrorCode.ATTEMPT_CLOSED, LlmMessages.attemptClosed);
        throw err;
      };
      const attemptId = claims.sub;
      const userMessageId = deps.ids.next();
      // One try of the message: a retry (same clientMessageId) gets a new one and takes the message over.
      const tryId = body.clientMessageId ? deps.ids.next() : null;
      const now = deps.clock.now();
      const files = body.files ?? [];
      const admit = (budget: AiBudget, attached: { text: string; files: StoredFile[] }) =>
        repo.admitUserMessage(
          { attemptId, examId: claims.examId, ownerId: claims.ownerId },
          {
            id: userMessageId,
            content: body.message,
            attachmentText: attached.text,
            files: attached.files,
            questionIndex: body.questionIndex,
            clientMessageId: body.clientMessageId ?? null,
            tryId,
          },
          budget,
          opts.historyMessages,
          now,
        );
      const hint = files.length || !body.message.trim() ? undefined : budgetHints.get(claims.examId);
      const early = hint ? settle(admit(hint, { text: '', files: [] })) : undefined;
      /** Takes back what the early admission stored; a refusal or a failure stored nothing to take back. */
      const takeBackEarly = async () => {
        const result = early && (await early);
        if (result?.ok && result.value.kind === 'ok') await repo.retractUserMessage(userMessageId);
      };

      let exam: InternalExam;
      let target: AssistantTarget;
      let attachments: { text: string; images: ImagePart[]; files: StoredFile[] };
      try {
        const found = await deps.exams.findExam(claims.examId);
        if (!found) throw notFound('Exam');
        exam = found;
        // Resolving first refuses a disabled or incomplete assistant before anything is read or stored.
        target = await targetOf(exam);
        if (files.length && !exam.aiSettings.uploadDocuments)
          throw new AppError(ErrorCode.FORBIDDEN, LlmMessages.attachmentsDisabled);
        if (!body.message.trim() && !files.length)
          throw new AppError(ErrorCode.VALIDATION, LlmMessages.emptyMessage, [
            { path: 'message', message: LlmMessages.emptyMessage },
          ]);
        attachments = files.length ? await readFiles(files, target.vision) : { text: '', images: [], files: [] };
      } catch (err) {
        await takeBackEarly();
        return closedOr(err);
      }
      const budget = exam.aiSettings.budget;
      budgetHints.remember(claims.examId, budget);
      let admitting: Promise<Admission>;
      if (early && hint && sameBudget(hint, budget)) {
        admitting = early.then((result) => (result.ok ? result.value : Promise.reject(result.err)));
      } else {
        await takeBackEarly();
        admitting = admit(budget, attachments);
      }
      const [admission, check] = await Promise.all([admitting, attemptCheck]);
      if (!check.open) {
        if (admission.kind === 'ok') await repo.retractUserMessage(userMessageId);
        return closedOr(undefined);
      }
      if (admission.kind === 'tokens') throw new AppError(ErrorCode.RATE_LIMITED, LlmMessages.tokenLimit);
      if (admission.kind === 'messages') {
        const waitMs = admission.oldestInWindow.getTime() + budget.windowMinutes * 60_000 - now.getTime();
        throw new BudgetRefusal(LlmMessages.messageLimit(Math.max(1, Math.ceil(waitMs / 60_000))), waitMs);
      }
      if (admission.kind === 'seen') {
        // 'seen' is only ever answered for a message that carries a clientMessageId, so tryId is set too.
        return retryOf(attemptId, admission.messageId, body.clientMessageId ?? '', tryId ?? '', prepared);
      }
      if (admission.kind !== 'ok') {
        // The exam-wide budget (requests or tokens in the sliding hour).
        const waitMs = admission.retryAt.getTime() - now.getTime();
        throw new BudgetRefusal(LlmMessages.examBudget(Math.max(1, Math.ceil(waitMs / 60_000))), waitMs);
      }

      return prepared(admission.history);

      function prepared(history: HistoryMessage[]): PreparedChat {
        const request = requestWith(history);
        return {
          request,
          secrets: [request.apiKey],
          answerKeys: guardedKeys(exam),
          answerOptions: guardedOptions(exam, body.questionIndex),
          earlierReplies: earlierReplies(history),
          finish: finishWith(request),
        };
      }

      function requestWith(history: HistoryMessage[]): ProviderRequest {
        const withAttachments = (content: string, attachmentText: string) =>
          attachmentText ? `${content}\n\n${attachmentText}` : content;
        const conversation: ProviderMessage[] = [
          ...history.map((m) => ({ role: m.role, content: withAttachments(m.content, m.attachmentText) })),
          {
            role: 'user',
            content: withAttachments(body.message, attachments.text),
            ...(attachments.images.length ? { images: attachments.images } : {}),
          },
        ];
        // The questions as the attempt saw them at start (results-service's snapshot): questionIndex points into
        // those, whatever the creator has edited since. The live exam's only for a results-service without them.
        return upstreamRequest(
          exam,
          check.attempt?.questions ?? exam.questions,
          target,
          body.questionIndex,
          conversation,
        );
      }

      function finishWith(request: ProviderRequest): PreparedChat['finish'] {
        return async (outcome) => {
          const id = deps.ids.next();
          const spent = 'received' in outcome ? outcome.received : outcome.text;
          const usage =
            outcome.kind === 'done'
              ? outcome.usage
              : spent
                ? estimatedUsage(request, spent)
                : { inputTokens: 0, outputTokens: 0 };
          const stored = await repo.insertAssistantMessage(
            {
              id,
              attemptId,
              content: outcome.kind === 'error' ? LlmMessages.chatError : outcome.text,
              questionIndex: body.questionIndex,
              isError: outcome.kind === 'error',
              isPartial: outcome.kind === 'disconnected',
              withheldQuestionIndex: outcome.kind === 'withheld' ? outcome.questionIndex : null,
              inputTokens: usage.inputTokens,
              outputTokens: usage.outputTokens,
              clientMessageId: body.clientMessageId ?? null,
              tryId,
            },
            deps.clock.now(),
          );
          // Not stored: a newer try of the same message took it over and stores its own reply.
          return stored ? id : null;
        };
      }
    },

    /** The creator's try-out of the assistant exactly as configured; the conversation is the client's and nothing is stored. */
    async prepareTestChat(creator: CreatorClaims, body: TestChatRequest): Promise<PreparedChat> {
      const exam = await deps.exams.findExam(body.examId);
      if (!exam || exam.ownerId !== creator.sub) throw notFound('Exam');
      const request = upstreamRequest(
        exam,
        exam.questions,
        await targetOf(exam),
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
        answerKeys: guardedKeys(exam),
        answerOptions: guardedOptions(exam, body.questionIndex),
        earlierReplies: earlierReplies(body.messages.slice(0, -1)),
        finish: async () => null,
      };
    },

    /**
     * The assistant exactly as a candidate of this exam gets it (provider, model, key, system prompt with its
     * guardrails, help level and course materials, and the "stop solutions" keys), for one-message
     * conversations about a question: the solvability check asks through this. Refuses as the chat does
     * when the assistant is off or incomplete. The draft's questions stand in for an attempt's snapshot.
     */
    async prepareProbe(exam: InternalExam): Promise<Probe> {
      const target = await targetOf(exam);
      return {
        request: (questionIndex, message) =>
          upstreamRequest(exam, exam.questions, target, questionIndex, [{ role: 'user', content: message }]),
        answerKeys: guardedKeys(exam),
        secrets: [target.apiKey],
      };
    },

    estimatedUsage,
  };
}

/** A candidate's one-message chat about a question, ready to send (chat service's prepareProbe). */
export type Probe = {
  request(questionIndex: number, message: string): ProviderRequest;
  answerKeys: AnswerKey[];
  secrets: string[];
};
export type ChatService = ReturnType<typeof createChatService>;
