import type { WindowState } from '@exam/domain/cohort';
import { CalendarClock } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { windowMessage } from '../lib/exam-window.ts';

/** The exam's window on the way in: when it opens (start not yet possible), that it closed, or when it closes. */
export function ExamWindowNotice({
  window,
}: {
  window: { opensAt: string | null; closesAt: string | null; state: WindowState } | undefined;
}) {
  // Subscribes to language changes: the message below is written in the page's language.
  useTranslation('start');
  if (!window) return null;
  const message = windowMessage(window, window.state);
  if (!message) return null;
  const blocked = window.state !== 'open';
  return (
    <p
      role={blocked ? 'alert' : 'status'}
      data-testid="exam-window"
      className={
        blocked
          ? 'mt-4 flex gap-2 rounded-md bg-warning/10 p-3 text-sm text-ink'
          : 'mt-4 flex gap-2 rounded-md bg-brand-50 p-3 text-sm text-ink'
      }
    >
      <CalendarClock aria-hidden className="mt-0.5 h-4 w-4 shrink-0" />
      <span>{message}</span>
    </p>
  );
}
