import { AppError, ErrorCode, type Issue } from '@exam/domain/errors';
import { rubricPoints } from '@exam/domain/grading';
import type { GradingEntry } from '@exam/domain/result';
import type { StoredGrade } from './score.ts';
import type { ExamSnapshot } from './snapshot.ts';

const hundredths = (n: number) => Math.round(n * 100);
const hasTwoDecimals = (n: number) => Math.abs(hundredths(n) - n * 100) < 1e-6;

/** Why an entry cannot apply, one issue per bad field, named `grading.<entry>.<field>`. */
function entryIssues(snapshot: ExamSnapshot, entry: GradingEntry, at: number, seen: Set<number>): Issue[] {
  const field = (name: string) => `grading.${at}.${name}`;
  const q = snapshot.questions[entry.questionIndex];
  if (!q) return [{ path: field('questionIndex'), message: `This result has no question ${entry.questionIndex + 1}` }];
  if (seen.has(entry.questionIndex))
    return [{ path: field('questionIndex'), message: `Question ${entry.questionIndex + 1} is graded twice` }];
  seen.add(entry.questionIndex);

  const issues: Issue[] = [];
  const { points, criteria } = entry;
  if (points !== null && points > q.points)
    issues.push({ path: field('points'), message: `This question is worth at most ${q.points} points` });
  if (points !== null && !hasTwoDecimals(points))
    issues.push({ path: field('points'), message: 'Points have at most two decimals' });
  if (criteria.length === 0) return issues;

  const rubric = q.rubricId === null ? undefined : snapshot.rubrics.find((r) => r.id === q.rubricId);
  if (!rubric) return [...issues, { path: field('criteria'), message: 'This question has no rubric' }];
  const unknown = criteria.filter((id) => !rubric.criteria.some((c) => c.id === id));
  if (unknown.length)
    return [...issues, { path: field('criteria'), message: `Not criteria of this rubric: ${unknown.join(', ')}` }];
  if (points === null)
    return [...issues, { path: field('criteria'), message: 'Ticked criteria need the points they add up to' }];
  const sum = rubricPoints(rubric, criteria);
  if (hundredths(points) !== hundredths(sum))
    issues.push({ path: field('points'), message: `The ticked criteria add up to ${sum} points` });
  return issues;
}

/**
 * The stored grades with the grader's entries applied, as scoreAttempt takes them: a number sets the
 * grader's mark, null removes it (the key, or pending, applies again). Explicit values, never toggles,
 * so the same request twice changes nothing the second time. Every bad entry is reported at once.
 */
export function applyGradingEntries(
  snapshot: ExamSnapshot,
  grades: readonly StoredGrade[],
  entries: readonly GradingEntry[],
): StoredGrade[] {
  const seen = new Set<number>();
  const issues = entries.flatMap((entry, at) => entryIssues(snapshot, entry, at, seen));
  if (issues.length) throw new AppError(ErrorCode.VALIDATION, 'Some grades cannot be saved', issues);
  const next = grades.map((g) => ({ ...g }));
  for (const entry of entries) {
    const found = next[entry.questionIndex];
    if (!found) continue;
    // The grader's own entry replaces an "unanswered, scored 0" mark (its marker goes with it).
    const { unanswered: _marker, ...current } = found;
    next[entry.questionIndex] =
      entry.points === null
        ? { ...current, manual: false, feedback: entry.feedback, criteria: [] }
        : {
            ...current,
            manual: true,
            points: entry.points,
            feedback: entry.feedback,
            criteria: [...new Set(entry.criteria)],
          };
  }
  return next;
}

export type GradeChange = {
  questionIndex: number;
  before: { points: number | null; feedback: string };
  after: { points: number | null; feedback: string };
};

const sameGrade = (a: StoredGrade, b: StoredGrade) =>
  a.points === b.points &&
  a.feedback === b.feedback &&
  a.manual === b.manual &&
  a.criteria.length === b.criteria.length &&
  a.criteria.every((c) => b.criteria.includes(c));

/** The questions whose points, feedback, criteria or grader ownership differ: one history entry each. */
export function gradeChanges(before: readonly StoredGrade[], after: readonly StoredGrade[]): GradeChange[] {
  return after.flatMap((next, questionIndex) => {
    const prev = before[questionIndex];
    if (prev && sameGrade(prev, next)) return [];
    return [
      {
        questionIndex,
        before: { points: prev?.points ?? null, feedback: prev?.feedback ?? '' },
        after: { points: next.points, feedback: next.feedback },
      },
    ];
  });
}
