import { describe, expect, it } from 'vitest';
import { changeLanguage } from '../i18n/index.ts';
import { formatDate, formatDateTime, formatTime } from './format-date.ts';

describe('the one date format', () => {
  const afternoon = new Date(2025, 0, 5, 14, 30, 7).toISOString();
  const morning = new Date(2025, 0, 4, 9, 5).toISOString();

  it("writes a date as 'MMM d, yyyy'", () => {
    expect(formatDate('2025-01-05T12:00:00.000Z')).toBe('Jan 5, 2025');
  });

  it("writes a date and time as 'MMM d, yyyy HH:mm' in local time on a 24-hour clock", () => {
    expect(formatDateTime(afternoon)).toBe('Jan 5, 2025 14:30');
    expect(formatDateTime(morning)).toBe('Jan 4, 2025 09:05');
  });

  it("writes a clock time as 'HH:mm', or 'HH:mm:ss' when seconds matter", () => {
    expect(formatTime(afternoon)).toBe('14:30');
    expect(formatTime(morning)).toBe('09:05');
    expect(formatTime(afternoon, { seconds: true })).toBe('14:30:07');
    expect(formatTime(new Date(2025, 0, 5, 0, 0).toISOString())).toBe('00:00');
  });

  it("answers 'N/A' for a missing or unparseable value", () => {
    for (const format of [formatDate, formatDateTime, formatTime]) {
      expect(format(null)).toBe('N/A');
      expect(format(undefined)).toBe('N/A');
      expect(format('not a date')).toBe('N/A');
    }
  });

  it('follows the page’s language: day before month in Spanish, the same 24-hour clock', async () => {
    await changeLanguage('es');
    expect(formatDate('2025-01-05T12:00:00.000Z')).toBe('5 ene 2025');
    expect(formatDateTime(afternoon)).toBe('5 ene 2025, 14:30');
    expect(formatTime(afternoon)).toBe('14:30');
    await changeLanguage('en');
    expect(formatDateTime(afternoon)).toBe('Jan 5, 2025 14:30');
  });
});
