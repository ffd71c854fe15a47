import {
  InsightsReportSchema,
  type InsightsCandidate,
  type InsightsItem,
  type InsightsReport,
} from '@exam/domain/insights';
import type { TranscriptMessage } from '@exam/domain/internal';
import {
  ResultDetailSchema,
  ResultSummarySchema,
  type QuestionAnswer,
  type ResultDetail,
  type ResultSummary,
} from '@exam/domain/result';

let sequence = 0;
const next = (prefix: string) => `${prefix}-${++sequence}`;

/**
 * A result as GET /api/results lists it (parsed by the domain schema so tests cannot drift from it). By
 * default it awaits grading; `score`, `maxScore` and `status` set the rest the way the server derives it.
 */
export function makeResultSummary(overrides: Partial<ResultSummary> = {}): ResultSummary {
  const score = overrides.score ?? 0;
  const maxScore = overrides.maxScore ?? 3;
  const status = overrides.status ?? 'pending';
  return ResultSummarySchema.parse({
    id: next('result'),
    examId: 'exam-1',
    examTitle: 'Algorithms Midterm',
    userName: 'Ada Lovelace',
    studentId: next('S'),
    score,
    maxScore,
    percentage: maxScore > 0 ? (score / maxScore) * 100 : 0,
    status,
    pendingCount: status === 'pending' ? 1 : 0,
    totalQuestions: 3,
    answeredCount: 3,
    isGraded: status !== 'pending',
    releasedAt: status === 'released' ? '2025-01-06T09:00:00.000Z' : null,
    gradedAt: status === 'pending' ? null : '2025-01-06T08:00:00.000Z',
    timeSpent: 754,
    startedAt: '2025-01-05T13:00:00.000Z',
    completedAt: '2025-01-05T14:30:00.000Z',
    attemptNo: 1,
    kept: true,
    ...overrides,
  });
}

export function makeQuestionAnswer(overrides: Partial<QuestionAnswer> & { questionIndex: number }): QuestionAnswer {
  return {
    question: `Question ${overrides.questionIndex + 1}`,
    content: '',
    questionType: 'short-answer',
    options: [],
    correctAnswer: null,
    multipleAnswers: false,
    choices: [],
    answer: 'No answer provided',
    points: null,
    maxPoints: 1,
    autoScored: false,
    isGraded: false,
    feedback: '',
    criteria: [],
    rubric: null,
    parts: null,
    calculatedValues: null,
    passageTitle: null,
    ...overrides,
  };
}

/**
 * GET /api/results/{id}: an MCQ the key scored (1 of 1 pt), a short answer and a file upload awaiting a
 * grader, so the result reads "1 / 3 points · awaiting grading".
 */
export function makeResultDetail(overrides: Partial<ResultDetail> = {}): ResultDetail {
  const summary = makeResultSummary({ score: 1, maxScore: 3, status: 'pending', pendingCount: 2, ...overrides });
  return ResultDetailSchema.parse({
    ...summary,
    attemptId: next('attempt'),
    questionAnswers: [
      makeQuestionAnswer({
        questionIndex: 0,
        question: 'Big-O of binary search',
        questionType: 'mcq',
        options: ['O(n)', 'O(log n)'],
        correctAnswer: 'O(log n)',
        answer: 'O(log n)',
        points: 1,
        autoScored: true,
        isGraded: true,
      }),
      makeQuestionAnswer({ questionIndex: 1, question: 'Explain recursion', answer: 'A function calling itself' }),
      makeQuestionAnswer({
        questionIndex: 2,
        question: 'Upload your report',
        questionType: 'file-upload',
        answer: 'report.pdf',
        file: { fileName: 'report.pdf', size: 2048 },
      }),
    ],
    events: [],
    workspace_files: {},
    history: [],
    ...overrides,
  });
}

export function makeMessage(overrides: Partial<TranscriptMessage> = {}): TranscriptMessage {
  return {
    id: next('msg'),
    role: 'user',
    content: 'Hello',
    questionIndex: null,
    isError: false,
    files: [],
    createdAt: '2025-01-05T14:00:00.000Z',
    ...overrides,
  };
}

export function makeCandidate(index: number, overrides: Partial<InsightsCandidate> = {}): InsightsCandidate {
  const rawScore = 100 - index * 3;
  return {
    resultId: `result-${index}`,
    name: `Candidate ${String(index).padStart(2, '0')}`,
    studentId: `S${String(index).padStart(3, '0')}`,
    startedAt: '2025-01-05T13:00:00.000Z',
    completedAt: '2025-01-05T14:00:00.000Z',
    rank: index,
    correct: rawScore / 10,
    rawScore,
    abilityScore: rawScore - 5,
    abilityTheta: 0.5,
    abilitySe: 0.4,
    reasoning: rawScore - 10,
    timeSpent: 600 + index * 30,
    copyWriting: 0,
    focusPercent: 100,
    blockedPastes: 0,
    badges: { rawScore: index < 5 ? 'above' : index < 15 ? 'in' : 'below', ability: 'in', reasoning: 'in' },
    ability: null,
    reliance: null,
    collaboration: null,
    ...overrides,
  };
}

export function makeItem(questionIndex: number, overrides: Partial<InsightsItem> = {}): InsightsItem {
  return {
    questionIndex,
    topic: 'Sorting',
    type: 'mcq',
    graded: 10,
    facility: 0.7,
    sd: 0.46,
    discriminationIndex: 42.5,
    discriminativeEfficiency: 60,
    effectiveWeight: 33.3,
    randomGuessScore: 0.25,
    raschDifficulty: -0.85,
    raschDifficultySe: 0.3,
    aiReference: 20,
    ...overrides,
  };
}

/** A report as GET /api/exams/{examId}/insights returns it, validated by InsightsReportSchema. */
export function makeInsightsReport(overrides: Partial<InsightsReport> = {}): InsightsReport {
  return InsightsReportSchema.parse({
    cohort: { invited: 25, started: 25, submitted: 23, graded: 20, pending: 3 },
    test: {
      candidates: 23,
      maxScore: 3,
      mean: 61.2,
      median: 66.7,
      sd: 20.1,
      skewness: -0.31,
      kurtosis: -1.2,
      cronbachAlpha: 0.78,
      errorRatio: 46.9,
      standardError: 9.4,
    },
    items: [
      makeItem(0),
      makeItem(1, { topic: 'Graphs' }),
      makeItem(2, { topic: 'Graphs', type: 'file-upload', randomGuessScore: 0 }),
    ],
    candidates: Array.from({ length: 23 }, (_, i) => makeCandidate(i + 1)),
    topics: [
      { topic: 'Sorting', questions: 1, rawScorePercent: 70, abilityPercent: 62, reasoningPercent: 55 },
      { topic: 'Graphs', questions: 2, rawScorePercent: 58, abilityPercent: 49, reasoningPercent: 41 },
    ],
    overall: { questions: 3, rawScorePercent: 61.2, abilityPercent: 55, reasoningPercent: 47.5 },
    integrity: {
      avgTimeToCompleteSeconds: 845,
      focusPercent: 93.4,
      externalPasteBlocked: 4,
      copyWritingPercent: 12.5,
      answersWithheld: 3,
    },
    rasch: { converged: true, iterations: 42, logLikelihood: -120.5, quadraturePoints: 41 },
    reasoningFormula: 'Reasoning = 100 × (sum of credits) ÷ (number of questions).',
    explanations: {
      'item.facility': 'Facility index: the share of candidates who answered correctly.',
      'candidate.rawScore': 'Correct answers as a percentage.',
    },
    reasons: {},
    ...overrides,
  });
}

const uplift = (asked: number, notAsked: number, difference: number | null, caution: string | null = null) => ({
  asked,
  notAsked,
  askedFacility: difference === null ? null : 0.5 + difference / 2,
  notAskedFacility: difference === null ? null : 0.5 - difference / 2,
  difference,
  ciLow: difference === null ? null : difference - 0.2,
  ciHigh: difference === null ? null : difference + 0.2,
  caution,
});

/**
 * A report with every figure the charts draw: the models (chosen 2PL by the likelihood-ratio test), item fit
 * and flags, AI uplift, score groups for the item curves, time per question and assistant use over time.
 */
export function makeChartedInsightsReport(overrides: Partial<InsightsReport> = {}): InsightsReport {
  const base = makeInsightsReport();
  const scoreGroups = [
    { theta: -1.2, n: 8, observed: 0.25 },
    { theta: 0.1, n: 7, observed: 0.57 },
    { theta: 1.3, n: 8, observed: 0.875 },
  ];
  return InsightsReportSchema.parse({
    ...base,
    items: [
      makeItem(0, {
        twoPl: { discrimination: 1.4, difficulty: -0.6, discriminationSe: 0.35, difficultySe: 0.28 },
        fit: { infit: 1.02, outfit: 0.97, flags: [] },
        aiUplift: uplift(6, 17, 0.1),
        scoreGroups,
        time: { medianSeconds: 95, meanSeconds: 110, candidates: 23 },
      }),
      makeItem(1, {
        topic: 'Graphs',
        facility: 0.45,
        discriminationIndex: -12,
        raschDifficulty: 0.4,
        twoPl: { discrimination: -0.3, difficulty: 1.1, discriminationSe: 0.4, difficultySe: 0.9 },
        fit: { infit: 1.45, outfit: 1.62, flags: ['noisy', 'negative-discrimination'] },
        aiUplift: uplift(3, 20, 0.3, 'Only 3 candidates asked about this question.'),
        scoreGroups,
        time: { medianSeconds: 240, meanSeconds: 260, candidates: 23 },
      }),
      makeItem(2, {
        topic: 'Graphs',
        type: 'file-upload',
        randomGuessScore: 0,
        facility: 0.6,
        discriminationIndex: 35,
        raschDifficulty: 0.1,
        twoPl: { discrimination: 0.9, difficulty: 0.2, discriminationSe: 0.3, difficultySe: 0.3 },
        fit: { infit: 0.95, outfit: 0.9, flags: [] },
        aiUplift: uplift(0, 23, null, 'Nobody asked the assistant about this question.'),
        scoreGroups: [],
        time: { medianSeconds: null, meanSeconds: null, candidates: 0 },
      }),
    ],
    candidates: base.candidates.map((c, i) => ({
      ...c,
      abilityTheta: -2 + (i * 4) / 22,
      result: { score: 3, maxScore: 3, percentage: 100 - i * 4, status: 'graded' },
    })),
    model: {
      requested: 'auto',
      chosen: '2pl',
      lrt: { statistic: 9.81, df: 2, p: 0.0074 },
      alpha: 0.05,
      reason: 'The likelihood-ratio test prefers one discrimination per question (p = 0.007 < 0.05).',
      twoPl: { converged: true, iterations: 30, logLikelihood: -110.2, quadraturePoints: 41 },
    },
    aiUplift: {
      overall: uplift(9, 14, 0.12),
      topics: [
        { topic: 'Sorting', ...uplift(6, 17, 0.1) },
        { topic: 'Graphs', ...uplift(4, 19, 0.2) },
      ],
    },
    aiUse: {
      bucketSeconds: 300,
      buckets: [
        { from: 0, messages: 2, candidates: 2 },
        { from: 300, messages: 5, candidates: 4 },
        { from: 600, messages: 1, candidates: 1 },
      ],
    },
    explanations: {
      ...base.explanations,
      'flag.noisy': 'Answers fit the model poorly: check the wording and the key.',
      'flag.negative-discrimination': 'Weaker candidates did better than stronger ones: check the key.',
    },
    ...overrides,
  });
}

/** A candidate's aided/unaided ability as the report gives it: θs with SE 0.4, the gap's interval ± 1.96 × 0.5. */
export function makeAbility(aided: number, unaided: number, flag: 'above' | 'below' | null = null) {
  const estimate = aided - unaided;
  return {
    aided: { theta: aided, se: 0.4 },
    unaided: { theta: unaided, se: 0.4 },
    gap: { estimate, se: 0.5, low: estimate - 0.98, high: estimate + 0.98, flag },
  };
}

/**
 * A report of an exam with a section with the assistant and one without, and planted errors: three candidates with
 * an aided/unaided ability (Bo flagged above), two with reliance cases (Ann adopted a planted error, Bo rejected it).
 */
export function makeAidedInsightsReport(overrides: Partial<InsightsReport> = {}): InsightsReport {
  const ratio = (numerator: number, denominator: number) => ({
    value: denominator === 0 ? null : numerator / denominator,
    numerator,
    denominator,
    ...(denominator === 0 ? { reason: 'No case.' } : {}),
  });
  return makeInsightsReport({
    candidates: [
      makeCandidate(1, {
        name: 'Ann',
        ability: makeAbility(0.5, 0.3),
        reliance: {
          rair: ratio(1, 1),
          rsr: ratio(0, 1),
          errorAdoption: ratio(1, 1),
          cases: 2,
          planted: [{ questionIndex: 4, error: 'Lyon', adopted: true }],
        },
      }),
      makeCandidate(2, {
        name: 'Bo',
        ability: makeAbility(1.2, -1.6, 'above'),
        reliance: {
          rair: ratio(0, 1),
          rsr: ratio(1, 1),
          errorAdoption: ratio(0, 2),
          cases: 3,
          planted: [
            { questionIndex: 4, error: 'Lyon', adopted: false },
            { questionIndex: 5, error: '41', adopted: false },
          ],
        },
      }),
      makeCandidate(3, {
        name: 'Cy',
        ability: makeAbility(-0.2, 0.1),
        reliance: { rair: ratio(0, 0), rsr: ratio(0, 0), errorAdoption: ratio(0, 0), cases: 0, planted: [] },
      }),
    ],
    aidedAbility: {
      available: true,
      reason: null,
      items: { aided: 4, unaided: 4 },
      population: { aided: { mean: 0.4, sd: 0.9 }, unaided: { mean: -0.3, sd: 1 }, correlation: 0.7 },
      gap: {
        mean: 0.9,
        sd: 1.4,
        quantiles: { p5: -0.4, p25: -0.1, p50: 0.2, p75: 1.5, p95: 2.6 },
        reliability: 0.45,
        flagged: { above: 1, below: 0 },
      },
      converged: true,
    },
    reliance: {
      plantedErrors: true,
      pooled: { rair: ratio(1, 2), rsr: ratio(1, 2), errorAdoption: ratio(1, 3), cases: 5 },
      meanOfCandidates: {
        rair: { value: 0.5, candidates: 2 },
        rsr: { value: 0.5, candidates: 2 },
        errorAdoption: { value: 0.5, candidates: 2 },
      },
      plantedByQuestion: [
        { questionIndex: 4, turns: 2, adopted: 1 },
        { questionIndex: 5, turns: 1, adopted: 0 },
      ],
    },
    ...overrides,
  });
}
