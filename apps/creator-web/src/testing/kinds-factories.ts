import { answerKeyText, answerText, isAnswered } from '@exam/domain/answer-text';
import type { Exam } from '@exam/domain/exam';
import { answerParts, scoreQuestion } from '@exam/domain/grading';
import { QuestionSchema, type Question } from '@exam/domain/question';
import { encodeBlanks, encodeMatches, encodeOrder } from '@exam/domain/question-kinds';
import { ResultDetailSchema, type QuestionAnswer, type ResultDetail } from '@exam/domain/result';
import { makeExam } from './factories.ts';
import { makeQuestionAnswer, makeResultSummary } from './result-factories.ts';

/**
 * An exam with one question of each further type (ordering, matching, fill-in-the-blanks, numeric with units,
 * calculated, true/false, a formatted essay beside a shared passage) and a candidate's result on it. The result's
 * answers, keys, parts and points are what @exam/domain makes of the candidate's raw answers, as results-service
 * does, so a screen test reads them exactly as the server would write them.
 */

export const PASSAGE = {
  id: 'passage-leaf',
  title: 'The leaf',
  content: 'Leaves are **green** because of chlorophyll.',
};

const question = (fields: Record<string, unknown>): Question =>
  QuestionSchema.parse({ id: `q-${String(fields.type)}`, ...fields });

export function makeKindsQuestions(): Question[] {
  return [
    question({
      type: 'ordering',
      title: 'Order the steps',
      points: 3,
      scoring: 'partial',
      items: ['Observe', 'Hypothesise', 'Experiment', 'Conclude'],
    }),
    question({
      type: 'matching',
      title: 'Match the capitals',
      points: 2,
      scoring: 'partial',
      pairs: [
        { prompt: 'France', answer: 'Paris' },
        { prompt: 'Spain', answer: 'Madrid' },
        { prompt: 'Italy', answer: 'Rome' },
      ],
      distractors: ['Lisbon'],
    }),
    question({
      type: 'fill-blanks',
      title: 'Complete the sentence',
      points: 2,
      scoring: 'partial',
      gapText: 'The capital of France is [[1]], of Spain [[2]] and of Italy [[3]].',
      blanks: [{ accepted: ['Paris'] }, { accepted: ['Madrid'] }, { accepted: ['Rome', 'Roma'] }],
    }),
    question({
      type: 'numeric',
      title: 'How long is the rod?',
      points: 1,
      acceptedAnswers: ['0.125'],
      matching: { caseSensitive: false, numeric: { tolerance: 0.01, mode: 'relative' } },
      units: {
        units: [
          { symbol: 'm', multiplier: 1 },
          { symbol: 'cm', multiplier: 100 },
        ],
        required: false,
      },
    }),
    question({
      type: 'calculated',
      title: 'Multiply {a} by {b}',
      points: 1,
      matching: { caseSensitive: false, numeric: { tolerance: 0.01, mode: 'absolute' } },
      calculated: {
        formula: 'a * b',
        variables: [
          { name: 'a', min: 1, max: 10, decimals: 0 },
          { name: 'b', min: 1, max: 10, decimals: 1 },
        ],
      },
    }),
    question({ type: 'true-false', title: 'The sun is a star', points: 1, correctAnswer: 'true' }),
    question({
      type: 'essay',
      title: 'Explain photosynthesis',
      points: 5,
      passageId: PASSAGE.id,
      essay: { minWords: 5, maxWords: 20, formatted: true },
    }),
  ];
}

export function makeKindsExam(overrides: Partial<Exam> = {}): Exam {
  return makeExam({
    id: 'exam-kinds',
    title: 'Every kind of question',
    isDraft: false,
    questions: makeKindsQuestions(),
    passages: [PASSAGE],
    ...overrides,
  });
}

/** The candidate's raw answers, by question (the answer store's strings). */
export const KINDS_ANSWERS = [
  encodeOrder(['Hypothesise', 'Experiment', 'Conclude', 'Observe']),
  encodeMatches(['Paris', 'Lisbon', 'Rome']),
  encodeBlanks(['Paris', 'Barcelona', 'roma']),
  '12.5 cm',
  '12.001',
  'false',
  '**Photosynthesis** turns light, water and air into sugar.',
];

/**
 * The calculated question (a × b) as an attempt given these values holds it: the title filled in, their own key.
 * Other questions are as written.
 */
export function asAttempted(q: Question, values: { a: number; b: number } = { a: 3, b: 4 }): Question {
  if (q.type !== 'calculated' || !q.calculated) return q;
  return {
    ...q,
    title: `Multiply ${values.a} by ${values.b.toFixed(1)}`,
    calculated: { ...q.calculated, values },
    acceptedAnswers: [String(Number((values.a * values.b).toPrecision(12)))],
  };
}

/**
 * One question of the result as results-service writes it from the attempt's question and raw answer. A test of
 * an older server's result (no `answerValue`) sets it to undefined.
 */
export function kindAnswer(q: Question, questionIndex: number, raw: string | undefined): QuestionAnswer {
  const score = scoreQuestion(q, raw);
  return makeQuestionAnswer({
    questionIndex,
    question: q.title,
    content: q.content,
    questionType: q.type,
    // A true/false question's two options, worded as its answer and key read.
    options: q.type === 'true-false' ? ['True', 'False'] : [],
    correctAnswer: answerKeyText(q),
    answer: answerText(q, raw),
    answerValue: raw && isAnswered(q, raw) ? raw : null,
    points: score.points,
    maxPoints: q.points,
    autoScored: score.autoScored,
    isGraded: score.points !== null,
    parts: answerParts(q, raw),
    calculatedValues: q.calculated?.values ?? null,
    passageTitle: q.passageId === PASSAGE.id ? PASSAGE.title : null,
  });
}

export function makeKindsResultDetail(overrides: Partial<ResultDetail> = {}): ResultDetail {
  const questionAnswers = makeKindsQuestions().map((q, i) => kindAnswer(asAttempted(q), i, KINDS_ANSWERS[i]));
  const score = questionAnswers.reduce((sum, qa) => sum + (qa.points ?? 0), 0);
  const maxScore = questionAnswers.reduce((sum, qa) => sum + qa.maxPoints, 0);
  const summary = makeResultSummary({
    examId: 'exam-kinds',
    examTitle: 'Every kind of question',
    score,
    maxScore,
    status: 'pending',
    pendingCount: 1,
    totalQuestions: questionAnswers.length,
    answeredCount: questionAnswers.length,
    ...overrides,
  });
  return ResultDetailSchema.parse({
    ...summary,
    attemptId: 'attempt-kinds',
    questionAnswers,
    events: [],
    workspace_files: {},
    history: [],
    ...overrides,
  });
}
