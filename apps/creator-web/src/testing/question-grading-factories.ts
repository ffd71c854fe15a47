import { answerKeyText, answerText, isAnswered } from '@exam/domain/answer-text';
import { hasAnswerKey, scoreQuestion } from '@exam/domain/grading';
import type { Question } from '@exam/domain/question';
import {
  GradingSuggestionSchema,
  QuestionAgreementSchema,
  QuestionAnswerRowSchema,
  QuestionAnswersSchema,
  SuggestionBatchSchema,
  type GradingSuggestion,
  type QuestionAgreement,
  type QuestionAnswerRow,
  type QuestionAnswers,
  type SuggestionBatch,
} from '@exam/domain/question-grading';

/**
 * Factories for grading by question, each parsed by the domain schema so tests cannot drift from the contract.
 * Rows are numbered in the order given; `groupId` defaults to one group per row.
 */
export function makeAnswerRow(number: number, overrides: Partial<QuestionAnswerRow> = {}): QuestionAnswerRow {
  return QuestionAnswerRowSchema.parse({
    resultId: `result-${number}`,
    number,
    candidate: null,
    answer: `Answer ${number}`,
    file: null,
    fileText: null,
    points: null,
    maxPoints: 4,
    autoScored: false,
    feedback: '',
    criteria: [],
    groupId: `g-${number}`,
    detached: false,
    suggestion: null,
    flagged: false,
    decision: null,
    ...overrides,
  });
}

export function makeSuggestion(resultId: string, overrides: Partial<GradingSuggestion> = {}): GradingSuggestion {
  return GradingSuggestionSchema.parse({
    id: `suggestion-${resultId}`,
    resultId,
    questionIndex: 1,
    points: 3,
    rubric: [],
    rationale: 'The answer names the median and says why it resists outliers.',
    quote: '',
    uncertain: false,
    samplePoints: [3, 3, 3],
    provider: 'openai',
    model: 'gpt-4o-mini',
    createdAt: '2025-01-07T12:00:00.000Z',
    current: true,
    ...overrides,
  });
}

/**
 * GET …/answers of question 2 (index 1), a keyless short answer worth 4 points, with groups derived from the
 * rows' groupIds (the representative answer is the first member's) and progress counted from their points.
 */
export function makeQuestionAnswers(
  rows: QuestionAnswerRow[],
  overrides: Partial<Omit<QuestionAnswers, 'answers' | 'groups' | 'progress'>> = {},
): QuestionAnswers {
  return QuestionAnswersSchema.parse({
    examId: 'exam-qg',
    examTitle: 'Statistics Midterm',
    questionIndex: 1,
    questionCount: 3,
    title: 'Which measure resists outliers?',
    content: 'Name the measure of centre that resists outliers, and say why.',
    type: 'short-answer',
    maxPoints: 4,
    rubric: null,
    humanGraded: true,
    commentBank: [],
    suggestions: {
      available: true,
      reason: null,
      provider: 'openai',
      model: 'gpt-4o-mini',
      budgetTokens: 200_000,
      usedTokens: 1_500,
    },
    ...overrides,
    answers: rows,
    groups: groupsOf(rows),
    progress: progressOf(rows),
  });
}

/**
 * GET …/answers of one question of an exam (the kinds exam of kinds-factories.ts, say), each raw answer written
 * and scored as results-service does (answerText, the key's points, the answer as saved, the candidate's key and a
 * calculated question's values); answers written alike share a group. `question` may be one per answer: each
 * candidate's own question, as a calculated question is (its values and key differ per candidate).
 */
export function makeQuestionAnswersOf(
  examId: string,
  questionIndex: number,
  question: Question | readonly Question[],
  raws: readonly string[],
): QuestionAnswers {
  const questionOf = (i: number): Question => ('type' in question ? question : question[i]!);
  const rows = raws.map((raw, i) => {
    const own = questionOf(i);
    const score = scoreQuestion(own, raw);
    return makeAnswerRow(i + 1, {
      answer: answerText(own, raw),
      answerValue: isAnswered(own, raw) ? raw : null,
      correctAnswer: answerKeyText(own),
      ...(own.type === 'calculated' ? { calculatedValues: own.calculated?.values ?? null } : {}),
      points: score.points,
      maxPoints: own.points,
      autoScored: score.autoScored,
      groupId: `g-${raws.indexOf(raw) + 1}`,
    });
  });
  const first = questionOf(0);
  return makeQuestionAnswers(rows, {
    examId,
    questionIndex,
    title: first.title,
    content: first.content,
    type: first.type,
    maxPoints: first.points,
    humanGraded: !hasAnswerKey(first),
  });
}

export function groupsOf(rows: readonly QuestionAnswerRow[]): QuestionAnswers['groups'] {
  const ids = [...new Set(rows.map((r) => r.groupId))];
  return ids.map((groupId) => {
    const members = rows.filter((r) => r.groupId === groupId);
    return {
      groupId,
      resultIds: members.map((r) => r.resultId).sort(),
      answer: members[0]?.answer ?? '',
      forms: new Set(members.map((r) => r.answer.trim().toLowerCase())).size,
      empty: members.every((r) => r.answer.trim() === ''),
    };
  });
}

export const progressOf = (rows: readonly QuestionAnswerRow[]) => ({
  marked: rows.filter((r) => r.points !== null).length,
  total: rows.length,
});

export function makeBatch(overrides: Partial<SuggestionBatch> = {}): SuggestionBatch {
  return SuggestionBatchSchema.parse({
    id: 'batch-1',
    examId: 'exam-qg',
    questionIndex: 1,
    status: 'running',
    concurrency: 4,
    samples: 3,
    progress: { done: 0, failed: 0, total: 4 },
    cancelRequested: false,
    error: null,
    startedAt: '2025-01-07T12:00:00.000Z',
    finishedAt: null,
    ...overrides,
  });
}

export function makeAgreement(overrides: Partial<QuestionAgreement> = {}): QuestionAgreement {
  return QuestionAgreementSchema.parse({
    questionIndex: 1,
    title: 'Which measure resists outliers?',
    n: 24,
    exactAgreement: 0.75,
    kappa: 0.612,
    weightedKappa: 0.784,
    weightedKappaLow: 0.651,
    weightedKappaHigh: 0.903,
    meanAbsoluteDifference: 0.42,
    notes: {},
    ...overrides,
  });
}
