import { describe, expect, it } from 'vitest';
import { formatClockTime, formatShortDate, formatShortDateTime } from './format-time.ts';

// A local instant, so the test reads the same in every time zone the suite runs in.
const AFTERNOON = new Date(2025, 0, 5, 15, 27, 5);
const MORNING = new Date(2025, 0, 5, 9, 5, 0);

describe('one time format for both apps', () => {
  it('follows English’s 12-hour clock, without a leading zero', () => {
    expect(formatClockTime(AFTERNOON, 'en')).toBe('3:27 PM');
    expect(formatClockTime(MORNING, 'en')).toBe('9:05 AM');
    expect(formatClockTime(AFTERNOON, 'en', { seconds: true })).toBe('3:27:05 PM');
  });

  it('follows Spanish’s 24-hour clock', () => {
    expect(formatClockTime(AFTERNOON, 'es')).toBe('15:27');
    expect(formatClockTime(MORNING, 'es')).toBe('9:05');
    expect(formatClockTime(AFTERNOON, 'es', { seconds: true })).toBe('15:27:05');
  });

  it('writes the date and date-time in the order and words of the language', () => {
    expect(formatShortDate(AFTERNOON, 'en')).toBe('Jan 5, 2025');
    expect(formatShortDate(AFTERNOON, 'es')).toBe('5 ene 2025');
    expect(formatShortDateTime(AFTERNOON, 'en')).toBe('Jan 5, 2025, 3:27 PM');
    expect(formatShortDateTime(AFTERNOON, 'es')).toBe('5 ene 2025, 15:27');
  });

  it('gives null for a missing or unreadable value, for the app to word', () => {
    expect(formatClockTime(null, 'en')).toBeNull();
    expect(formatShortDate('not a date', 'en')).toBeNull();
    expect(formatShortDateTime(undefined, 'es')).toBeNull();
  });
});
