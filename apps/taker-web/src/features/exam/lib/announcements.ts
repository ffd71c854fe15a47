/**
 * When the exam page speaks to a screen reader on its own (WCAG 2.2.1 and 4.1.3): the countdown warns at a few
 * points before time runs out, never every second, and the save state only when it matters (the connection is
 * lost or is back), never on each keystroke's save.
 */

/** Minutes left at which the timer is announced, each once per crossing. */
export const TIMER_ANNOUNCE_MINUTES = [10, 5, 1] as const;

/**
 * The mark crossed between two readings of the seconds left, or null. A jump past several marks at once (a
 * device waking from sleep) gives the lowest, the one that is true now. A first reading (`previous` null) and time
 * added by the examiner cross nothing.
 */
export function crossedTimerMark(previous: number | null, current: number): number | null {
  if (previous === null || current >= previous) return null;
  const crossed = TIMER_ANNOUNCE_MINUTES.filter((minutes) => previous > minutes * 60 && current <= minutes * 60);
  return crossed.length > 0 ? Math.min(...crossed) : null;
}

export type SaveAnnouncement = 'offline' | 'back-online';

/**
 * What a change of the save state announces: going offline, and the first "saved" after being offline. The
 * saving/saved flicker of ordinary autosave says nothing.
 */
export function saveStateAnnouncement(
  previous: 'saved' | 'saving' | 'offline' | null,
  current: 'saved' | 'saving' | 'offline',
  wasOffline: boolean,
): { announce: SaveAnnouncement | null; wasOffline: boolean } {
  if (current === previous) return { announce: null, wasOffline };
  if (current === 'offline') return { announce: 'offline', wasOffline: true };
  if (current === 'saved' && wasOffline) return { announce: 'back-online', wasOffline: false };
  return { announce: null, wasOffline };
}
