import { DEADLINE_GRACE_SECONDS } from '@exam/domain/attempt';
import { AppError, ErrorCode } from '@exam/domain/errors';
import {
  FollowUpMessages,
  type FollowUpCurrent,
  type FollowUpState,
  type MarkFollowUpSchema,
} from '@exam/domain/follow-up';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { Deps } from '../../deps.ts';
import { followUpAnswers, probedQuestion } from './follow-up-request.ts';
import type { Ask, FollowUpAttempt, FollowUpRepository, StoredFollowUp } from './follow-up.repository.ts';
import { graderView } from './grader-view.ts';
import { auditActorOf } from '../../access/exam-ownership.ts';

/** Saves in flight at a question's deadline are taken, as the exam's own saves are (docs/product.md#sitting-an-exam). */
const GRACE_MS = DEADLINE_GRACE_SECONDS * 1000;
/** A generating replica's claim outlasts its gateway call by this much, so it is never taken while the call runs. */
const LEASE_SLACK_MS = 5000;
/** How often a start that found another one generating looks whether it has finished. */
const WAIT_POLL_MS = 200;

export const FollowUpServiceMessages = {
  notFound: 'Follow-up question not found',
  notAsked: 'This follow-up question has not been asked yet.',
  stillOpen: 'This follow-up question is still being answered; it can be marked once it is closed.',
  levelOutside: (levels: number) => `Choose a level of the rubric (0 to ${levels - 1})`,
} as const;

/** The note of a follow-up skipped because llm-gateway refused or failed (adapters/follow-up-questions.ts). */
function skipNote(err: unknown): string {
  if (err instanceof AppError && err.code === ErrorCode.CONFLICT) return FollowUpMessages.skippedNoAssistant;
  if (err instanceof AppError && err.code === ErrorCode.RATE_LIMITED) return FollowUpMessages.skippedBudget;
  return FollowUpMessages.skippedProvider;
}

const current = (stored: StoredFollowUp) =>
  stored.followUp.status === 'asking' ? stored.questions.find((q) => q.askedAt && !q.answeredAt) : undefined;

/**
 * Follow-up questions after submit (docs/product.md#follow-up-questions): generated once when the candidate's page
 * starts them, asked one at a time within the candidate's time, closed by the candidate's submit or by the time
 * running out, and marked by the exam's creator. The state is kept in follow_ups and follow_up_questions; a
 * question whose time ran out is closed by the next read of any kind (the page, a save, a grader), and the next one
 * asked then, so nothing runs in the background.
 */
export function createFollowUpService(
  repo: FollowUpRepository,
  deps: Pick<Deps, 'clock' | 'followUpQuestions'>,
  log: FastifyBaseLogger,
  opts: { timeoutMs: number },
) {
  const now = () => deps.clock.now();
  /** The candidate's time for one question: the exam's seconds scaled by their accommodation's time factor. */
  const secondsFor = (stored: StoredFollowUp, attempt: FollowUpAttempt) =>
    Math.round(stored.followUp.secondsPerQuestion * (attempt.timeFactor ?? 1));
  const askNow = (seconds: number): Ask => {
    const askedAt = now();
    return { askedAt, deadline: new Date(askedAt.getTime() + seconds * 1000) };
  };

  async function attemptOf(attemptId: string): Promise<FollowUpAttempt> {
    const attempt = await repo.attempt(attemptId);
    if (!attempt) throw new AppError(ErrorCode.NOT_FOUND, 'Attempt not found');
    return attempt;
  }

  /** The follow-up after closing each question whose time ran out (and asking the next one then). */
  async function advance(attemptId: string, attempt: FollowUpAttempt): Promise<StoredFollowUp | undefined> {
    for (;;) {
      const stored = await repo.find(attemptId);
      const open = stored && current(stored);
      if (!stored || !open?.deadline || now() <= open.deadline) return stored;
      const hasNext = stored.questions.some((q) => q.n === open.n + 1);
      // Of two requests closing it at once, one does; the other reads again.
      await repo.close(
        attemptId,
        open.n,
        { answeredAt: open.deadline, timedOut: true },
        hasNext ? askNow(secondsFor(stored, attempt)) : null,
      );
    }
  }

  function stateOf(stored: StoredFollowUp | undefined, attempt: FollowUpAttempt): FollowUpState {
    const serverNow = now().toISOString();
    if (!stored)
      return { status: 'off', note: null, total: 0, answered: 0, current: null, secondsPerQuestion: 0, serverNow };
    const { followUp, questions } = stored;
    const open = current(stored);
    let shown: FollowUpCurrent | null = null;
    if (open?.askedAt && open.deadline) {
      shown = {
        n: open.n,
        text: open.text,
        probes: probedQuestion(attempt.examSnapshot, open.questionIndex),
        askedAt: open.askedAt.toISOString(),
        deadline: open.deadline.toISOString(),
        answer: open.answer,
        seq: open.seq,
      };
    }
    return {
      status: followUp.status,
      note: followUp.note,
      total: questions.length || (followUp.status === 'pending' ? followUp.count : 0),
      answered: questions.filter((q) => q.answeredAt).length,
      current: shown,
      secondsPerQuestion: secondsFor(stored, attempt),
      serverNow,
    };
  }

  /** Asks llm-gateway for the questions and stores them (asking the first), or skips the follow-up with the note. */
  async function generate(attemptId: string, stored: StoredFollowUp, attempt: FollowUpAttempt) {
    const snapshot = attempt.examSnapshot;
    const answers = followUpAnswers(snapshot, await repo.savedAnswers(attemptId));
    if (answers.length === 0) return repo.skip(attemptId, FollowUpMessages.skippedNothing, now());
    let questions;
    try {
      const reply = await deps.followUpQuestions.generate(attemptId, {
        examId: attempt.examId,
        count: stored.followUp.count,
        answers,
      });
      const sent = new Set(answers.map((a) => a.questionIndex));
      questions = reply.questions.filter((q) => sent.has(q.questionIndex)).slice(0, stored.followUp.count);
    } catch (err) {
      // The submission stands whatever happens here: the follow-up is skipped with the reason.
      log.warn({ err, attemptId }, 'the follow-up questions could not be generated; skipping them');
      return repo.skip(attemptId, skipNote(err), now());
    }
    if (questions.length === 0) return repo.skip(attemptId, FollowUpMessages.skippedProvider, now());
    await repo.storeQuestions(attemptId, questions, askNow(secondsFor(stored, attempt)));
  }

  /** Waits while another request (on any replica) generates, at most as long as its claim lasts. */
  async function waitForGeneration(attemptId: string) {
    const until = Date.now() + opts.timeoutMs + LEASE_SLACK_MS;
    while (Date.now() < until) {
      const stored = await repo.find(attemptId);
      if (!stored || stored.followUp.status !== 'pending' || !stored.followUp.generatingUntil) return;
      await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS));
    }
  }

  async function state(attemptId: string): Promise<FollowUpState> {
    const attempt = await attemptOf(attemptId);
    return stateOf(await advance(attemptId, attempt), attempt);
  }

  /** The stored question `n` after closing what ran out; 404 without it. */
  async function questionOf(attemptId: string, n: number) {
    const attempt = await attemptOf(attemptId);
    const stored = await advance(attemptId, attempt);
    const question = stored?.questions.find((q) => q.n === n);
    if (!stored || !question) throw new AppError(ErrorCode.NOT_FOUND, FollowUpServiceMessages.notFound);
    if (!question.askedAt || !question.deadline)
      throw new AppError(ErrorCode.CONFLICT, FollowUpServiceMessages.notAsked);
    return { attempt, stored, question, deadline: question.deadline };
  }

  /** Saves are taken until the deadline plus the grace, unless the candidate submitted the answer. */
  const takesSaves = (q: { answeredAt: Date | null; timedOut: boolean }, deadline: Date) =>
    (!q.answeredAt || q.timedOut) && now().getTime() <= deadline.getTime() + GRACE_MS;

  /** A result's follow-up for the exam's creator (after closing what ran out); 404 for anyone else. */
  async function ownedFollowUp(resultId: string, ownerId: string) {
    const owned = await repo.findOwnedResult(resultId, ownerId);
    if (!owned) throw new AppError(ErrorCode.NOT_FOUND, 'Result not found');
    const attempt = await repo.attempt(owned.attemptId);
    const stored = attempt ? await advance(owned.attemptId, attempt) : await repo.find(owned.attemptId);
    return { attemptId: owned.attemptId, examId: owned.examId, stored };
  }

  return {
    state,

    /**
     * Generates the questions once and asks the first. Of concurrent starts (several tabs, replicas) one claims the
     * generation and the others wait for it; a start when they already exist answers the state.
     */
    async start(attemptId: string): Promise<FollowUpState> {
      const attempt = await attemptOf(attemptId);
      const stored = await advance(attemptId, attempt);
      if (stored?.followUp.status === 'pending') {
        const at = now();
        const until = new Date(at.getTime() + opts.timeoutMs + LEASE_SLACK_MS);
        if (await repo.claimGeneration(attemptId, at, until)) await generate(attemptId, stored, attempt);
        else await waitForGeneration(attemptId);
      }
      return state(attemptId);
    },

    /** A draft of the current question (or of one whose time ran out, within the grace); a stale `seq` is ignored. */
    async saveDraft(attemptId: string, n: number, body: { answer: string; seq: number }): Promise<{ seq: number }> {
      const { question, deadline } = await questionOf(attemptId, n);
      if (!takesSaves(question, deadline)) throw new AppError(ErrorCode.CONFLICT, FollowUpMessages.closed);
      const saved = await repo.saveDraft({
        attemptId,
        n,
        answer: body.answer,
        seq: body.seq,
        cutoff: new Date(now().getTime() - GRACE_MS),
      });
      if (saved) return saved;
      // Not written: a newer seq is stored (answer it), or the question closed in between.
      const again = await questionOf(attemptId, n);
      if (!takesSaves(again.question, again.deadline)) throw new AppError(ErrorCode.CONFLICT, FollowUpMessages.closed);
      return { seq: again.question.seq };
    },

    /**
     * The final answer to question `n`: it closes and the next one is asked now (the last one ends the follow-up).
     * A question whose time ran out keeps this answer when it comes within the grace; a repeat changes nothing.
     */
    async submit(attemptId: string, n: number, answer: string): Promise<FollowUpState> {
      const { attempt, stored, question } = await questionOf(attemptId, n);
      if (!question.answeredAt) {
        const hasNext = stored.questions.some((q) => q.n === n + 1);
        await repo.close(
          attemptId,
          n,
          { answeredAt: now(), timedOut: false, answer },
          hasNext ? askNow(secondsFor(stored, attempt)) : null,
        );
      } else if (question.timedOut) {
        await repo.lateAnswer(attemptId, n, answer, new Date(now().getTime() - GRACE_MS));
      }
      return stateOf(await advance(attemptId, attempt), attempt);
    },

    /** For the exam's creator: the questions, answers and marks (the exam's own numbering). 404 for anyone else. */
    async forGrader(resultId: string, ownerId: string) {
      const { stored } = await ownedFollowUp(resultId, ownerId);
      return graderView(stored);
    },

    /** A grader's mark of one closed question: a level of the rubric copied at submission, or null to clear it. */
    async mark(
      resultId: string,
      grader: { sub: string; email: string; actorId?: string },
      n: number,
      body: z.infer<typeof MarkFollowUpSchema>,
    ) {
      const { attemptId, examId, stored } = await ownedFollowUp(resultId, grader.sub);
      const question = stored?.questions.find((q) => q.n === n);
      if (!stored || !question) throw new AppError(ErrorCode.NOT_FOUND, FollowUpServiceMessages.notFound);
      const rubric = stored.followUp.rubric;
      const level = body.level === null ? null : rubric[body.level];
      if (body.level !== null && !level) {
        const message = FollowUpServiceMessages.levelOutside(rubric.length);
        throw new AppError(ErrorCode.VALIDATION, message, [{ path: 'level', message }]);
      }
      const at = now();
      const marked = await repo.mark(
        attemptId,
        n,
        body.level !== null && level
          ? { level: body.level, points: level.points, feedback: body.feedback, by: grader.email, at }
          : null,
        { actor: auditActorOf(grader), examId, resultId, at },
      );
      if (!marked) throw new AppError(ErrorCode.CONFLICT, FollowUpServiceMessages.stillOpen);
      return graderView(await repo.find(attemptId));
    },

    /** The attempt's follow-up as stored after closing what ran out, for its timeline (undefined: none). */
    async forTimeline(attemptId: string) {
      const attempt = await repo.attempt(attemptId);
      if (!attempt) return undefined;
      const stored = await advance(attemptId, attempt);
      return stored && { stored, snapshot: attempt.examSnapshot };
    },
  };
}
export type FollowUpService = ReturnType<typeof createFollowUpService>;
