import { describe, expect, it } from 'vitest';
import { changeLanguage } from '../i18n/index.ts';
import { formatDate, formatDateTime, formatTime } from './format-date.ts';

describe('the one date format (shared with the candidate app)', () => {
  const afternoon = new Date(2025, 0, 5, 14, 30, 7).toISOString();
  const morning = new Date(2025, 0, 4, 9, 5).toISOString();

  it("writes a date as 'MMM d, yyyy'", () => {
    expect(formatDate('2025-01-05T12:00:00.000Z')).toBe('Jan 5, 2025');
  });

  it('writes a date and time in local time on English’s own 12-hour clock, as the candidate reads it', () => {
    expect(formatDateTime(afternoon)).toBe('Jan 5, 2025, 2:30 PM');
    expect(formatDateTime(morning)).toBe('Jan 4, 2025, 9:05 AM');
  });

  it('writes a clock time, with seconds when they matter', () => {
    expect(formatTime(afternoon)).toBe('2:30 PM');
    expect(formatTime(morning)).toBe('9:05 AM');
    expect(formatTime(afternoon, { seconds: true })).toBe('2:30:07 PM');
    expect(formatTime(new Date(2025, 0, 5, 0, 0).toISOString())).toBe('12:00 AM');
  });

  it("answers the catalogue's 'N/A' for a missing or unparseable value", () => {
    for (const format of [formatDate, formatDateTime, formatTime]) {
      expect(format(null)).toBe('N/A');
      expect(format(undefined)).toBe('N/A');
      expect(format('not a date')).toBe('N/A');
    }
  });

  it('follows the page’s language: day before month and a 24-hour clock in Spanish', async () => {
    await changeLanguage('es');
    expect(formatDate('2025-01-05T12:00:00.000Z')).toBe('5 ene 2025');
    expect(formatDateTime(afternoon)).toBe('5 ene 2025, 14:30');
    expect(formatTime(afternoon)).toBe('14:30');
    expect(formatTime(null)).toBe('N/D');
    await changeLanguage('en');
    expect(formatDateTime(afternoon)).toBe('Jan 5, 2025, 2:30 PM');
  });
});
