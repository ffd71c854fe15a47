import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { saveStateAnnouncement } from '../lib/announcements.ts';
import type { SaveStatus as SaveState } from '../lib/sync.ts';

/**
 * The header's save state. The visible text follows every change and is not a live region (autosave would be
 * read on each keystroke); a polite status says only that the connection was lost, and that it is back.
 */
export function SaveStatusIndicator({ status }: { status: SaveState }) {
  const { t } = useTranslation('preferences');
  const [seen, setSeen] = useState<{ status: SaveState | null; wasOffline: boolean }>({
    status: null,
    wasOffline: false,
  });
  const [announcement, setAnnouncement] = useState('');
  if (status !== seen.status) {
    const next = saveStateAnnouncement(seen.status, status, seen.wasOffline);
    setSeen({ status, wasOffline: next.wasOffline });
    if (next.announce === 'offline') setAnnouncement(t('saveStatus.announceOffline'));
    if (next.announce === 'back-online') setAnnouncement(t('saveStatus.announceBackOnline'));
  }
  return (
    <>
      <span data-testid="save-status" className={`text-xs ${status === 'offline' ? 'text-warning' : 'text-muted'}`}>
        {t(`saveStatus.${status}`)}
      </span>
      <span role="status" className="sr-only" data-testid="save-announcement">
        {announcement}
      </span>
    </>
  );
}
