import { AttemptStateSchema } from '@exam/domain/attempt';
import type { PublicExam } from '@exam/domain/exam';
import { toast } from '@exam/ui/toaster';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { api, paths } from '../../../config/paths.ts';
import { ApiError, apiRequest } from '../../../lib/api-client.ts';
import { getPublicExam } from '../../../lib/exam-api.ts';
import type { CredentialsState, ResultsState } from '../../../lib/navigation-state.ts';
import { loadRuntimeConfig } from '../../../lib/runtime-config.ts';
import { findStoredAttempt, getTakerDb, updateStoredAttempt, type StoredAttempt, type TakerDb } from '../../../lib/taker-db.ts';
import { computeClockOffset } from '../lib/clock.ts';
import { listAnswers, mergeServerAnswers } from '../lib/outbox.ts';
import { requestPreviewToken } from '../lib/preview-token.ts';

export type ExamSession =
  | { status: 'loading' }
  | { status: 'unavailable' }
  | { status: 'ready'; exam: PublicExam; attempt: StoredAttempt | null; db: TakerDb | null; answers: Map<number, string>; clockOffsetMs: number; deadline: string | null };

const PageMessages = { offline: 'This exam is currently offline', notFound: 'Exam not found or is not available' } as const;

type Outcome = ExamSession | { status: 'redirect'; to: string; state?: unknown; toast?: string };

/** Spec section 4 'Exam page load': a missing or offline exam sends the candidate back with a toast. */
function redirectForExamError(error: unknown): Outcome | undefined {
  if (!(error instanceof ApiError)) return undefined;
  if (error.code === 'EXAM_OFFLINE') return { status: 'redirect', to: paths.start, toast: PageMessages.offline };
  if (error.status === 404 || error.status === 400) return { status: 'redirect', to: paths.start, toast: PageMessages.notFound };
  return undefined;
}

async function loadPreview(examId: string): Promise<Outcome> {
  const { creatorOrigin } = await loadRuntimeConfig();
  const token = await requestPreviewToken(creatorOrigin);
  try {
    const exam = await getPublicExam(examId, token);
    return { status: 'ready', exam, attempt: null, db: null, answers: new Map(), clockOffsetMs: 0, deadline: null };
  } catch (error) {
    return redirectForExamError(error) ?? { status: 'unavailable' };
  }
}

async function loadAttempt(examId: string): Promise<Outcome> {
  const db = await getTakerDb();
  const stored = await findStoredAttempt(db, examId);
  let exam: PublicExam;
  try {
    exam = await getPublicExam(examId);
  } catch (error) {
    const redirect = redirectForExamError(error);
    if (redirect) return redirect;
    // The network is down: an attempt already under way goes on with the exam this device kept.
    if (!stored?.exam) return { status: 'unavailable' };
    exam = stored.exam;
  }
  if (!exam.isLive) return { status: 'redirect', to: paths.start, toast: PageMessages.offline };
  if (!stored) {
    const state: CredentialsState = { examId, examTitle: exam.title, fullScreenRequested: exam.fullScreenEnabled };
    return { status: 'redirect', to: paths.credentials, state };
  }
  try {
    const startedAt = Date.now();
    const server = await apiRequest(api.attempt(stored.attemptId), { token: stored.token, schema: AttemptStateSchema });
    const clockOffsetMs = computeClockOffset(server.serverNow, startedAt, Date.now());
    if (server.submittedAt) {
      const result: ResultsState = { answered: Object.values(server.answers).filter((a) => a.answer.trim() !== '').length, total: exam.questions.length, examTitle: exam.title };
      return { status: 'redirect', to: paths.results, state: result };
    }
    const answers = await mergeServerAnswers(db, stored.attemptId, server.answers);
    await updateStoredAttempt(db, examId, { exam, clockOffsetMs, deadline: server.deadline });
    return { status: 'ready', exam, attempt: { ...stored, exam, clockOffsetMs, deadline: server.deadline }, db, answers, clockOffsetMs, deadline: server.deadline };
  } catch (error) {
    if (error instanceof ApiError && !error.isRetryable) {
      // The token or the attempt is gone: the candidate starts again from their details.
      const state: CredentialsState = { examId, examTitle: exam.title, fullScreenRequested: exam.fullScreenEnabled };
      return { status: 'redirect', to: paths.credentials, state };
    }
    const answers = new Map((await listAnswers(db, stored.attemptId)).map((entry) => [entry.questionIndex, entry.answer]));
    return { status: 'ready', exam, attempt: stored, db, answers, clockOffsetMs: stored.clockOffsetMs ?? 0, deadline: stored.deadline };
  }
}

/** Loads the exam and, for a candidate, resumes the attempt this browser holds (issue 3, 'Nothing lost'). */
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
