import { formatClockTime, formatShortDate, formatShortDateTime, type Instant } from '@exam/ui/lib/format-time';
import { activeLanguage, i18n } from '../i18n/index.ts';

/**
 * The creator app's one way of writing an instant: the shared rule of both apps (packages/ui's format-time:
 * Intl in the active language, its own hour cycle, the viewer's time zone), so the examiner reads '3:27 PM'
 * where the candidate does, and '15:27' in Spanish. Every date, date-time and clock time on its pages goes
 * through here. A missing or unparseable value reads the catalogue's "not available", so a bad value never
 * breaks a table.
 */
const notAvailable = () => i18n.t('common:notAvailable');

/** 'Jan 5, 2025' / '5 ene 2025'. */
export function formatDate(value: Instant): string {
  return formatShortDate(value, activeLanguage()) ?? notAvailable();
}

/** 'Jan 5, 2025, 2:30 PM' / '5 ene 2025, 14:30'. */
export function formatDateTime(value: Instant): string {
  return formatShortDateTime(value, activeLanguage()) ?? notAvailable();
}

/**
 * '2:30 PM' / '14:30' (with seconds '2:30:05 PM'): the clock time alone, for moments whose day is plain from the
 * page (the live view of an exam running now, the messages of one attempt).
 */
export function formatTime(value: Instant, opts: { seconds?: boolean } = {}): string {
  return formatClockTime(value, activeLanguage(), opts) ?? notAvailable();
}
