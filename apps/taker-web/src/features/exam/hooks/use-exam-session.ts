import { readAttemptState, readFollowUpState } from '@exam/domain/candidate-views';
import { PreviewMessages } from '@exam/domain/candidate-messages';
import type { SectionState } from '@exam/domain/sections';
import type { PublicExam, PublicExamSummary } from '@exam/domain/public-exam';
import { toast } from '@exam/ui/toaster';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { api, paths } from '../../../config/paths.ts';
import { ApiError, apiRequest } from '../../../lib/api-client.ts';
import { getAttemptExam, getPreviewExam, getPublicExam } from '../../../lib/exam-api.ts';
import type { CredentialsState, ResultsState } from '../../../lib/navigation-state.ts';
import {
  findStoredAttempt,
  getTakerDb,
  updateStoredAttempt,
  type StoredAttempt,
  type TakerDb,
} from '../../../lib/taker-db.ts';
import { computeClockOffset } from '../lib/clock.ts';
import { totalQuestions } from '../lib/section-view.ts';
import { listAnswers, mergeServerAnswers } from '../lib/outbox.ts';
import { forgetPreviewToken, takePreviewToken } from '../lib/preview-token.ts';
import { i18n } from '../../../i18n/index.ts';

export type ExamSession =
  | { status: 'loading' }
  | { status: 'unavailable' }
  /** A preview without a valid preview token for this exam: the server showed nothing. */
  | { status: 'refused'; message: string }
  | {
      status: 'ready';
      exam: PublicExam;
      attempt: StoredAttempt | null;
      db: TakerDb | null;
      answers: Map<number, string>;
      clockOffsetMs: number;
      deadline: string | null;
      /** Where the attempt is among the exam's sections; null for an exam without them, and in a preview. */
      section: SectionState | null;
    };

// Said in a toast as the page redirects: in the language the page speaks at that moment.
const PageMessages = {
  get offline() {
    return i18n.t('exam:session.offline');
  },
  get notFound() {
    return i18n.t('exam:session.notFound');
  },
};

type Outcome = ExamSession | { status: 'redirect'; to: string; state?: unknown; toast?: string };

/** On load, a missing or offline exam sends the candidate back to URL entry with a toast. */
function redirectForExamError(error: unknown): Outcome | undefined {
  if (!(error instanceof ApiError)) return undefined;
  if (error.code === 'EXAM_OFFLINE') return { status: 'redirect', to: paths.start, toast: PageMessages.offline };
  if (error.status === 404 || error.status === 400)
    return { status: 'redirect', to: paths.start, toast: PageMessages.notFound };
  return undefined;
}

/**
 * The creator's preview reads the exam with the preview token the creator app put in the link; without
 * one, or when the server refuses it (expired, another exam, not the owner), nothing of the exam is shown.
 */
async function loadPreview(examId: string): Promise<Outcome> {
  const token = takePreviewToken(examId);
  if (!token) return { status: 'refused', message: PreviewMessages.missing };
  try {
    const exam = await getPreviewExam(examId, token);
    return {
      status: 'ready',
      exam,
      attempt: null,
      db: null,
      answers: new Map(),
      clockOffsetMs: 0,
      deadline: null,
      section: null,
    };
  } catch (error) {
    if (error instanceof ApiError && [401, 403, 404].includes(error.status)) {
      forgetPreviewToken(examId);
      return { status: 'refused', message: PreviewMessages.invalid };
    }
    return redirectForExamError(error) ?? { status: 'unavailable' };
  }
}

/**
 * The grant an LMS launch put in the fragment (`#lti=…`: never sent to a server, so never in a log); it travels on
 * to the details page in the router state. It expires within the hour (exam-service's LTI_GRANT_TTL_SECONDS).
 */
function takeLtiGrant(): string | undefined {
  return new URLSearchParams(window.location.hash.replace(/^#/, '')).get('lti') ?? undefined;
}

/** Before this browser holds an attempt the live exam decides: back to start, or on to the details form. */
async function loadWithoutAttempt(examId: string): Promise<Outcome> {
  let exam: PublicExamSummary;
  try {
    exam = await getPublicExam(examId);
  } catch (error) {
    return redirectForExamError(error) ?? { status: 'unavailable' };
  }
  if (!exam.isLive) return { status: 'redirect', to: paths.start, toast: PageMessages.offline };
  const inviteToken = new URLSearchParams(window.location.search).get('invite') ?? undefined;
  const ltiGrant = takeLtiGrant();
  const state: CredentialsState = {
    examId,
    examTitle: exam.title,
    fullScreenRequested: exam.fullScreenEnabled,
    access: exam.access,
    ...(inviteToken && { inviteToken }),
    ...(ltiGrant && { ltiGrant }),
  };
  return { status: 'redirect', to: paths.credentials, state };
}

/** The attempt's state, with the clock offset measured on its own round trip. */
async function fetchAttemptState(stored: StoredAttempt) {
  const startedAt = Date.now();
  const server = readAttemptState(await apiRequest(api.attempt(stored.attemptId), { token: stored.token }));
  return { server, clockOffsetMs: computeClockOffset(server.serverNow, startedAt, Date.now()) };
}

/**
 * A submitted attempt whose follow-up questions are still to come or under way goes back to them (the room reads
 * the same question, draft and deadline). A failed read sends the candidate to the completion page, as before.
 */
async function followUpOpen(stored: StoredAttempt): Promise<boolean> {
  try {
    const { status } = readFollowUpState(await apiRequest(api.followUp(stored.attemptId), { token: stored.token }));
    return status === 'pending' || status === 'asking';
  } catch {
    return false;
  }
}

/** The server will never accept this token for this attempt again (expired, or the attempt is gone). */
const isGone = (result: PromiseSettledResult<unknown>) =>
  result.status === 'rejected' && result.reason instanceof ApiError && !result.reason.isRetryable;

/**
 * Resumes the attempt this browser holds. The questions come from the attempt's own view of the exam
 * (the snapshot that is graded), never from the live exam, so an edit by the creator cannot shift them.
 */
async function loadAttempt(examId: string): Promise<Outcome> {
  const db = await getTakerDb();
  const stored = await findStoredAttempt(db, examId);
  if (!stored) return loadWithoutAttempt(examId);
  const [state, view] = await Promise.allSettled([fetchAttemptState(stored), getAttemptExam(stored)]);
  // The token or the attempt is gone: the candidate starts again from their details.
  if (isGone(state) || isGone(view)) return loadWithoutAttempt(examId);
  // The network is down: an attempt already under way goes on with the exam this device kept.
  const exam = view.status === 'fulfilled' ? view.value : stored.exam;
  if (!exam) return { status: 'unavailable' };
  if (!exam.isLive) return { status: 'redirect', to: paths.start, toast: PageMessages.offline };
  if (state.status === 'rejected') {
    if (view.status === 'fulfilled') await updateStoredAttempt(db, examId, { exam });
    const answers = new Map(
      (await listAnswers(db, stored.attemptId)).map((entry) => [entry.questionIndex, entry.answer]),
    );
    return {
      status: 'ready',
      exam,
      attempt: { ...stored, exam },
      db,
      answers,
      clockOffsetMs: stored.clockOffsetMs ?? 0,
      deadline: stored.deadline,
      section: stored.section ?? null,
    };
  }
  const { server, clockOffsetMs } = state.value;
  if (server.submittedAt) {
    const result: ResultsState = {
      answered: Object.values(server.answers).filter((a) => a.answer.trim() !== '').length,
      total: totalQuestions(exam),
      examTitle: exam.title,
      attemptId: stored.attemptId,
      ...(exam.practice ? { practice: true } : {}),
    };
    const to = (await followUpOpen(stored)) ? paths.followUp(examId) : paths.results;
    return { status: 'redirect', to, state: result };
  }
  const answers = await mergeServerAnswers(db, stored.attemptId, server.answers);
  const kept = {
    exam,
    clockOffsetMs,
    deadline: server.deadline,
    uploadMaxBytes: server.uploadMaxBytes,
    section: server.section ?? null,
  };
  await updateStoredAttempt(db, examId, kept);
  return {
    status: 'ready',
    exam,
    attempt: { ...stored, ...kept },
    db,
    answers,
    clockOffsetMs,
    deadline: server.deadline,
    section: kept.section,
  };
}

/** Loads the exam and, for a candidate, resumes the attempt this browser holds (docs/product.md#sitting-an-exam, 'Nothing lost'). */
export function useExamSession(examId: string, preview: boolean): ExamSession {
  const navigate = useNavigate();
  const [session, setSession] = useState<ExamSession>({ status: 'loading' });
  useEffect(() => {
    let cancelled = false;
    setSession({ status: 'loading' });
    const load = preview ? loadPreview(examId) : loadAttempt(examId);
    load
      .catch((error: unknown) => {
        console.error('Could not load the exam', error);
        return { status: 'unavailable' } as const;
      })
      .then((outcome) => {
        if (cancelled) return;
        if (outcome.status !== 'redirect') return setSession(outcome);
        if (outcome.toast) toast.error(outcome.toast);
        void navigate(outcome.to, { replace: true, state: outcome.state });
      });
    return () => {
      cancelled = true;
    };
  }, [examId, preview, navigate]);
  return session;
}
