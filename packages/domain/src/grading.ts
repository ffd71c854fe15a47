import {
  type Blank,
  type CalculatedSettings,
  type MatchPair,
  type UnitSettings,
  TRUE_FALSE,
  decodeBlanks,
  decodeMatches,
  decodeOrder,
} from './question-kinds.ts';
import { decodeChoices, formatPoints } from './candidate-answers.ts';
export { decodeChoices, encodeChoices, formatPoints } from './candidate-answers.ts';

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
  type:
    | 'mcq'
    | 'short-answer'
    | 'file-upload'
    | 'coding'
    | 'essay'
    | 'true-false'
    | 'ordering'
    | 'matching'
    | 'fill-blanks'
    | 'numeric'
    | 'calculated';
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
  // The further types (question-kinds.ts). Optional so callers holding older shapes still type-check; a missing
  // field reads as the type's empty default (no key: a grader decides).
  items?: string[];
  pairs?: MatchPair[];
  gapText?: string;
  blanks?: Blank[];
  units?: UnitSettings;
  calculated?: CalculatedSettings | null;
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
  /** Scored 0 because the candidate left it unanswered (unanswered.ts), not by a key or a grader. */
  unanswered: boolean;
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
  switch (q.type) {
    case 'mcq':
      return q.multipleAnswers ? q.correctAnswers.length > 0 : Boolean(q.correctAnswer);
    case 'short-answer':
    case 'numeric':
      return q.acceptedAnswers.some((a) => a.trim() !== '');
    case 'true-false':
      return (TRUE_FALSE as readonly (string | undefined)[]).includes(q.correctAnswer);
    case 'ordering':
      return (q.items?.length ?? 0) >= 2;
    case 'matching':
      return (q.pairs?.length ?? 0) > 0;
    case 'fill-blanks':
      return (q.blanks?.length ?? 0) > 0;
    case 'calculated':
      // Only a question instantiated for an attempt (calculated.ts) has its candidate's key.
      return Boolean(q.calculated?.values) && q.acceptedAnswers.some((a) => a.trim() !== '');
    default:
      // Essays, file uploads and coding without tests: a person marks them.
      return false;
  }
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

/** Whether a number is within the tolerance of an expected value (with a hair of slack for binary floating point). */
function withinTolerance(given: number, expected: number, tolerance: NumericTolerance | null): boolean {
  const { tolerance: t, mode } = tolerance ?? { tolerance: 0, mode: 'absolute' };
  const allowed = mode === 'relative' ? t * Math.abs(expected) : t;
  return Math.abs(given - expected) <= allowed + 1e-9 * Math.max(1, Math.abs(expected));
}

/**
 * A quantity as a candidate writes it ("12.5 cm", "12.5cm", "-3e2 m/s", "0.125"), in the unit whose multiplier is
 * 1: the number divided by the named unit's multiplier. A bare number is read in that unit unless units are
 * required; an unknown unit, or a missing one where required, is undefined (no points). Units are matched
 * exactly after trimming, the longest symbol first ("mm" before "m").
 */
export function parseQuantity(answer: string, units: UnitSettings | undefined): number | undefined {
  const value = answer.trim();
  if (value === '') return undefined;
  const known = [...(units?.units ?? [])].sort((a, b) => b.symbol.length - a.symbol.length);
  for (const unit of known) {
    const symbol = unit.symbol.trim();
    if (value.endsWith(symbol)) {
      const n = parseNumber(value.slice(0, value.length - symbol.length));
      if (n !== undefined) return n / unit.multiplier;
    }
  }
  if (units?.required && known.length > 0) return undefined;
  return parseNumber(value);
}

/** Numeric and calculated: the quantity within the tolerance of one of the accepted values. */
export function matchesQuantity(
  answer: string,
  accepted: readonly string[],
  units: UnitSettings | undefined,
  tolerance: NumericTolerance | null,
): boolean {
  const given = parseQuantity(answer, units);
  if (given === undefined) return false;
  return accepted.some((a) => {
    const expected = parseNumber(a);
    return expected !== undefined && withinTolerance(given, expected, tolerance);
  });
}

/** Whether one gap's value is right (BlankSchema's rules). */
export function blankIsRight(blank: Blank, value: string, caseSensitive: boolean): boolean {
  if (value.trim() === '') return false;
  if (blank.kind === 'choice') return blank.accepted.includes(value);
  if (blank.kind === 'numeric')
    return matchesShortAnswer(value, blank.accepted, {
      caseSensitive: false,
      numeric: { tolerance: blank.tolerance, mode: 'absolute' },
    });
  return matchesShortAnswer(value, blank.accepted, { caseSensitive, numeric: null });
}

/**
 * Right or wrong per part of an answer, for the types scored in parts: each gap of a fill-in-the-blanks question,
 * each prompt of a matching question, each neighbouring pair of an ordering question (ORDERING's rule). Null for
 * the other types. The practice check, the review and the grader show these; scoring adds them up.
 */
export function answerParts(q: ScorableQuestion, answer: string | undefined): boolean[] | null {
  if (q.type === 'fill-blanks') {
    const blanks = q.blanks ?? [];
    const values = decodeBlanks(answer, blanks.length);
    return blanks.map((b, i) => blankIsRight(b, values[i]!, q.matching.caseSensitive));
  }
  if (q.type === 'matching') {
    const pairs = q.pairs ?? [];
    const chosen = decodeMatches(answer, pairs.length);
    return pairs.map((p, i) => chosen[i]!.trim() !== '' && chosen[i]!.trim() === p.answer.trim());
  }
  if (q.type === 'ordering') {
    const items = q.items ?? [];
    const given = decodeOrder(answer);
    const position = new Map(given.map((item, i) => [item, i]));
    return items.slice(0, -1).map((item, k) => {
      const at = position.get(item);
      return at !== undefined && given[at + 1] === items[k + 1];
    });
  }
  return null;
}

/** Points for parts right of parts (weights equal unless given), under the question's scoring rule. */
function partsPoints(q: ScorableQuestion, parts: readonly boolean[], weights?: readonly number[]): number {
  if (parts.length === 0) return 0;
  if (q.scoring === 'all-or-nothing') return parts.every(Boolean) ? q.points : 0;
  const weight = (i: number) => weights?.[i] ?? 1;
  const total = parts.reduce((sum, _p, i) => sum + weight(i), 0);
  const right = parts.reduce((sum, p, i) => sum + (p ? weight(i) : 0), 0);
  return total > 0 ? Math.min(q.points, (q.points * right) / total) : 0;
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
  switch (q.type) {
    case 'mcq':
      if (q.multipleAnswers) return scoreChoices(q, decodeChoices(answer));
      return answer !== undefined && answer === q.correctAnswer ? q.points : 0;
    case 'true-false':
      return answer !== undefined && answer === q.correctAnswer ? q.points : 0;
    case 'ordering': {
      const given = decodeOrder(answer);
      const items = q.items ?? [];
      // An answer that is not a rearrangement of exactly the items (a stale or hand-made value) earns nothing.
      const complete = given.length === items.length && items.every((item) => given.includes(item));
      if (!complete) return 0;
      if (q.scoring === 'all-or-nothing') return given.every((item, i) => item === items[i]) ? q.points : 0;
      return partsPoints(q, answerParts(q, answer)!);
    }
    case 'matching':
      return partsPoints(q, answerParts(q, answer)!);
    case 'fill-blanks':
      return partsPoints(
        q,
        answerParts(q, answer)!,
        (q.blanks ?? []).map((b) => b.weight),
      );
    case 'numeric':
    case 'calculated':
      return answer !== undefined && matchesQuantity(answer, q.acceptedAnswers, q.units, q.matching.numeric)
        ? q.points
        : 0;
    default:
      return answer !== undefined && matchesShortAnswer(answer, q.acceptedAnswers, q.matching) ? q.points : 0;
  }
}

/**
 * One question: a grader's mark wins; then an unanswered question the exam scores 0 (`unanswered`, decided by
 * unanswered.ts under the exam's policy); then the tests or the key; without any the question is pending.
 */
export function scoreQuestion(
  q: ScorableQuestion,
  answer: string | undefined,
  mark?: ManualMark,
  tests?: TestsOutcome,
  unanswered = false,
): QuestionScore {
  if (mark) {
    return {
      maxPoints: q.points,
      points: mark.points,
      autoScored: false,
      feedback: mark.feedback,
      criteria: mark.criteria,
      unanswered: false,
    };
  }
  const auto = { maxPoints: q.points, feedback: '', criteria: [] };
  if (unanswered) return { ...auto, points: 0, autoScored: true, unanswered: true };
  if (gradedByTests(q)) {
    const points = tests?.state === 'done' ? Math.min(q.points, passedTestPoints(tests.verdicts)) : null;
    return { ...auto, points, autoScored: points !== null, unanswered: false };
  }
  const points = autoPoints(q, answer);
  return { ...auto, points, autoScored: points !== null, unanswered: false };
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
  opts: {
    released: boolean;
    tests?: ReadonlyMap<number, TestsOutcome>;
    /** Questions scored 0 for being unanswered (unanswered.ts unansweredToZero), by index. */
    unanswered?: ReadonlySet<number>;
  },
): ResultScore {
  const answerAt = (i: number) =>
    Array.isArray(answers) ? answers[i] : (answers as ReadonlyMap<number, string>).get(i);
  const scored = questions.map((q, i) =>
    scoreQuestion(q, answerAt(i), marks.get(i), opts.tests?.get(i), opts.unanswered?.has(i) ?? false),
  );
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

/** The one display rounding of a percentage: one decimal, dropped when zero ("83.3%", "100%"). */
export function formatPercentage(percentage: number): string {
  return `${String(Math.round(percentage * 10) / 10)}%`;
}

/**
 * "7 / 9 points · 77.8%" ("0 / 1 point"), or "awaiting grading" beside the floor when some answer still needs a
 * grader. English: the apps show the same through their catalogues (creator-web's `score.*`); journeys compare with it.
 */
export function formatScore(result: Pick<ResultScore, 'score' | 'maxScore' | 'percentage' | 'status'>): string {
  const points = `${formatPoints(result.score)} / ${formatPoints(result.maxScore)} ${result.maxScore === 1 ? 'point' : 'points'}`;
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
