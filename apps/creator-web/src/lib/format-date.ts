import { activeLanguage } from '../i18n/index.ts';

/**
 * The creator app's one way of writing an instant (the spec's 'MMM d, yyyy' and 'MMM d, yyyy HH:mm' in English,
 * the same fields in the order and words of the active language otherwise), in the viewer's time zone with a
 * 24-hour clock. Every date, date-time and clock time on its pages goes through
 * here, so two screens never show the same moment two ways. A missing or unparseable value reads 'N/A', so a
 * bad value never breaks a table.
 */
const DATE = { month: 'short', day: 'numeric', year: 'numeric' } as const;
const CLOCK = { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' } as const;

// Made per call, not once at load: the viewer's zone and the page's language are read each time.
const locale = () => (activeLanguage() === 'en' ? 'en-US' : activeLanguage());
const dateFormat = () => new Intl.DateTimeFormat(locale(), DATE);
const dateTimeFormat = () => new Intl.DateTimeFormat(locale(), { ...DATE, ...CLOCK });
const clockFormat = () => new Intl.DateTimeFormat('en-US', CLOCK);
const clockWithSecondsFormat = () => new Intl.DateTimeFormat('en-US', { ...CLOCK, second: '2-digit' });

function parse(value: string | null | undefined): Date | undefined {
  if (!value) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

const partsOf = (format: Intl.DateTimeFormat, date: Date) =>
  Object.fromEntries(format.formatToParts(date).map((p) => [p.type, p.value]));

/** 'Jan 5, 2025'. */
export function formatDate(value: string | null | undefined): string {
  const date = parse(value);
  return date ? dateFormat().format(date) : 'N/A';
}

/** 'Jan 5, 2025 14:30'. */
export function formatDateTime(value: string | null | undefined): string {
  const date = parse(value);
  if (!date) return 'N/A';
  // Intl's English puts 'at' or a comma before the time; the spec's English form has neither.
  if (activeLanguage() !== 'en') return dateTimeFormat().format(date);
  const parts = partsOf(dateTimeFormat(), date);
  return `${parts.month} ${parts.day}, ${parts.year} ${parts.hour}:${parts.minute}`;
}

/**
 * '14:30' (or '14:30:05' with seconds): the clock time alone, for moments whose day is plain from the page
 * (the live view of an exam running now, the messages of one attempt).
 */
export function formatTime(value: string | null | undefined, opts: { seconds?: boolean } = {}): string {
  const date = parse(value);
  if (!date) return 'N/A';
  const parts = partsOf(opts.seconds ? clockWithSecondsFormat() : clockFormat(), date);
  return opts.seconds ? `${parts.hour}:${parts.minute}:${parts.second}` : `${parts.hour}:${parts.minute}`;
}
