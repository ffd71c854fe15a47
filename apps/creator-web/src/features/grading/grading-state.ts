import { rubricPoints, sumPoints } from '@exam/domain/grading';
import type { GradingEntry, QuestionAnswer, ResultDetail } from '@exam/domain/result';

/**
 * One question's mark as the grader edits it. `touched` marks questions the grader changed on this page:
 * only those are sent, so opening a result and saving never turns the key's points into a grader's mark
 * (a regrade keeps grader marks, docs/product.md#results-and-grading).
 */
export type QuestionGrade = {
  points: number | null;
  feedback: string;
  criteria: string[];
  touched: boolean;
  /** Why the grader's mark overrides the points the question's tests gave (required by the server then). */
  reason?: string;
};

/**
 * The grades by the candidate's question index (`questionIndex`, by which the server addresses them), whatever order
 * the page lists the questions in (the exam's own).
 */
export function gradesOf(detail: Pick<ResultDetail, 'questionAnswers'>): QuestionGrade[] {
  return [...detail.questionAnswers]
    .sort((a, b) => a.questionIndex - b.questionIndex)
    .map((qa) => ({
      points: qa.points,
      feedback: qa.feedback,
      criteria: qa.criteria,
      touched: false,
    }));
}

/**
 * The PATCH body: an entry per question the grader touched. Sending the same entries again changes
 * nothing on the server, so a retried or repeated save is harmless.
 */
export function toEntries(grades: readonly QuestionGrade[]): GradingEntry[] {
  return grades.flatMap((g, questionIndex) => {
    if (!g.touched) return [];
    const reason = g.reason?.trim();
    return [
      { questionIndex, points: g.points, feedback: g.feedback, criteria: g.criteria, ...(reason ? { reason } : {}) },
    ];
  });
}

/**
 * The grades after the server's result changed under the page (a test run finished, a save came back): the
 * questions the grader has not touched follow the server; touched ones keep the grader's edits.
 */
export function followServer(current: readonly QuestionGrade[], detail: Pick<ResultDetail, 'questionAnswers'>) {
  const fresh = gradesOf(detail);
  return fresh.map((g, i) => {
    const mine = current[i];
    return mine?.touched ? mine : g;
  });
}

/** Whether a question's tests have set its points, so a grader's different mark must say why. */
export const testsDone = (qa: Pick<QuestionAnswer, 'tests'>) => qa.tests?.state === 'done';

export function withReason(grade: QuestionGrade, reason: string): QuestionGrade {
  return { ...grade, reason, touched: true };
}

/**
 * The reason errors of a refused save, by question: a 400 names `grading.<n>.reason`, n being the entry's
 * position in the body that was sent.
 */
export function reasonErrors(
  issues: ReadonlyArray<{ path: string; message: string }>,
  sent: readonly GradingEntry[],
): Map<number, string> {
  const errors = new Map<number, string>();
  for (const issue of issues) {
    const match = /^(?:body\.)?grading\.(\d+)\.reason$/.exec(issue.path);
    const entry = match ? sent[Number(match[1])] : undefined;
    if (entry) errors.set(entry.questionIndex, issue.message);
  }
  return errors;
}

/** Sets the points (Full marks, Zero, or typed). Setting the points a question already has changes nothing. */
export function setPoints(grade: QuestionGrade, points: number): QuestionGrade {
  if (grade.points === points && grade.touched) return grade;
  return { ...grade, points, criteria: [], touched: true };
}

/** Clear mark: removes the grader's mark explicitly (sent as points: null; the key, or pending, applies again). */
export function clearMark(grade: QuestionGrade): QuestionGrade {
  return { ...grade, points: null, criteria: [], touched: true };
}

export function withFeedback(grade: QuestionGrade, feedback: string): QuestionGrade {
  return { ...grade, feedback, touched: true };
}

/** Ticking rubric criteria: the points are the sum of the ticked criteria. */
export function withCriteria(grade: QuestionGrade, rubric: NonNullable<QuestionAnswer['rubric']>, ticked: string[]) {
  return { ...grade, criteria: ticked, points: rubricPoints(rubric, ticked), touched: true };
}

/** Points typed into the input: 0 to the question's points, at most two decimals; undefined when invalid. */
export function parsePoints(value: string, maxPoints: number): number | undefined {
  if (value.trim() === '') return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || n > maxPoints) return undefined;
  return sumPoints([n]) === n ? n : undefined;
}

/** The grader's controls of one question, applied through `change` (the page's state or its autosave). */
export function markingActionsFor(qa: QuestionAnswer, change: (next: (g: QuestionGrade) => QuestionGrade) => void) {
  return {
    onPoints: (points: number) => change((g) => setPoints(g, points)),
    onClear: () => change(clearMark),
    onCriteria: (ticked: string[]) => change((g) => (qa.rubric ? withCriteria(g, qa.rubric, ticked) : g)),
    onFeedback: (feedback: string) => change((g) => withFeedback(g, feedback)),
    onReason: (reason: string) => change((g) => withReason(g, reason)),
  };
}
