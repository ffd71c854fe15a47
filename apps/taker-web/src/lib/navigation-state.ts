import { ACCESS_MODES } from '@exam/domain/candidate-views';
import type { AccessMode } from '@exam/domain/cohort';

/** What one taker page hands the next through router state; a reload or a bookmark arrives without it. */
export type CredentialsState = {
  examId: string;
  examTitle: string;
  examUrl?: string;
  fullScreenRequested: boolean;
  /** Who may start (link, access code or roster); absent means the open link. */
  access?: AccessMode;
  /** From a roster candidate's personal link (`/exam/{id}?invite=…`): fills and locks their identity. */
  inviteToken?: string;
  /** From an LMS launch (`/exam/{id}#lti=…`): the signed grant that fixes the candidate's name and ID. */
  ltiGrant?: string;
};
export type ExamState = CredentialsState & { name: string; studentId: string };
/** `attemptId` links the completion page to the released result; a preview has none. */
export type ResultsState = {
  answered: number;
  total: number;
  examTitle?: string;
  attemptId?: string;
  /** Why the exam ended when the candidate did not submit it (the examiner ended it). */
  notice?: string;
  /** A practice exam (docs/product.md#practice-and-review): the completion page offers its review and Try again. */
  practice?: boolean;
};

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

export function readCredentialsState(value: unknown): CredentialsState | undefined {
  if (!isRecord(value) || typeof value.examId !== 'string' || !value.examId) return undefined;
  return {
    examId: value.examId,
    examTitle: typeof value.examTitle === 'string' ? value.examTitle : '',
    examUrl: typeof value.examUrl === 'string' ? value.examUrl : undefined,
    fullScreenRequested: value.fullScreenRequested === true,
    ...(ACCESS_MODES.includes(value.access as AccessMode) && { access: value.access as AccessMode }),
    ...(typeof value.inviteToken === 'string' && value.inviteToken && { inviteToken: value.inviteToken }),
    ...(typeof value.ltiGrant === 'string' && value.ltiGrant && { ltiGrant: value.ltiGrant }),
  };
}

export function readResultsState(value: unknown): ResultsState | undefined {
  if (!isRecord(value) || typeof value.answered !== 'number' || typeof value.total !== 'number') return undefined;
  return {
    answered: value.answered,
    total: value.total,
    examTitle: typeof value.examTitle === 'string' ? value.examTitle : undefined,
    attemptId: typeof value.attemptId === 'string' && value.attemptId ? value.attemptId : undefined,
    notice: typeof value.notice === 'string' && value.notice ? value.notice : undefined,
    ...(value.practice === true && { practice: true }),
  };
}

export function readFullScreenRequested(value: unknown): boolean | undefined {
  return isRecord(value) && typeof value.fullScreenRequested === 'boolean' ? value.fullScreenRequested : undefined;
}
