import { useEffect, useState } from 'react';
import { useExamSummary } from './get-exam-summary.ts';
import { nextChangeAt, windowStateAt } from '../lib/exam-window.ts';

/** setTimeout takes at most ~24.8 days; a farther change is re-checked then. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The exam's availability window from its public summary (GET /api/public/exams/{id}) and where it stands
 * now, re-checked the moment it opens or closes. Undefined while loading or when the summary is not there.
 */
export function useExamWindow(examId: string) {
  const summary = useExamSummary(examId);
  const [now, setNow] = useState(() => Date.now());
  const window = summary.data ? { opensAt: summary.data.opensAt, closesAt: summary.data.closesAt } : undefined;
  const next = window ? nextChangeAt(window, now) : null;
  useEffect(() => {
    if (next === null) return;
    const timer = setTimeout(() => setNow(Date.now()), Math.min(MAX_TIMER_MS, Math.max(0, next - Date.now()) + 250));
    return () => clearTimeout(timer);
  }, [next]);
  if (!window) return undefined;
  return { ...window, state: windowStateAt(window, now) };
}
