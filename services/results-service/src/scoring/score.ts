import { isTestGraded, type TestGrading } from '@exam/domain/coding';
import { isAnswered } from '@exam/domain/answer-text';
import { scoreResult, type ManualMark, type ResultStatus } from '@exam/domain/grading';
import { unansweredToZero } from '@exam/domain/unanswered';
import type { ExamSnapshot } from './snapshot.ts';

/**
 * One question of a result as stored: the answer as submitted and where its points stand. Every score a
 * screen shows is computed from these by scoreAttempt (@exam/domain/grading's scoreResult underneath).
 */
export type StoredGrade = {
  answer: string | null;
  /** null while the question waits for a grader. */
  points: number | null;
  /** The key decided the points. */
  autoScored: boolean;
  /** The grader's feedback; kept when the grader's mark is removed. */
  feedback: string;
  /** Rubric criteria the grader ticked. */
  criteria: string[];
  /** The points are the grader's: a regrade never changes them. */
  manual: boolean;
  /**
   * A coding question graded by tests: its run and, once done, the verdicts that decide its points. Kept
   * through every re-score (grading, regrade, release); only the test-grading job changes it.
   */
  tests?: TestGrading;
  /**
   * Scored 0 because it was left unanswered (@exam/domain/unanswered): automatically under the exam's 'zero'
   * policy, or by a grader's bulk action (then `manual`). A grader's own mark of the question clears it.
   */
  unanswered?: true;
};

/** The test gradings among stored grades, as scoreResult takes them (`opts.tests`). */
export function testOutcomes(grades: ReadonlyArray<StoredGrade | undefined>): Map<number, TestGrading> {
  const tests = new Map<number, TestGrading>();
  grades.forEach((g, i) => {
    if (g?.tests) tests.set(i, g.tests);
  });
  return tests;
}

const EMPTY_GRADE: StoredGrade = {
  answer: null,
  points: null,
  autoScored: false,
  feedback: '',
  criteria: [],
  manual: false,
};

/** What a result row keeps of its score; the percentage is always derived (percentageOf). */
export type ResultTotals = { score: number; maxScore: number; status: ResultStatus; pendingCount: number };

/** score / maxScore × 100, unrounded; 0 for a result worth no points. */
export function percentageOf(score: number, maxScore: number): number {
  return maxScore > 0 ? (score / maxScore) * 100 : 0;
}

/** The grader's marks among stored grades, as scoreResult takes them. */
export function manualMarks(grades: ReadonlyArray<StoredGrade | undefined>): Map<number, ManualMark> {
  const marks = new Map<number, ManualMark>();
  grades.forEach((g, i) => {
    if (g?.manual && g.points !== null) marks.set(i, { points: g.points, feedback: g.feedback, criteria: g.criteria });
  });
  return marks;
}

/**
 * Scores the answers against the snapshot, keeping the grader's marks (and feedback) of `previous`.
 * The one path by which submission, grading, regrade and release compute a result's score and status.
 */
export function scoreAttempt(
  snapshot: Pick<ExamSnapshot, 'questions' | 'unansweredPolicy'>,
  answers: ReadonlyArray<string | null | undefined>,
  previous: ReadonlyArray<StoredGrade | undefined>,
  opts: { released: boolean },
): { grades: StoredGrade[]; totals: ResultTotals } {
  const marks = manualMarks(previous);
  const tests = testOutcomes(previous);
  const unanswered = unansweredToZero(snapshot.questions, answers, snapshot.unansweredPolicy);
  const scored = scoreResult(
    snapshot.questions,
    snapshot.questions.map((_q, i) => answers[i] ?? undefined),
    marks,
    { ...opts, tests, unanswered },
  );
  const grades = scored.questions.map((q, i) => {
    const grade: StoredGrade = {
      answer: answers[i] ?? null,
      points: q.points,
      autoScored: q.autoScored,
      feedback: marks.has(i) ? q.feedback : (previous[i]?.feedback ?? ''),
      criteria: q.criteria,
      manual: marks.has(i),
      // The marker stays on a bulk action's mark; a grader's own entry has dropped it (marks.ts).
      ...(q.unanswered || (marks.has(i) && previous[i]?.unanswered) ? { unanswered: true as const } : {}),
    };
    const run = tests.get(i);
    return run ? { ...grade, tests: run } : grade;
  });
  return {
    grades,
    totals: {
      score: scored.score,
      maxScore: scored.maxScore,
      status: scored.status,
      pendingCount: grades.filter((g) => g.points === null).length,
    },
  };
}

/** A test grading not yet handed to the runner. */
export const QUEUED_TESTS: TestGrading = { state: 'queued', runId: null, verdicts: [] };

/**
 * Scores a submission: the saved answers against the snapshot's keys; the rest waits for a grader.
 * Questions graded by tests start queued (pending) until the test-grading job brings their verdicts.
 */
export function gradeSubmission(snapshot: ExamSnapshot, saved: ReadonlyMap<number, string>) {
  const answers = snapshot.questions.map((_q, i) => saved.get(i));
  const queued = snapshot.questions.map((q) => (isTestGraded(q) ? { ...EMPTY_GRADE, tests: QUEUED_TESTS } : undefined));
  const { grades, totals } = scoreAttempt(snapshot, answers, queued, { released: false });
  const answeredCount = snapshot.questions.filter((q, i) => isAnswered(q, answers[i])).length;
  return { grades, answeredCount, ...totals };
}

/** The parts of a result row that follow its score. */
export type ResultState = ResultTotals & { gradedAt: Date | null; releasedAt: Date | null };

/**
 * A result's state after a re-score (grading, regrade): gradedAt is stamped when the result stops being
 * pending and cleared when it becomes pending again; a result that becomes pending is no longer released,
 * since a candidate is never shown a score that is still moving.
 */
export function nextResultState(
  current: Pick<ResultState, 'status' | 'gradedAt' | 'releasedAt'>,
  totals: ResultTotals,
  now: Date,
): ResultState {
  if (totals.status === 'pending') return { ...totals, gradedAt: null, releasedAt: null };
  return {
    ...totals,
    gradedAt: current.status === 'pending' || !current.gradedAt ? now : current.gradedAt,
    releasedAt: current.releasedAt,
  };
}
