import { AppError, ErrorCode, type Issue } from '@exam/domain/errors';
import type { Question } from '@exam/domain/question';

/** Answers and results refer to questions by id, so two questions of one exam may not share one. */
export function assertUniqueQuestionIds(questions: Question[]): void {
  const seen = new Set<string>();
  const issues: Issue[] = [];
  questions.forEach((q, index) => {
    if (seen.has(q.id))
      issues.push({ path: `questions.${index}.id`, message: `Question id "${q.id}" is used twice in this exam` });
    seen.add(q.id);
  });
  if (issues.length > 0) throw new AppError(ErrorCode.VALIDATION, `${issues[0]!.path}: ${issues[0]!.message}`, issues);
}

export type LifecycleState = { isDraft: boolean; isLive: boolean; publishedAt: Date | null };

function invalid(path: string, message: string): AppError {
  return new AppError(ErrorCode.VALIDATION, `${path}: ${message}`, [{ path, message }]);
}

/** A new exam: `isDraft: false` publishes it, and it starts offline (docs/product.md#exams). */
export function initialLifecycle(isDraft: boolean, now: Date): LifecycleState {
  return isDraft
    ? { isDraft: true, isLive: false, publishedAt: null }
    : { isDraft: false, isLive: false, publishedAt: now };
}

/**
 * The state after an update (docs/product.md#exams: an update keeps the live state): publishing a draft sets
 * publishedAt and starts offline unless the body says live; a published exam keeps its live state unless
 * the body sets it; only a published exam can be live; a published exam cannot return to draft because
 * candidates may already hold its URL and results.
 */
export function nextLifecycle(
  current: LifecycleState,
  patch: { isDraft?: boolean; isLive?: boolean },
  now: Date,
): LifecycleState {
  if (current.isDraft) {
    if (patch.isDraft === false) return { isDraft: false, isLive: patch.isLive ?? false, publishedAt: now };
    if (patch.isLive === true) throw invalid('isLive', 'Only a published exam can be live; publish it first');
    return { isDraft: true, isLive: false, publishedAt: current.publishedAt };
  }
  if (patch.isDraft === true) throw invalid('isDraft', 'A published exam cannot return to draft');
  return { isDraft: false, isLive: patch.isLive ?? current.isLive, publishedAt: current.publishedAt };
}
