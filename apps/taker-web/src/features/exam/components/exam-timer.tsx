import { Clock } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatCountdown } from '../lib/clock.ts';
import { crossedTimerMark } from '../lib/announcements.ts';

/**
 * The countdown. The visible clock is a `timer` (not live: it would be read every second); a separate polite status
 * announces the last minutes (10, 5 and 1 left) once each.
 */
export function ExamTimer({ remaining }: { remaining: number }) {
  const { t } = useTranslation('preferences');
  const [seen, setSeen] = useState(remaining);
  const [announcement, setAnnouncement] = useState('');
  // Adjusted while rendering (React's pattern for state derived from a changing prop), not in an effect.
  if (remaining !== seen) {
    const mark = crossedTimerMark(seen, remaining);
    setSeen(remaining);
    if (mark !== null) setAnnouncement(t('timer.minutesLeft', { count: mark }));
  }
  return (
    <>
      <span
        role="timer"
        aria-label={t('timer.label')}
        className={`inline-flex items-center gap-1 font-mono text-sm font-semibold ${remaining < 60 ? 'text-danger' : 'text-ink'}`}
        data-testid="countdown"
      >
        <Clock aria-hidden className="h-4 w-4" />
        {formatCountdown(remaining)}
      </span>
      <span role="status" className="sr-only" data-testid="timer-announcement">
        {announcement}
      </span>
    </>
  );
}
