/**
 * The one scoring computation (docs/product.md#results-and-grading). results-service runs it on the
 * attempt's snapshot; every screen, the CSV and the candidate's released result show its output. Nothing
 * here rounds: points and percentages are exact numbers, and `formatPoints` / `formatPercentage` round for
 * display only.
 */

export const SCORING_RULES = ['all-or-nothing', 'partial'] as const;
export type ScoringRule = (typeof SCORING_RULES)[number];

export type NumericTolerance = { tolerance: number; mode: 'absolute' | 'relative' };
export type AnswerMatching = { caseSensitive: boolean; numeric: NumericTolerance | null };
export const DEFAULT_MATCHING: AnswerMatching = { caseSensitive: false, numeric: null };

export type RubricCriterion = { id: string; description: string; points: number };
export type Rubric = { id: string; title: string; criteria: RubricCriterion[] };

/** The fields of a question that scoring reads. */
export type ScorableQuestion = {
  type: 'mcq' | 'short-answer' | 'file-upload' | 'coding';
  points: number;
  options: string[];
  correctAnswer?: string | undefined;
  multipleAnswers: boolean;
  correctAnswers: string[];
  scoring: ScoringRule;
  acceptedAnswers: string[];
  matching: AnswerMatching;
  /** Coding: with a language and tests, the runner's verdicts decide the points (coding.ts). */
  language?: string | undefined;
  tests?: ReadonlyArray<{ points: number }>;
};

/**
 * A coding question's test run as scoring reads it: done with a verdict per test, or not (yet). Only a
 * done run gives points; any other state leaves the question to a grader (pending).
 */
export type TestsOutcome = { state: string; verdicts: ReadonlyArray<{ outcome: string; maxPoints: number }> };

/** Whether the question is scored by running its tests. */
export function gradedByTests(q: Pick<ScorableQuestion, 'type' | 'language' | 'tests'>): boolean {
  return q.type === 'coding' && q.language !== undefined && (q.tests?.length ?? 0) > 0;
}

/** Points of the passed tests. */
export function passedTestPoints(verdicts: TestsOutcome['verdicts']): number {
  return sumPoints(verdicts.filter((v) => v.outcome === 'passed').map((v) => v.maxPoints));
}

/** A grader's mark of one question: points given, feedback, and the rubric criteria ticked (if any). */
export type ManualMark = { points: number; feedback: string; criteria: string[] };

export type QuestionScore = {
  maxPoints: number;
  /** null while the question waits for a grader. */
  points: number | null;
  /** True when the key decided the points (and no grader overrode them). */
  autoScored: boolean;
  feedback: string;
  criteria: string[];
};

export const RESULT_STATUSES = ['pending', 'graded', 'released'] as const;
export type ResultStatus = (typeof RESULT_STATUSES)[number];

export type ResultScore = {
  score: number;
  maxScore: number;
  /** score / maxScore × 100, unrounded; 0 for an exam worth no points. */
  percentage: number;
  status: ResultStatus;
  questions: QuestionScore[];
};

/** Whether the question carries a key the server can score by. Without one, a grader decides. */
export function hasAnswerKey(q: ScorableQuestion): boolean {
  if (q.type === 'mcq') return q.multipleAnswers ? q.correctAnswers.length > 0 : Boolean(q.correctAnswer);
  if (q.type === 'short-answer') return q.acceptedAnswers.some((a) => a.trim() !== '');
  return false;
}

/** Trimmed, inner whitespace collapsed to one space, lower-cased unless the question is case-sensitive. */
export function normalizeText(value: string, caseSensitive = false): string {
  const collapsed = value.trim().replace(/\s+/g, ' ');
  return caseSensitive ? collapsed : collapsed.toLowerCase();
}

/** A plain decimal number ("3.14", "-2", "1e-3", "1,000.5"); undefined for anything else. */
export function parseNumber(value: string): number | undefined {
  const cleaned = value.trim().replace(/(?<=\d),(?=\d{3}\b)/g, '');
  if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(cleaned)) return undefined;
  const n = Number(cleaned);
  return Number.isFinite(n) ? n : undefined;
}

/** Whether a candidate's short answer matches one of the accepted answers under the question's matching. */
export function matchesShortAnswer(answer: string, accepted: readonly string[], matching: AnswerMatching): boolean {
  if (answer.trim() === '') return false;
  if (matching.numeric) {
    const given = parseNumber(answer);
    if (given === undefined) return false;
    const { tolerance, mode } = matching.numeric;
    return accepted.some((a) => {
      const expected = parseNumber(a);
      if (expected === undefined) return false;
      const allowed = mode === 'relative' ? tolerance * Math.abs(expected) : tolerance;
      // A hair of slack for binary floating point (0.1 + 0.2 against 0.3 with tolerance 0).
      return Math.abs(given - expected) <= allowed + 1e-9 * Math.max(1, Math.abs(expected));
    });
  }
  const given = normalizeText(answer, matching.caseSensitive);
  return accepted.some((a) => a.trim() !== '' && normalizeText(a, matching.caseSensitive) === given);
}

/** A multiple-answer MCQ answer travels as a JSON array of option texts; a single answer as the option text. */
export function encodeChoices(choices: readonly string[]): string {
  return JSON.stringify([...choices]);
}

export function decodeChoices(answer: string | undefined): string[] {
  if (!answer) return [];
  try {
    const parsed: unknown = JSON.parse(answer);
    if (Array.isArray(parsed)) return [...new Set(parsed.filter((c): c is string => typeof c === 'string'))];
  } catch {
    // A single choice stored as plain text (an answer saved before the question allowed several).
  }
  return [answer];
}

/**
 * Multiple-answer MCQ. All-or-nothing: full points for exactly the right set. Partial: each right tick earns
 * points / |correct|, each wrong tick takes the same away, never below 0 (the rule Canvas documents for
 * "multiple answers" questions with partial credit).
 */
export function scoreChoices(q: ScorableQuestion, chosen: readonly string[]): number {
  const correct = new Set(q.correctAnswers);
  const right = chosen.filter((c) => correct.has(c)).length;
  const wrong = chosen.length - right;
  if (q.scoring === 'all-or-nothing') return right === correct.size && wrong === 0 ? q.points : 0;
  const perTick = q.points / correct.size;
  return Math.max(0, Math.min(q.points, (right - wrong) * perTick));
}

/** Points the key gives an answer, or null when the question has no key (a grader decides). */
export function autoPoints(q: ScorableQuestion, answer: string | undefined): number | null {
  if (!hasAnswerKey(q)) return null;
  if (q.type === 'mcq') {
    if (q.multipleAnswers) return scoreChoices(q, decodeChoices(answer));
    return answer !== undefined && answer === q.correctAnswer ? q.points : 0;
  }
  return answer !== undefined && matchesShortAnswer(answer, q.acceptedAnswers, q.matching) ? q.points : 0;
}

/** One question: a grader's mark wins over the key; without either the question is pending. */
export function scoreQuestion(
  q: ScorableQuestion,
  answer: string | undefined,
  mark?: ManualMark,
  tests?: TestsOutcome,
): QuestionScore {
  if (mark) {
    return {
      maxPoints: q.points,
      points: mark.points,
      autoScored: false,
      feedback: mark.feedback,
      criteria: mark.criteria,
    };
  }
  if (gradedByTests(q)) {
    const points = tests?.state === 'done' ? Math.min(q.points, passedTestPoints(tests.verdicts)) : null;
    return { maxPoints: q.points, points, autoScored: points !== null, feedback: '', criteria: [] };
  }
  const points = autoPoints(q, answer);
  return { maxPoints: q.points, points, autoScored: points !== null, feedback: '', criteria: [] };
}

/**
 * The result of an attempt: points earned, points possible, the exact percentage and the status. Pending
 * answers count toward maxScore but not score, so a pending result's percentage is a floor; screens show
 * the status beside it.
 */
export function scoreResult(
  questions: readonly ScorableQuestion[],
  answers: ReadonlyMap<number, string> | ReadonlyArray<string | undefined>,
  marks: ReadonlyMap<number, ManualMark>,
  opts: { released: boolean; tests?: ReadonlyMap<number, TestsOutcome> },
): ResultScore {
  const answerAt = (i: number) =>
    Array.isArray(answers) ? answers[i] : (answers as ReadonlyMap<number, string>).get(i);
  const scored = questions.map((q, i) => scoreQuestion(q, answerAt(i), marks.get(i), opts.tests?.get(i)));
  const score = sumPoints(scored.map((s) => s.points ?? 0));
  const maxScore = sumPoints(scored.map((s) => s.maxPoints));
  const pending = scored.some((s) => s.points === null);
  return {
    score,
    maxScore,
    percentage: maxScore > 0 ? (score / maxScore) * 100 : 0,
    status: pending ? 'pending' : opts.released ? 'released' : 'graded',
    questions: scored,
  };
}

/** Sums points kept to hundredths, so 0.1 + 0.2 is 0.3 and totals compare exactly. */
export function sumPoints(values: readonly number[]): number {
  return Math.round(values.reduce((sum, v) => sum + v * 100, 0)) / 100;
}

/** The rubric's points for the criteria a grader ticked. */
export function rubricPoints(rubric: Rubric, ticked: readonly string[]): number {
  const chosen = new Set(ticked);
  return sumPoints(rubric.criteria.filter((c) => chosen.has(c.id)).map((c) => c.points));
}

/** Points as people read them: up to two decimals, no trailing zeros ("2", "2.5", "0.33"). */
export function formatPoints(points: number): string {
  return String(Math.round(points * 100) / 100);
}

/** The one display rounding of a percentage: one decimal, dropped when zero ("83.3%", "100%"). */
export function formatPercentage(percentage: number): string {
  return `${String(Math.round(percentage * 10) / 10)}%`;
}

/** "7 / 9 pts · 77.8%", or "awaiting grading" beside the floor when some answer still needs a grader. */
export function formatScore(result: Pick<ResultScore, 'score' | 'maxScore' | 'percentage' | 'status'>): string {
  const points = `${formatPoints(result.score)} / ${formatPoints(result.maxScore)} pts`;
  return result.status === 'pending'
    ? `${points} · awaiting grading`
    : `${points} · ${formatPercentage(result.percentage)}`;
}

/** The one time-spent format: "42s", "4m 05s", "1h 02m". */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = s % 60;
  if (h > 0) return `${h}h ${String(m).padStart(2, '0')}m`;
  if (m > 0) return `${m}m ${String(rest).padStart(2, '0')}s`;
  return `${rest}s`;
}
