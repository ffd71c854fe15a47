import { formatClockTime } from '@exam/ui/lib/format-time';
import { localOffset, localTimeZone } from '@exam/ui/lib/local-time';
import { i18n } from './index.ts';

/**
 * Dates, times and numbers in the candidate's language (ARCHITECTURE.md, "Text and languages"). Each helper
 * takes the language explicitly and defaults to the one the page speaks now; times are in the viewer's zone.
 */
export const activeLanguage = (): string => i18n.resolvedLanguage ?? i18n.language ?? 'en';

const toDate = (value: string | number | Date): Date | null => {
  const at = value instanceof Date ? value : new Date(value);
  return Number.isNaN(at.getTime()) ? null : at;
};

/** 'Monday, March 4, 2030 at 6:00 PM' / 'lunes, 4 de marzo de 2030, 18:00'; '' for an unreadable value. */
export function formatDateTime(
  value: string | number | Date,
  language: string = activeLanguage(),
  options: Intl.DateTimeFormatOptions = { dateStyle: 'full', timeStyle: 'short' },
): string {
  const at = toDate(value);
  return at ? new Intl.DateTimeFormat(language, { timeZone: localTimeZone(), ...options }).format(at) : '';
}

/** The date and time with the zone named, so nobody misreads whose 9 o'clock it is: '… (Asia/Tokyo, UTC+09:00)'. */
export function formatDateTimeWithZone(value: string | number | Date, language: string = activeLanguage()): string {
  const at = toDate(value);
  return at ? `${formatDateTime(at, language)} (${localTimeZone()}, UTC${localOffset(at)})` : '';
}

/**
 * Hours and minutes only: '6:00 PM' / '18:00', by the rule both apps share (packages/ui's format-time: the
 * language's own hour cycle), so the candidate and the examiner read a time alike; '' for an unreadable value.
 */
export function formatTime(value: string | number | Date, language: string = activeLanguage()): string {
  return formatClockTime(value, language) ?? '';
}

/** '1,234.5' / '1234,5' (Spanish groups thousands only from five digits). */
export function formatNumber(
  value: number,
  language: string = activeLanguage(),
  options: Intl.NumberFormatOptions = { maximumFractionDigits: 2 },
): string {
  return new Intl.NumberFormat(language, options).format(value);
}

/** A percentage given as 0–100, one decimal at most: '77.8%' / '77,8 %'. */
export function formatPercent(percentage: number, language: string = activeLanguage()): string {
  return formatNumber(percentage / 100, language, { style: 'percent', maximumFractionDigits: 1 });
}

/** A whole number of minutes as words: '90 minutes' / '90 minutos', '1 minute' / '1 minuto'. */
export function formatMinutes(minutes: number, language: string = activeLanguage()): string {
  return formatNumber(minutes, language, {
    style: 'unit',
    unit: 'minute',
    unitDisplay: 'long',
    maximumFractionDigits: 1,
  });
}

const SIZE_UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;

/** A file's size in the largest unit it fills (1024 steps): '512 B', '1.5 kB' / '1,5 kB', '2 MB'. */
export function formatFileSize(bytes: number, language: string = activeLanguage()): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < SIZE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  // Intl's short byte unit is the word 'byte' in English; 'B' reads the same in both languages.
  if (unit === 0) return `${formatNumber(value, language, { maximumFractionDigits: 0 })} B`;
  return formatNumber(value, language, {
    style: 'unit',
    unit: SIZE_UNITS[unit],
    unitDisplay: 'short',
    maximumFractionDigits: 1,
  });
}
