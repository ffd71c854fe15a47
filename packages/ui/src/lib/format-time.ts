/**
 * The one time-formatting rule of both apps (issue 37: the candidate read "03:27 PM" where the examiner read
 * "15:27"): clock times and date-times through Intl.DateTimeFormat in the page's language, the hour cycle the
 * language's own (English "3:27 PM", Spanish "15:27"), in the viewer's time zone. Nothing here fixes a locale
 * or a 12/24-hour clock; the apps pass their active language. Unreadable values give null, so each app words
 * the gap in its own catalogue.
 * Intl.DateTimeFormat options: https://developer.mozilla.org/en-US/docs/Web/JavaScript/Reference/Global_Objects/Intl/DateTimeFormat/DateTimeFormat
 */
export type Instant = string | number | Date | null | undefined;

export function toInstant(value: Instant): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const at = value instanceof Date ? value : new Date(value);
  return Number.isNaN(at.getTime()) ? null : at;
}

const CLOCK = { hour: 'numeric', minute: '2-digit' } as const;
const DATE = { month: 'short', day: 'numeric', year: 'numeric' } as const;

/** '3:27 PM' / '15:27' ('3:27:05 PM' / '15:27:05' with seconds); null for an unreadable value. */
export function formatClockTime(value: Instant, language: string, opts: { seconds?: boolean } = {}): string | null {
  const at = toInstant(value);
  if (!at) return null;
  return new Intl.DateTimeFormat(language, { ...CLOCK, ...(opts.seconds ? { second: '2-digit' } : {}) }).format(at);
}

/** 'Jan 5, 2025' / '5 ene 2025'; null for an unreadable value. */
export function formatShortDate(value: Instant, language: string): string | null {
  const at = toInstant(value);
  return at ? new Intl.DateTimeFormat(language, DATE).format(at) : null;
}

/**
 * 'Jan 5, 2025, 3:27 PM' / '5 ene 2025, 15:27': the short date and the clock time, in the order and words of the
 * language; null for an unreadable value.
 */
export function formatShortDateTime(value: Instant, language: string): string | null {
  const at = toInstant(value);
  return at ? new Intl.DateTimeFormat(language, { ...DATE, ...CLOCK }).format(at) : null;
}
