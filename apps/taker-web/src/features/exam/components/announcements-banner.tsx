import type { Announcement } from '@exam/domain/live';
import { Button } from '@exam/ui/button';
import { Megaphone, X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../../i18n/format.ts';

/**
 * The examiner's announcements, above the questions until the candidate dismisses them. The region is
 * polite and always rendered, so a screen reader reads each new announcement once, when it arrives.
 */
export function AnnouncementsBanner({
  announcements,
  onDismiss,
}: {
  announcements: Announcement[];
  onDismiss: (id: string) => void;
}) {
  const { t } = useTranslation('exam');
  return (
    <section aria-label={t('announcements.region')} aria-live="polite" aria-relevant="additions">
      {announcements.length > 0 && (
        <ul className="flex flex-col gap-1 border-b border-sky-200 bg-sky-50 px-4 py-2">
          {announcements.map((a) => (
            <li key={a.id} className="flex items-start gap-3 text-sm text-sky-900" data-testid="announcement">
              <Megaphone aria-hidden className="mt-0.5 h-4 w-4 shrink-0" />
              <p className="min-w-0 flex-1 whitespace-pre-wrap break-words">
                <span className="font-semibold">{t('announcements.heading', { time: formatTime(a.at) })}</span>
                {a.text}
              </p>
              <Button
                variant="ghost"
                size="icon"
                className="h-7 w-7 shrink-0 text-sky-900"
                aria-label={t('announcements.dismiss', { text: a.text.slice(0, 60) })}
                onClick={() => onDismiss(a.id)}
              >
                <X aria-hidden className="h-4 w-4" />
              </Button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
