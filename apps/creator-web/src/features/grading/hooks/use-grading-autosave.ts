import type { ResultDetail } from '@exam/domain/result';
import { toast } from '@exam/ui/toaster';
import { useEffect, useRef, useState } from 'react';
import { ApiError, userMessageOf } from '../../../lib/api-client.ts';
import { gradeResult, useGradeResult } from '../api/grade-result.ts';
import { followServer, gradesOf, reasonErrors, toEntries, type QuestionGrade } from '../grading-state.ts';
import { useTranslation } from 'react-i18next';

/** How long the grader waits after the last change before saving. */
export const AUTOSAVE_DELAY_MS = 500;
const MAX_RETRY_DELAY_MS = 30_000;

/** Wait before the n-th retry of a failed save: 1 s, 2 s, 4 s … up to 30 s. */
export function retryDelay(failures: number): number {
  return Math.min(MAX_RETRY_DELAY_MS, 1000 * 2 ** Math.max(0, failures - 1));
}

/**
 * Unsaved grades still go out when the page closes before the timer fires. A save is idempotent (every
 * question is sent), so repeating one that was in flight is harmless.
 */
function useSaveOnLeave(resultId: string, unsavedGrades: QuestionGrade[] | null) {
  const { t } = useTranslation('grading');
  const pending = useRef<{ resultId: string; grades: QuestionGrade[] } | null>(null);
  useEffect(() => {
    pending.current = unsavedGrades ? { resultId, grades: unsavedGrades } : null;
  });
  useEffect(
    () => () => {
      const last = pending.current;
      if (!last) return;
      gradeResult(last.resultId, toEntries(last.grades)).catch((err: unknown) =>
        toast.error(t('useGradingAutosave.yourLastGradingChanges', { message: userMessageOf(err) })),
      );
    },
    [],
  );
}

/**
 * The result page's grades with auto-save: each change is saved 500 ms after the
 * last one; a failed save stays visible and is retried with backoff, and changes still unsaved when
 * the page closes are sent on the way out, so nothing is silently lost.
 */
export function useGradingAutosave(detail: ResultDetail) {
  const mutation = useGradeResult(detail.id);
  const [grades, setGrades] = useState<QuestionGrade[]>(() => gradesOf(detail));
  const [version, setVersion] = useState(0);
  const [savedVersion, setSavedVersion] = useState(0);
  const [saving, setSaving] = useState(false);
  const [failures, setFailures] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Map<number, string>>(() => new Map());
  const unsaved = version !== savedVersion;

  // A test run finishing (the page polls while one is on its way) changes the questions nobody touched here.
  useEffect(() => setGrades((current) => followServer(current, detail)), [detail]);

  const save = async (atVersion: number, snapshot: QuestionGrade[]) => {
    setSaving(true);
    const entries = toEntries(snapshot);
    try {
      await mutation.mutateAsync(entries);
      setSavedVersion(atVersion);
      setFailures(0);
      setError(null);
      setFieldErrors(new Map());
    } catch (err) {
      setFailures((n) => n + 1);
      setError(userMessageOf(err));
      setFieldErrors(err instanceof ApiError ? reasonErrors(err.issues, entries) : new Map());
    } finally {
      setSaving(false);
    }
  };

  useEffect(() => {
    if (!unsaved || saving) return;
    const timer = setTimeout(
      () => void save(version, grades),
      failures === 0 ? AUTOSAVE_DELAY_MS : retryDelay(failures),
    );
    return () => clearTimeout(timer);
    // `save` is recreated each render; the values it reads are the dependencies listed.
  }, [unsaved, saving, version, grades, failures]);

  useSaveOnLeave(detail.id, unsaved ? grades : null);

  return {
    grades,
    unsaved,
    saving,
    error,
    /** The server's field errors of the last refused save, by question (a missing reason). */
    fieldErrors,
    failures,
    change(index: number, next: (g: QuestionGrade) => QuestionGrade) {
      setGrades((current) => current.map((g, i) => (i === index ? next(g) : g)));
      setVersion((v) => v + 1);
    },
    /** Save Grading and Retry: now, without waiting for the timer. */
    saveNow() {
      if (!saving && unsaved) void save(version, grades);
    },
  };
}
