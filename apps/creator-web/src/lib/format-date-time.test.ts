import { describe, expect, it } from 'vitest';
import { formatDateTime } from './format-date.ts';

describe('formatDateTime', () => {
  it("formats a timestamp like 'Jan 5, 2025 14:30' in local time", () => {
    expect(formatDateTime(new Date(2025, 0, 5, 14, 30).toISOString())).toBe('Jan 5, 2025 14:30');
    expect(formatDateTime('not a date')).toBe('N/A');
  });
});
