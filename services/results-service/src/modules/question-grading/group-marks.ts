import { AppError, ErrorCode, type Issue } from '@exam/domain/errors';
import type { QuestionMark, QuestionMarkReport } from '@exam/domain/question-grading';
import { applyGradingEntries, gradeChanges } from '../../scoring/marks.ts';
import { nextResultState, scoreAttempt } from '../../scoring/score.ts';
import { OverrideMessages } from '../grading/grading.service.ts';
import type { HistoryRow, LockedResult, ResultWrite, Writes } from '../grading/result-writes.repository.ts';
import { QuestionGradingMessages } from './question-answers.repository.ts';
import { candidateIndexOf } from './question-numbering.ts';
import type { SuggestionRow } from './latest-suggestions.ts';

const hundredths = (n: number) => Math.round(n * 100);

/**
 * Whether a mark is the suggestion as it was: the same points and, for a rubric, the same criteria ticked (the
 * suggestion's criteria with points above 0 count as ticked). Anything else is the grader's edit of it.
 */
export function takesSuggestionAsIs(
  mark: Pick<QuestionMark, 'points' | 'criteria'>,
  suggestion: SuggestionRow,
): boolean {
  if (mark.points === null || hundredths(mark.points) !== hundredths(suggestion.points)) return false;
  const ticked = new Set(suggestion.rubric.filter((r) => r.points > 0).map((r) => r.criterionId));
  const given = new Set(mark.criteria);
  return ticked.size === given.size && [...ticked].every((id) => given.has(id));
}

/** `grading.0.points` (applyGradingEntries' name for the one entry) is the mark's `points`. */
const asMarkIssue = (issue: Issue): Issue => ({ ...issue, path: issue.path.replace(/^grading\.\d+\./, '') });

/**
 * One mark applied to each locked result (docs/product.md#grading-by-question), the way a result page's grading
 * does it for one (grading.service.ts): the grader's entry on the candidate's own index of the exam's question,
 * re-scored by scoreAttempt, one history row per changed question, the result unreleased when it becomes pending
 * again. Every result is checked before anything is written; a bad mark throws VALIDATION naming the mark's
 * field (`points`, `criteria`, `reason`, `resultIds.<n>`), reported once however many results it fails for.
 */
export function markResults(
  locked: readonly LockedResult[],
  mark: QuestionMark,
  ctx: {
    examQuestionIndex: number;
    by: string;
    now: Date;
    /** The mark took this suggestion: 'accepted' as it was, or 'edited'. */
    suggestion?: { id: string; verdict: 'accepted' | 'edited' };
  },
): Writes & { value: QuestionMarkReport } {
  const issues = new Map<string, Issue>();
  const addIssue = (issue: Issue) => issues.set(`${issue.path}\n${issue.message}`, issue);
  const writes: ResultWrite[] = [];
  const history: HistoryRow[] = [];
  let unchanged = 0;
  for (const { result, snapshot } of locked) {
    const questionIndex = candidateIndexOf(snapshot, ctx.examQuestionIndex);
    if (questionIndex === undefined) {
      addIssue({ path: `resultIds.${mark.resultIds.indexOf(result.id)}`, message: QuestionGradingMessages.notDrawn });
      continue;
    }
    if (mark.points !== null && result.grades[questionIndex]?.tests?.state === 'done' && !mark.reason)
      addIssue({ path: 'reason', message: OverrideMessages.reason });
    const entry = { questionIndex, points: mark.points, feedback: mark.feedback, criteria: mark.criteria };
    let marked;
    try {
      marked = applyGradingEntries(snapshot, result.grades, [entry]);
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== ErrorCode.VALIDATION) throw error;
      for (const issue of error.issues ?? []) addIssue(asMarkIssue(issue));
      continue;
    }
    const answers = result.grades.map((g) => g.answer);
    const { grades, totals } = scoreAttempt(snapshot, answers, marked, { released: result.releasedAt !== null });
    const changes = gradeChanges(result.grades, grades);
    if (changes.length === 0) {
      unchanged++;
      continue;
    }
    const state = nextResultState(result, totals, ctx.now);
    writes.push({ resultId: result.id, attemptId: result.attemptId, result: { grades, ...state, updatedAt: ctx.now } });
    for (const change of changes) {
      const own = change.questionIndex === questionIndex;
      history.push({
        resultId: result.id,
        at: ctx.now,
        by: ctx.by,
        kind: 'grade',
        ...change,
        ...(own && mark.reason ? { reason: mark.reason } : {}),
        ...(own && ctx.suggestion ? { suggestionId: ctx.suggestion.id, suggestion: ctx.suggestion.verdict } : {}),
      });
    }
    if (result.releasedAt && !state.releasedAt)
      history.push({ resultId: result.id, at: ctx.now, by: ctx.by, kind: 'unrelease', questionIndex: null });
  }
  if (issues.size) throw new AppError(ErrorCode.VALIDATION, 'The mark cannot be saved', [...issues.values()]);
  return { writes, history, value: { marked: writes.length, unchanged } };
}
