import type { AttemptState, StartAttemptResponse, SubmitResponse } from './attempt.ts';
import type { FollowUpState } from './follow-up.ts';
import type { CandidateLive } from './live.ts';
import type { PublicExam, PublicExamSummary } from './public-exam.ts';
import type { PublicQuestion } from './question.ts';
import type { SectionState } from './sections.ts';

/**
 * What the candidate's exam page reads from the services, without zod: the services are the authority on these
 * shapes (their responses are checked against the schemas in public-exam.ts, attempt.ts, live.ts …), so the page
 * checks only that a body is the object it expects and fills in the schemas' defaults, which a view cached or
 * snapshotted before a field existed leaves out. candidate-views.test.ts holds every default here to the
 * schemas' own, so the two cannot drift. The exam page shows its first question without zod (bench/README.md,
 * "Page weight").
 */

/** A response body that is not the object the page expects. */
export class ViewShapeError extends Error {}

type Body = Record<string, unknown>;

function body(value: unknown, what: string): Body {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ViewShapeError(`${what} is not an object`);
  }
  return value as Body;
}

function list(value: unknown, what: string): unknown[] {
  if (!Array.isArray(value)) throw new ViewShapeError(`${what} is not a list`);
  return value;
}

/** A schema's `.default()`: applies to an absent (undefined) value only, as zod's does. */
const or = <T>(value: unknown, fallback: T): T => (value === undefined ? fallback : (value as T));

/** Who may start (AccessModeSchema in cohort.ts). */
export const ACCESS_MODES = ['link', 'code', 'roster'] as const;

/** Both pages poll the live state at most this often (live.ts). */
export const LIVE_POLL_MS = 4000;

function codingWorkspace(value: unknown): PublicExam['codingWorkspace'] {
  const workspace = body(value, 'codingWorkspace');
  return {
    ...workspace,
    enabled: or(workspace.enabled, false),
    saveFilesInResults: or(workspace.saveFilesInResults, true),
    workspaceType: or(workspace.workspaceType, 'vscode'),
    allowPackageRegistries: or(workspace.allowPackageRegistries, false),
  };
}

function question(value: unknown): PublicQuestion {
  const q = body(value, 'question');
  return { ...q, multipleAnswers: or(q.multipleAnswers, false), points: or(q.points, 1) } as PublicQuestion;
}

function summaryFields(exam: Body): PublicExamSummary {
  const view: Body = {
    ...exam,
    questionDisplay: or(exam.questionDisplay, 'all'),
    codingWorkspace: codingWorkspace(exam.codingWorkspace),
    aiSettings: body(exam.aiSettings, 'aiSettings'),
    sections: or(exam.sections, []),
    practice: or(exam.practice, false),
  };
  return view as PublicExamSummary;
}

/** GET /api/public/exams/{id} (PublicExamSummarySchema): the exam before an attempt, without its questions. */
export function readPublicExamSummary(payload: unknown): PublicExamSummary {
  const { questions: _questions, passages: _passages, ...exam } = body(payload, 'exam');
  return summaryFields(exam);
}

/** An attempt's or a preview's view of the exam (PublicExamSchema). */
export function readPublicExam(payload: unknown): PublicExam {
  const exam = body(payload, 'exam');
  return {
    ...summaryFields(exam),
    questions: list(exam.questions, 'questions').map(question),
    passages: or(exam.passages, []),
  };
}

/** GET /api/attempts/{id} (AttemptStateSchema). */
export function readAttemptState(payload: unknown): AttemptState {
  const state = body(payload, 'attempt');
  body(state.answers, 'answers');
  return state as AttemptState;
}

/** POST /api/attempts (StartAttemptResponseSchema). */
export function readStartAttemptResponse(payload: unknown): StartAttemptResponse {
  return body(payload, 'attempt') as StartAttemptResponse;
}

/** POST …/submit (SubmitResponseSchema). */
export function readSubmitResponse(payload: unknown): SubmitResponse {
  const response = body(payload, 'submission');
  return { ...response, followUp: or(response.followUp, false) } as SubmitResponse;
}

/** POST …/sections/advance (SectionStateSchema). */
export function readSectionState(payload: unknown): SectionState {
  return body(payload, 'section') as SectionState;
}

/** GET …/live (CandidateLiveSchema). */
export function readCandidateLive(payload: unknown): CandidateLive {
  const live = body(payload, 'live');
  list(live.announcements, 'announcements');
  return live as CandidateLive;
}

/** GET …/follow-up (FollowUpStateSchema). */
export function readFollowUpState(payload: unknown): FollowUpState {
  return body(payload, 'follow-up') as FollowUpState;
}

/** The body of an answer file's upload (UploadResponseSchema). */
export function readUploadResponse(payload: unknown): { questionIndex: number; fileName: string; answer: string } {
  return body(payload, 'upload') as { questionIndex: number; fileName: string; answer: string };
}
