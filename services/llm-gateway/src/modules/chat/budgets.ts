import { AppError, ErrorCode } from '@exam/domain/errors';
import type { AiBudget } from '@exam/domain/exam-ai';
import { LlmMessages } from '@exam/domain/llm';
import type { Admission } from './chat.repository.ts';

/** A budget that frees up again later: 429, and when to retry (the route sends it as Retry-After, in seconds). */
export class BudgetRefusal extends AppError {
  readonly retryAfterSeconds: number;
  constructor(message: string, waitMs: number) {
    super(ErrorCode.RATE_LIMITED, message);
    this.retryAfterSeconds = Math.max(1, Math.ceil(waitMs / 1000));
  }
}

/** How many exams' last-read budgets a replica keeps for early admissions (prepareCandidateChat). */
const BUDGET_HINTS_KEPT = 1000;

/**
 * The budget each exam had when this replica last read it. Only a guess for an early admission, always
 * checked against the exam read for the same message, so no other replica needs it.
 */
export function createBudgetHints() {
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
export type BudgetHints = ReturnType<typeof createBudgetHints>;

export const sameBudget = (a: AiBudget, b: AiBudget) =>
  Object.keys(a).length === Object.keys(b).length &&
  (Object.keys(a) as (keyof AiBudget)[]).every((key) => a[key] === b[key]);

export type Settled<T> = { ok: true; value: T } | { ok: false; err: unknown };
/** A promise that never rejects, so one waited for only on some paths is never an unhandled rejection. */
export const settle = <T>(promise: Promise<T>): Promise<Settled<T>> =>
  promise.then(
    (value) => ({ ok: true as const, value }),
    (err: unknown) => ({ ok: false as const, err }),
  );

/** Throws the refusal of a message a budget did not admit: the candidate's own, or the exam-wide one. */
export function refuseOverBudget(
  admission: Admission,
  budget: AiBudget,
  now: Date,
): asserts admission is Extract<Admission, { kind: 'ok' | 'seen' }> {
  if (admission.kind === 'tokens') throw new AppError(ErrorCode.RATE_LIMITED, LlmMessages.tokenLimit);
  if (admission.kind === 'messages') {
    const waitMs = admission.oldestInWindow.getTime() + budget.windowMinutes * 60_000 - now.getTime();
    throw new BudgetRefusal(LlmMessages.messageLimit(Math.max(1, Math.ceil(waitMs / 60_000))), waitMs);
  }
  if (admission.kind === 'exam_requests' || admission.kind === 'exam_tokens') {
    // The exam-wide budget (requests or tokens in the sliding hour).
    const waitMs = admission.retryAt.getTime() - now.getTime();
    throw new BudgetRefusal(LlmMessages.examBudget(Math.max(1, Math.ceil(waitMs / 60_000))), waitMs);
  }
}
