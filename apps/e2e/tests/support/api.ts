import type { StartAttempt } from '@exam/domain/attempt';
import type { AuthResponse } from '@exam/domain/auth';
import type { CreateExam, Exam, UpdateExam } from '@exam/domain/exam';
import type { GradingEntry, ResultDetail, ResultSummary } from '@exam/domain/result';
import { expect, type APIRequestContext, type APIResponse } from '@playwright/test';
import { E2E } from './env.ts';

/**
 * Setup through the public API, for the steps a journey is not about. Calls go through the web
 * servers' /api proxy, the same path the browsers use. Bodies are typed with the domain's inputs;
 * the service applies the schema defaults.
 */
export type ExamBody = Partial<CreateExam> & { title: string; questions: CreateExam['questions'] };
export type QuestionBody = CreateExam['questions'][number];

async function json<T>(response: APIResponse, what: string): Promise<T> {
  expect(response.ok(), `${what}: ${response.status()} ${await response.text()}`).toBe(true);
  return (await response.json()) as T;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

let counter = 0;
/** A unique address per call, so every test works with an account of its own. */
export function uniqueEmail(label: string): string {
  counter += 1;
  return `${label}-${Date.now().toString(36)}-${process.pid}-${counter}@e2e.test`;
}

export const PASSWORD = 'e2e-secret-pw';

export async function registerCreator(request: APIRequestContext, label = 'creator'): Promise<AuthResponse> {
  const email = uniqueEmail(label);
  const response = await request.post(`${E2E.creatorOrigin}/api/auth/register`, {
    data: { email, password: PASSWORD },
  });
  return json<AuthResponse>(response, 'register');
}

export async function createExam(request: APIRequestContext, token: string, body: ExamBody): Promise<Exam> {
  const response = await request.post(`${E2E.creatorOrigin}/api/exams`, { headers: bearer(token), data: body });
  return (await json<{ exam: Exam }>(response, 'create exam')).exam;
}

export async function updateExam(
  request: APIRequestContext,
  token: string,
  examId: string,
  body: UpdateExam,
): Promise<Exam> {
  const response = await request.put(`${E2E.creatorOrigin}/api/exams/${examId}`, {
    headers: bearer(token),
    data: body,
  });
  return json<Exam>(response, 'update exam');
}

export async function getExam(request: APIRequestContext, token: string, examId: string): Promise<Exam> {
  const response = await request.get(`${E2E.creatorOrigin}/api/exams/${examId}`, { headers: bearer(token) });
  return json<Exam>(response, 'get exam');
}

export async function listExams(request: APIRequestContext, token: string): Promise<Exam[]> {
  const response = await request.get(`${E2E.creatorOrigin}/api/exams/auth_exams`, { headers: bearer(token) });
  return (await json<{ exams: Exam[] }>(response, 'list exams')).exams;
}

/** Publishes (isDraft false starts offline) and, unless told otherwise, switches the exam live. */
export async function publishExam(
  request: APIRequestContext,
  token: string,
  body: ExamBody,
  options: { live?: boolean } = {},
): Promise<Exam> {
  const exam = await createExam(request, token, { ...body, isDraft: false });
  expect(exam.isLive).toBe(false);
  if (options.live === false) return exam;
  return updateExam(request, token, exam.id, { isLive: true });
}

export async function listResults(request: APIRequestContext, token: string): Promise<ResultSummary[]> {
  const response = await request.get(`${E2E.creatorOrigin}/api/results`, { headers: bearer(token) });
  return (await json<{ results: ResultSummary[] }>(response, 'list results')).results;
}

export async function getResult(request: APIRequestContext, token: string, resultId: string): Promise<ResultDetail> {
  const response = await request.get(`${E2E.creatorOrigin}/api/results/${resultId}`, { headers: bearer(token) });
  return json<ResultDetail>(response, 'get result');
}

/** A grader's marks through the API (PATCH /api/results/{id}), for results a journey does not grade on screen. */
export async function gradeResult(
  request: APIRequestContext,
  token: string,
  resultId: string,
  grading: Array<Partial<GradingEntry> & Pick<GradingEntry, 'questionIndex' | 'points'>>,
): Promise<ResultDetail> {
  const response = await request.patch(`${E2E.creatorOrigin}/api/results/${resultId}`, {
    headers: bearer(token),
    data: { grading },
  });
  return json<ResultDetail>(response, 'grade result');
}

export type AttemptState = {
  submittedAt: string | null;
  resultId: string | null;
  deadline: string | null;
  answers: Record<string, { answer: string; seq: number }>;
};

/** What the server holds for an attempt, read with the candidate's own attempt token. */
export async function getAttempt(
  request: APIRequestContext,
  attemptToken: string,
  attemptId: string,
): Promise<AttemptState> {
  const response = await request.get(`${E2E.takerOrigin}/api/attempts/${attemptId}`, { headers: bearer(attemptToken) });
  return json<AttemptState>(response, 'get attempt');
}

export type StartedAttempt = { attemptId: string; token: string; deadline: string | null };
export async function startAttempt(request: APIRequestContext, body: StartAttempt): Promise<StartedAttempt> {
  const response = await request.post(`${E2E.takerOrigin}/api/attempts`, { data: body });
  return json<StartedAttempt>(response, 'start attempt');
}

/** Question factories: ids are unique per exam, everything else as a creator would type it. */
let questionCounter = 0;
const questionId = () => `q-${Date.now().toString(36)}-${(questionCounter += 1)}`;

/** The fields the exam schema defaults (one point, no key, no rubric), so a factory names only what differs. */
type QuestionExtras = Partial<Omit<QuestionBody, 'id' | 'type' | 'title'>>;
const base = (type: QuestionBody['type'], title: string, topic: string): QuestionBody => ({
  id: questionId(),
  type,
  title,
  content: '',
  topic,
  points: 1,
  options: [],
  multipleAnswers: false,
  correctAnswers: [],
  scoring: 'all-or-nothing',
  acceptedAnswers: [],
  matching: { caseSensitive: false, numeric: null },
  rubricId: null,
  poolId: null,
  sectionId: null,
  plantedError: null,
  starterCode: '',
  languages: [],
  starterCodes: {},
  tests: [],
  limits: { cpuSeconds: 2, memoryMb: 256 },
  setupScript: '',
  referenceSolution: '',
  workspaceFile: null,
  feedback: { general: '', correct: '', partial: '', incorrect: '' },
  optionFeedback: [],
  passageId: null,
  essay: { minWords: null, maxWords: null, formatted: false },
  items: [],
  pairs: [],
  distractors: [],
  gapText: '',
  blanks: [],
  units: { units: [], required: false },
  calculated: null,
});

export const question = {
  /** A single-answer MCQ; an empty correctAnswer leaves it without a key (a grader decides). */
  mcq: (
    title: string,
    options: string[],
    correctAnswer: string,
    topic = 'General',
    extras: QuestionExtras = {},
  ): QuestionBody => ({
    ...base('mcq', title, topic),
    options,
    ...(correctAnswer ? { correctAnswer } : {}),
    ...extras,
  }),
  /** The candidate ticks boxes; `correctAnswers` is the key. */
  multipleAnswers: (
    title: string,
    options: string[],
    correctAnswers: string[],
    topic = 'General',
    extras: QuestionExtras = {},
  ): QuestionBody => ({ ...base('mcq', title, topic), options, multipleAnswers: true, correctAnswers, ...extras }),
  shortAnswer: (
    title: string,
    acceptedAnswers: string[],
    topic = 'General',
    extras: QuestionExtras = {},
  ): QuestionBody => ({ ...base('short-answer', title, topic), acceptedAnswers, ...extras }),
  fileUpload: (title: string, topic = 'General', extras: QuestionExtras = {}): QuestionBody => ({
    ...base('file-upload', title, topic),
    ...extras,
  }),
  coding: (title: string, language: QuestionBody['language'] = 'python', topic = 'General'): QuestionBody => ({
    ...base('coding', title, topic),
    language,
  }),
  /** A long answer a grader marks; word limits and the formatted editor as given. */
  essay: (
    title: string,
    essay: Partial<QuestionBody['essay']> = {},
    topic = 'General',
    extras: QuestionExtras = {},
  ): QuestionBody => ({
    ...base('essay', title, topic),
    essay: { minWords: null, maxWords: null, formatted: false, ...essay },
    ...extras,
  }),
  trueFalse: (
    title: string,
    correctAnswer: 'true' | 'false',
    topic = 'General',
    extras: QuestionExtras = {},
  ): QuestionBody => ({ ...base('true-false', title, topic), correctAnswer, ...extras }),
  /** `items` in the right order (the candidate gets them shuffled). */
  ordering: (title: string, items: string[], topic = 'General', extras: QuestionExtras = {}): QuestionBody => ({
    ...base('ordering', title, topic),
    items,
    ...extras,
  }),
  matching: (
    title: string,
    pairs: QuestionBody['pairs'],
    distractors: string[] = [],
    topic = 'General',
    extras: QuestionExtras = {},
  ): QuestionBody => ({ ...base('matching', title, topic), pairs, distractors, ...extras }),
  /** `gapText` with [[1]], [[2]]…, and each gap's key (a text gap unless `kind` says otherwise). */
  fillBlanks: (
    title: string,
    gapText: string,
    blanks: Array<Partial<QuestionBody['blanks'][number]> & { accepted: string[] }>,
    topic = 'General',
    extras: QuestionExtras = {},
  ): QuestionBody => ({
    ...base('fill-blanks', title, topic),
    gapText,
    blanks: blanks.map((b) => ({ kind: 'text', options: [], tolerance: 0, weight: 1, ...b })),
    ...extras,
  }),
  /** The right value in the unit whose multiplier is 1, and the units an answer may name. */
  numeric: (
    title: string,
    value: string,
    units: QuestionBody['units']['units'] = [],
    topic = 'General',
    extras: QuestionExtras = {},
  ): QuestionBody => ({
    ...base('numeric', title, topic),
    acceptedAnswers: [value],
    units: { units, required: false },
    ...extras,
  }),
  /** `{name}` in the title or content shows each candidate's value; the key is the formula on those values. */
  calculated: (
    title: string,
    formula: string,
    variables: Array<Pick<NonNullable<QuestionBody['calculated']>['variables'][number], 'name' | 'min' | 'max'>>,
    topic = 'General',
    extras: QuestionExtras = {},
  ): QuestionBody => ({
    ...base('calculated', title, topic),
    calculated: {
      formula,
      variables: variables.map((v) => ({ decimals: 0, ...v })),
      answerDecimals: null,
      values: null,
    },
    ...extras,
  }),
};

/** Saves one answer with the candidate's attempt token (the taker page's autosave call). */
export async function saveAnswer(
  request: APIRequestContext,
  attempt: StartedAttempt,
  questionIndex: number,
  answer: string,
  seq = 1,
): Promise<void> {
  const response = await request.put(`${E2E.takerOrigin}/api/attempts/${attempt.attemptId}/answers/${questionIndex}`, {
    headers: bearer(attempt.token),
    data: { answer, seq },
  });
  await json<unknown>(response, `save answer ${questionIndex}`);
}

export type SubmittedAttempt = { resultId: string; answered: number; total: number };
export async function submitAttempt(request: APIRequestContext, attempt: StartedAttempt): Promise<SubmittedAttempt> {
  const response = await request.post(`${E2E.takerOrigin}/api/attempts/${attempt.attemptId}/submit`, {
    headers: bearer(attempt.token),
  });
  return json<SubmittedAttempt>(response, 'submit attempt');
}

/** A whole sitting through the API: start, answer question i with answers[i] (null leaves it blank), submit. */
export async function sitExam(
  request: APIRequestContext,
  candidate: StartAttempt,
  answers: Array<string | null>,
): Promise<SubmittedAttempt> {
  const attempt = await startAttempt(request, candidate);
  for (const [index, answer] of answers.entries())
    if (answer !== null) await saveAnswer(request, attempt, index, answer);
  return submitAttempt(request, attempt);
}
