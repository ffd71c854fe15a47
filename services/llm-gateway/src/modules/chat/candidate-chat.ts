import type { AttemptClaims } from '@exam/domain/auth';
import { AppError, ErrorCode, notFound } from '@exam/domain/errors';
import type { InternalAttempt, InternalExam } from '@exam/domain/internal';
import type { AiBudget } from '@exam/domain/exam-ai';
import { CHAT_MAX_FILE_BYTES, LlmMessages, type ChatRequest } from '@exam/domain/llm';
import { SectionMessages } from '@exam/domain/sections';
import type { Deps } from '../../deps.ts';
import { refuseOverBudget, sameBudget, settle, type BudgetHints, type Settled } from './budgets.ts';
import type { ImagePart, ProviderMessage, ProviderRequest } from '../../adapters/providers/types.ts';
import type { StoredFile } from '../../db/schema.ts';
import { readAttachment } from './attachments.ts';
import type { AssistantTarget } from './assistant-config.ts';
import type { Admission, ChatRepository, HistoryMessage } from './chat.repository.ts';
import {
  earlierReplies,
  guardedKeys,
  guardedOptions,
  targetOf,
  upstreamRequest,
  type PreparedChat,
  type StoredReply,
} from './prepared-chat.ts';
import { plantedAskOf } from './planted-turn.ts';
import { createTranscriptWriter, storedTranscript } from './transcript-writer.ts';

/** What the steps of a candidate's message share: the store, the outside services, the settings, the hints. */
export type CandidateChatContext = {
  repo: ChatRepository;
  deps: Pick<Deps, 'exams' | 'attempts' | 'clock' | 'ids' | 'baseUrlGuard'>;
  opts: Parameters<typeof targetOf>[1] & { historyMessages: number };
  budgetHints: BudgetHints;
};

/** One try of one message: its ids and the instant its budgets are counted at. */
type MessageTry = {
  claims: AttemptClaims;
  body: ChatRequest;
  userMessageId: string;
  /** Set when the message carries a clientMessageId: a retry gets a new one and takes the message over. */
  tryId: string | null;
  now: Date;
};

type AttemptCheck = { open: boolean; attempt: InternalAttempt | undefined; err: unknown };
type Attachments = { text: string; images: ImagePart[]; files: StoredFile[] };
/** The exam the message is about, the assistant it calls, and the message's attachments as read. */
type ExamContext = { exam: InternalExam; target: AssistantTarget; attachments: Attachments };
type EarlyAdmission = { hint: AiBudget; admission: Promise<Settled<Admission>> };

/** Asks results-service whether the attempt is open; never rejects, so it runs beside the other steps. */
function checkAttempt(ctx: CandidateChatContext, claims: AttemptClaims): Promise<AttemptCheck> {
  return ctx.deps.attempts.findAttempt(claims.sub).then(
    (found) => ({
      open: !!found && found.isOpen && found.examId === claims.examId,
      attempt: found,
      err: undefined as unknown,
    }),
    (err: unknown) => ({ open: false, attempt: undefined, err }),
  );
}

/** A closed attempt is reported as closed whatever else is wrong with the message, as when the check ran first. */
async function closedOr(attemptCheck: Promise<AttemptCheck>, err: unknown): Promise<never> {
  const check = await attemptCheck;
  if (check.err) throw check.err;
  if (!check.open) throw new AppError(ErrorCode.ATTEMPT_CLOSED, LlmMessages.attemptClosed);
  throw err;
}

function startTry(ctx: CandidateChatContext, claims: AttemptClaims, body: ChatRequest): MessageTry {
  const userMessageId = ctx.deps.ids.next();
  const tryId = body.clientMessageId ? ctx.deps.ids.next() : null;
  return { claims, body, userMessageId, tryId, now: ctx.deps.clock.now() };
}

/** Stores the user's message if the budgets admit it, in one database round trip (admit_user_message). */
function admitMessage(
  ctx: CandidateChatContext,
  t: MessageTry,
  budget: AiBudget,
  attached: { text: string; files: StoredFile[] },
): Promise<Admission> {
  return ctx.repo.admitUserMessage(
    { attemptId: t.claims.sub, examId: t.claims.examId, ownerId: t.claims.ownerId },
    {
      id: t.userMessageId,
      content: t.body.message,
      attachmentText: attached.text,
      files: attached.files,
      questionIndex: t.body.questionIndex,
      clientMessageId: t.body.clientMessageId ?? null,
      tryId: t.tryId,
    },
    budget,
    ctx.opts.historyMessages,
    t.now,
  );
}

/** A text message admitted beside the exam's fetch, under the budget this replica last read for the exam. */
function admitEarly(ctx: CandidateChatContext, t: MessageTry): EarlyAdmission | undefined {
  const hint = t.body.files?.length || !t.body.message.trim() ? undefined : ctx.budgetHints.get(t.claims.examId);
  return hint ? { hint, admission: settle(admitMessage(ctx, t, hint, { text: '', files: [] })) } : undefined;
}

/** Takes back what the early admission stored; a refusal or a failure stored nothing to take back. */
async function takeBackEarly(ctx: CandidateChatContext, t: MessageTry, early: EarlyAdmission | undefined) {
  const result = early && (await early.admission);
  if (result?.ok && result.value.kind === 'ok') await ctx.repo.retractUserMessage(t.userMessageId);
}

/** The exam and its assistant, refusing a message the exam does not take before anything of it is read or stored. */
async function loadExam(ctx: CandidateChatContext, t: MessageTry): Promise<ExamContext> {
  const files = t.body.files ?? [];
  const exam = await ctx.deps.exams.findExam(t.claims.examId, { recent: true });
  if (!exam) throw notFound('Exam');
  // Resolving first refuses a disabled or incomplete assistant before anything is read or stored.
  const target = await targetOf(exam, ctx.opts, ctx.deps.baseUrlGuard);
  if (files.length && !exam.aiSettings.uploadDocuments)
    throw new AppError(ErrorCode.FORBIDDEN, LlmMessages.attachmentsDisabled);
  if (!t.body.message.trim() && !files.length)
    throw new AppError(ErrorCode.VALIDATION, LlmMessages.emptyMessage, [
      { path: 'message', message: LlmMessages.emptyMessage },
    ]);
  const attachments = files.length ? await readFiles(files, target.vision) : { text: '', images: [], files: [] };
  return { exam, target, attachments };
}

async function readFiles(files: NonNullable<ChatRequest['files']>, vision: boolean): Promise<Attachments> {
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

/** Keeps the early admission when it was made under the exam's current budget; otherwise admits again under it. */
async function admitUnderBudget(
  ctx: CandidateChatContext,
  t: MessageTry,
  early: EarlyAdmission | undefined,
  budget: AiBudget,
  attachments: Attachments,
): Promise<Admission> {
  if (early && sameBudget(early.hint, budget))
    return early.admission.then((result) => (result.ok ? result.value : Promise.reject(result.err)));
  await takeBackEarly(ctx, t, early);
  return admitMessage(ctx, t, budget, attachments);
}

/** The conversation sent upstream: the stored history, then this message with its attachments' text and images. */
function buildConversation(history: HistoryMessage[], message: string, attachments: Attachments): ProviderMessage[] {
  const withAttachments = (content: string, attachmentText: string) =>
    attachmentText ? `${content}\n\n${attachmentText}` : content;
  return [
    ...history.map((m) => ({ role: m.role, content: withAttachments(m.content, m.attachmentText) })),
    {
      role: 'user',
      content: withAttachments(message, attachments.text),
      ...(attachments.images.length ? { images: attachments.images } : {}),
    },
  ];
}

/**
 * The message ready to stream after the given history, its reply recorded in the candidate's transcript. `turn`:
 * how many earlier messages were about its question (the admission's count), for the planted-error decision.
 */
function buildPreparedChat(
  ctx: CandidateChatContext,
  t: MessageTry,
  { exam, target, attachments }: ExamContext,
  attempt: InternalAttempt | undefined,
  history: HistoryMessage[],
  turn: number | null,
): PreparedChat {
  const planted = plantedAskOf(exam, attempt, t.claims.sub, t.body.questionIndex, turn);
  // The questions as the attempt saw them at start (results-service's snapshot): questionIndex points into
  // those, whatever the creator has edited since. The live exam's only for a results-service without them.
  const request: ProviderRequest = upstreamRequest(
    exam,
    attempt?.questions,
    target,
    t.body.questionIndex,
    buildConversation(history, t.body.message, attachments),
    planted,
  );
  return {
    request,
    secrets: [request.apiKey],
    answerKeys: guardedKeys(exam, t.body.questionIndex, attempt),
    answerOptions: guardedOptions(exam, t.body.questionIndex, attempt),
    earlierReplies: earlierReplies(history),
    transcript: createTranscriptWriter(ctx.repo, ctx.deps, {
      attemptId: t.claims.sub,
      questionIndex: t.body.questionIndex,
      clientMessageId: t.body.clientMessageId ?? null,
      tryId: t.tryId,
      request,
      planted,
    }),
  };
}

/**
 * A message sent again with the clientMessageId of a stored one (the browser's retry after a cut stream; it
 * was admitted and counted the first time, docs/product.md "Assistant replies across restarts"): a reply
 * completed by an earlier try is replayed as stored, with no upstream call and nothing counted; otherwise
 * this try takes the message over and generates the reply again from the conversation before it.
 */
async function replayOrTakeOver(
  ctx: CandidateChatContext,
  t: MessageTry,
  messageId: string,
  generate: (history: HistoryMessage[]) => PreparedChat,
): Promise<PreparedChat> {
  // 'seen' is only ever answered for a message that carries a clientMessageId, so tryId is set too.
  const earlier = await ctx.repo.findReplyOf(t.claims.sub, t.body.clientMessageId ?? '');
  if (earlier && !earlier.isPartial && !earlier.isError) {
    const replay: StoredReply = {
      messageId: earlier.id,
      text: earlier.content,
      usage: { inputTokens: earlier.inputTokens, outputTokens: earlier.outputTokens, estimated: false },
      withheld: earlier.isWithheld,
    };
    return { ...generate([]), replay, transcript: storedTranscript(earlier.id) };
  }
  return generate(await ctx.repo.takeOverMessage(messageId, t.tryId ?? '', ctx.opts.historyMessages));
}

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
export async function prepareCandidateChat(
  ctx: CandidateChatContext,
  claims: AttemptClaims,
  body: ChatRequest,
): Promise<PreparedChat> {
  const attemptCheck = checkAttempt(ctx, claims);
  const t = startTry(ctx, claims, body);
  const early = admitEarly(ctx, t);

  let examContext: ExamContext;
  try {
    examContext = await loadExam(ctx, t);
  } catch (err) {
    await takeBackEarly(ctx, t, early);
    return closedOr(attemptCheck, err);
  }
  const budget = examContext.exam.aiSettings.budget;
  ctx.budgetHints.remember(claims.examId, budget);
  const [admission, check] = await Promise.all([
    admitUnderBudget(ctx, t, early, budget, examContext.attachments),
    attemptCheck,
  ]);
  if (!check.open) {
    if (admission.kind === 'ok') await ctx.repo.retractUserMessage(t.userMessageId);
    return closedOr(attemptCheck, undefined);
  }
  // The candidate's current section has no assistant (docs/product.md#sections): refused like a closed attempt,
  // its message taken back, no provider call; a retry of an earlier message is not replayed either. An older
  // results-service sends no `assistant`: available.
  if (check.attempt?.assistant?.available === false) {
    if (admission.kind === 'ok') await ctx.repo.retractUserMessage(t.userMessageId);
    throw new AppError(ErrorCode.CONFLICT, check.attempt.assistant.reason ?? SectionMessages.assistantOff);
  }
  refuseOverBudget(admission, budget, t.now);
  const prepared = (history: HistoryMessage[]) =>
    buildPreparedChat(ctx, t, examContext, check.attempt, history, admission.turn);
  if (admission.kind === 'seen') return replayOrTakeOver(ctx, t, admission.messageId, prepared);
  return prepared(admission.history);
}
