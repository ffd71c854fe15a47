/**
 * Instants shown and typed in the viewer's own time zone (exam windows, accommodations): the zone is named
 * next to every time, and a time typed in a date-time field goes to the API as ISO 8601 with its offset.
 */

const pad = (n: number) => String(Math.abs(n)).padStart(2, '0');

/** The browser's IANA time zone, e.g. 'Europe/Berlin'. */
export function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** The local offset from UTC at an instant, as '+01:00' (daylight saving changes it through the year). */
export function localOffset(at: Date): string {
  const minutes = -at.getTimezoneOffset();
  return `${minutes < 0 ? '-' : '+'}${pad(Math.trunc(minutes / 60))}:${pad(minutes % 60)}`;
}

/** 'Europe/Berlin (UTC+01:00)': the zone and its offset at that instant. */
export function zoneLabel(at: Date = new Date()): string {
  return `${localTimeZone()} (UTC${localOffset(at)})`;
}

/** An instant as a datetime-local field shows it ('2026-12-01T09:00'); '' for none or an unreadable value. */
export function toLocalInputValue(iso: string | null | undefined): string {
  if (!iso) return '';
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

/** What a datetime-local field holds, as ISO 8601 with the local offset ('2026-12-01T09:00:00+01:00'); null when empty. */
export function fromLocalInputValue(value: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(value);
  if (!match) return null;
  const [, y, mo, d, h, mi] = match.map(Number) as [number, number, number, number, number, number];
  const at = new Date(y, mo - 1, d, h, mi);
  return `${toLocalInputValue(at.toISOString())}:00${localOffset(at)}`;
}

const dateTimeFormat = () =>
  new Intl.DateTimeFormat('en-US', { dateStyle: 'full', timeStyle: 'short', timeZone: localTimeZone() });

/** 'Tuesday, December 1, 2026 at 9:00 AM' in the viewer's zone; '' for an unreadable value. */
export function formatLocalDateTime(iso: string): string {
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? '' : dateTimeFormat().format(at);
}

/** The date and time with the zone named: 'Tuesday, December 1, 2026 at 9:00 AM (Europe/Berlin, UTC+01:00)'. */
export function formatWithZone(iso: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  return `${formatLocalDateTime(iso)} (${localTimeZone()}, UTC${localOffset(at)})`;
}

/** 'Dec 1, 2026, 09:00' in the viewer's zone, for tables; '' for an unreadable value. */
export function formatLocalShort(iso: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  return new Intl.DateTimeFormat('en-US', {
    dateStyle: 'medium',
    timeStyle: 'short',
    hourCycle: 'h23',
    timeZone: localTimeZone(),
  }).format(at);
}
