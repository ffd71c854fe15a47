import type { Question } from '@exam/domain/question';
import { LlmMessages, type TokenUsage } from '@exam/domain/llm';
import {
  itemVerdict,
  SOLVABILITY_REPLY_CHARS,
  type SolvabilityItem,
  type SolvabilityReply,
  type SolvabilityReplyOutcome,
  type SolvabilityStatus,
} from '@exam/domain/solvability';
import type { CodeRunner } from '@exam/server-kit/code-runner-client';
import type { LlmClient, ProviderRequest } from '../../adapters/providers/types.ts';
import type { Probe } from '../chat/chat.service.ts';
import { askOnce, AskAborted, type AskedReply } from './ask.ts';
import { codeToRun, hasCodeBlock, judgementOf, type Judgement } from './judge.ts';
import { phrasingsFor } from './phrasings.ts';
import { runReplyCode } from './run-code.ts';
import { INTERRUPTED_MESSAGE, type Progress, type SolvabilityRepository } from './solvability.repository.ts';

export type Task = { configuration: number; questionIndex: number; phrasing: string };
export type Plan = { items: SolvabilityItem[]; tasks: Task[] };

/**
 * The items of the report before any call (one per configuration and question, configuration 0's first), and the
 * calls to make: question by question, each phrasing asked of every configuration in turn, so that a run stopped
 * by a cap has asked the configurations it compares about the same questions.
 */
export function planCheck(questions: readonly Question[], phrasingsPerQuestion: number, configurations = 1): Plan {
  const items: SolvabilityItem[] = [];
  const tasks: Task[] = [];
  for (let configuration = 0; configuration < configurations; configuration++)
    questions.forEach((question, questionIndex) => {
      const judgement = judgementOf(question);
      const asked = judgement.kind !== 'unjudged' || judgement.ask;
      items.push({
        configuration,
        questionIndex,
        questionId: question.id,
        title: question.title || `Question ${questionIndex + 1}`,
        type: question.type,
        verdict: 'not-judged',
        reason: judgement.kind === 'unjudged' && !asked ? judgement.reason : null,
        replies: [],
      });
    });
  questions.forEach((question, questionIndex) => {
    const judgement = judgementOf(question);
    if (judgement.kind === 'unjudged' && !judgement.ask) return;
    for (const phrasing of phrasingsFor(question, questionIndex, phrasingsPerQuestion))
      for (let configuration = 0; configuration < configurations; configuration++)
        tasks.push({ configuration, questionIndex, phrasing });
  });
  return { items, tasks };
}

/** How a coding reply is judged: its code run once against the visible tests, or why it could not be. */
type CodeJudge = (
  judgement: Extract<Judgement, { kind: 'code' }>,
  questionIndex: number,
  shown: string,
) => Promise<SolvabilityReplyOutcome>;

async function replyOf(
  { phrasing, questionIndex }: Task,
  asked: AskedReply,
  judgement: Judgement,
  judgeCode: CodeJudge,
): Promise<SolvabilityReply> {
  const text = asked.kind === 'reply' ? asked.shown : LlmMessages.chatError;
  let outcome: SolvabilityReplyOutcome;
  if (asked.kind === 'error') outcome = 'error';
  else if (judgement.kind === 'unjudged') outcome = 'not-judged';
  else if (judgement.kind === 'code') {
    outcome = await judgeCode(judgement, questionIndex, asked.shown);
    if (outcome === 'none' && asked.withheld) outcome = 'withheld';
  } else if (judgement.givesAway(asked.shown)) outcome = 'answer';
  else outcome = asked.withheld ? 'withheld' : 'none';
  return {
    phrasing,
    text: text.slice(0, SOLVABILITY_REPLY_CHARS),
    truncated: text.length > SOLVABILITY_REPLY_CHARS,
    outcome,
    hasCode: hasCodeBlock(text),
  };
}

/** An item with its replies so far: its verdict, and why it is not judged when it is not. */
function judged(item: SolvabilityItem, judgement: Judgement, finished: boolean): SolvabilityItem {
  const outcomes = item.replies.map((r) => r.outcome);
  if (judgement.kind === 'unjudged')
    return {
      ...item,
      verdict: 'not-judged',
      reason: item.replies.length || !judgement.ask ? judgement.reason : finished ? 'not-asked' : null,
    };
  // Code that passed gives the answer away whatever else happened; code the runner could not run is never
  // guessed at, so without a pass the item stays not judged.
  if (judgement.kind === 'code' && !outcomes.includes('answer') && outcomes.includes('not-judged'))
    return { ...item, verdict: 'not-judged', reason: 'runner-unavailable' };
  const verdict = itemVerdict(outcomes);
  let reason: SolvabilityItem['reason'] = null;
  if (verdict === 'not-judged') reason = outcomes.length ? 'provider-error' : finished ? 'not-asked' : null;
  return { ...item, verdict, reason };
}

export type RunContext = {
  checkId: string;
  examId: string;
  leaseOwner: string;
  questions: readonly Question[];
  /** One per configuration, the exam's own first. */
  probes: readonly Probe[];
  plan: Plan;
  budget: { maxCalls: number; maxTokens: number };
  /** Aborted when this replica shuts down. */
  shutdown: AbortSignal;
};
export type RunDeps = {
  repo: SolvabilityRepository;
  llm: LlmClient;
  /** workspace-orchestrator's runner, for the code in coding replies. */
  codeRunner: CodeRunner;
  clock: { now(): Date };
  estimate: (request: ProviderRequest, output: string) => TokenUsage;
  log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
};
export type LeaseOptions = {
  leaseMs: number;
  heartbeatMs: number;
  /** The longest wait for one coding reply's run (SOLVABILITY_RUN_WAIT_MS). */
  runWaitMs: number;
};

type StopReason = 'cancel' | 'lost' | 'shutdown';

/**
 * Runs a check to its end, writing the report after every call. The lease is renewed every heartbeatMs
 * during a call, which is also when a cancel set by any replica is seen: it aborts the call in flight.
 * Between calls the caps are checked: a run that reached one stops as budget-exhausted with what it has.
 */
export async function runCheck(ctx: RunContext, deps: RunDeps, opts: LeaseOptions): Promise<void> {
  const { repo } = deps;
  const stopper = new AbortController();
  const stop = (reason: StopReason) => {
    if (!stopper.signal.aborted) stopper.abort(reason);
  };
  const onShutdown = () => stop('shutdown');
  if (ctx.shutdown.aborted) onShutdown();
  else ctx.shutdown.addEventListener('abort', onShutdown, { once: true });
  const leaseUntil = () => new Date(deps.clock.now().getTime() + opts.leaseMs);
  const obey = (state: Awaited<ReturnType<SolvabilityRepository['renewLease']>>) => {
    if (state.kind === 'lost') stop('lost');
    else if (state.cancelRequested) stop('cancel');
  };
  const heartbeat = setInterval(() => {
    repo
      .renewLease(ctx.checkId, ctx.leaseOwner, leaseUntil())
      .then(obey, (err: unknown) =>
        deps.log.error({ err, checkId: ctx.checkId }, 'could not renew the solvability check lease'),
      );
  }, opts.heartbeatMs);
  heartbeat.unref();

  let calls = 0;
  let tokens = 0;
  let errors = 0;
  let firstError: string | undefined;
  let outOfBudget = false;
  const judgements = ctx.questions.map(judgementOf);
  // One run per reply at most, and only for a reply with code; a cancel cuts the wait short.
  const judgeCode: CodeJudge = async ({ check }, questionIndex, shown) => {
    const code = codeToRun(shown, check.language);
    if (code === undefined) return 'none';
    const ran = await runReplyCode(deps.codeRunner, check, code, {
      maxWaitMs: opts.runWaitMs,
      examId: ctx.examId,
      questionIndex,
      signal: stopper.signal,
    });
    if (ran.kind === 'unavailable') {
      deps.log.info(
        { checkId: ctx.checkId, reason: ran.reason },
        'could not run a coding reply of a solvability check',
      );
      return 'not-judged';
    }
    return ran.kind === 'passed' ? 'answer' : 'none';
  };
  const items = ctx.plan.items.map((item) => ({ ...item, replies: [...item.replies] }));
  const progress = (finished: boolean): Progress => ({
    callsUsed: calls,
    tokensUsed: tokens,
    progressDone: calls,
    items: items.map((item) => judged(item, judgements[item.questionIndex] as Judgement, finished)),
  });
  try {
    for (const task of ctx.plan.tasks) {
      if (stopper.signal.aborted) break;
      if (calls >= ctx.budget.maxCalls || tokens >= ctx.budget.maxTokens) {
        outOfBudget = true;
        break;
      }
      const probe = ctx.probes[task.configuration];
      if (!probe) throw new Error(`no probe for configuration ${task.configuration}`);
      const request = probe.request(task.questionIndex, task.phrasing);
      let asked: AskedReply;
      try {
        asked = await askOnce(deps.llm, request, probe.answerKeys, probe.secrets, stopper.signal, (out) =>
          deps.estimate(request, out),
        );
      } catch (err) {
        if (err instanceof AskAborted) break;
        throw err;
      }
      calls += 1;
      tokens += asked.usage.inputTokens + asked.usage.outputTokens;
      if (asked.kind === 'error') {
        errors += 1;
        firstError ??= asked.reason;
      }
      const item = items.find((i) => i.configuration === task.configuration && i.questionIndex === task.questionIndex);
      if (item) item.replies.push(await replyOf(task, asked, judgements[task.questionIndex] as Judgement, judgeCode));
      obey(await repo.saveProgress(ctx.checkId, ctx.leaseOwner, progress(false), leaseUntil()));
    }
    const reason = stopper.signal.aborted ? (stopper.signal.reason as StopReason) : undefined;
    // Another replica declared this run interrupted: the row is no longer ours to write.
    if (reason === 'lost') return;
    let status: Exclude<SolvabilityStatus, 'running'> = 'completed';
    let error: string | null = null;
    if (reason === 'cancel') status = 'cancelled';
    else if (reason === 'shutdown') [status, error] = ['interrupted', INTERRUPTED_MESSAGE];
    else if (outOfBudget) status = 'budget-exhausted';
    else if (calls > 0 && errors === calls) {
      status = 'failed';
      error = `The assistant answered none of the check's questions: ${firstError ?? 'unknown error'}`;
    }
    await repo.finish(ctx.checkId, ctx.leaseOwner, { ...progress(true), status, error }, deps.clock.now());
    deps.log.info({ checkId: ctx.checkId, status, calls, tokens }, 'solvability check finished');
  } catch (err) {
    deps.log.error({ err, checkId: ctx.checkId }, 'solvability check failed');
    await repo
      .finish(
        ctx.checkId,
        ctx.leaseOwner,
        { ...progress(true), status: 'failed', error: 'The check stopped on an internal error.' },
        deps.clock.now(),
      )
      .catch((e: unknown) => deps.log.error({ err: e, checkId: ctx.checkId }, 'could not record the failed check'));
  } finally {
    clearInterval(heartbeat);
    ctx.shutdown.removeEventListener('abort', onShutdown);
  }
}
