import { describe, expect, it } from 'vitest';
import { formatDateTime, formatDuration, formatHoursMinutes, listScore } from './list-score.ts';

describe('listScore', () => {
  it('shows the stored score when the result is graded, coloured by the 70/50 thresholds', () => {
    expect(listScore({ isGraded: true, score: 70, correctCount: 7, gradedCount: 10 })).toEqual({
      percent: 70,
      text: '70%',
      tone: 'success',
    });
    expect(listScore({ isGraded: true, score: 50, correctCount: 5, gradedCount: 10 })).toEqual({
      percent: 50,
      text: '50%',
      tone: 'warning',
    });
    expect(listScore({ isGraded: true, score: 49, correctCount: 4, gradedCount: 10 }).tone).toBe('danger');
  });

  it('shows the share of graded answers that are correct when grading is partial', () => {
    expect(listScore({ isGraded: false, score: null, correctCount: 2, gradedCount: 3 })).toEqual({
      percent: 67,
      text: '67%',
      tone: 'warning',
    });
  });

  it("shows a gray 'Not Graded' when nothing is graded", () => {
    expect(listScore({ isGraded: false, score: null, correctCount: 0, gradedCount: 0 })).toEqual({
      percent: null,
      text: 'Not Graded',
      tone: 'neutral',
    });
  });
});

describe('time and date formats', () => {
  it('formats durations as Xh Ym or Nm Ss and missing ones as N/A', () => {
    expect(formatHoursMinutes(3 * 3600 + 25 * 60 + 12)).toBe('3h 25m');
    expect(formatHoursMinutes(0)).toBe('N/A');
    expect(formatDuration(125)).toBe('2m 5s');
    expect(formatDuration(7260)).toBe('2h 1m');
  });

  it("formats a timestamp like 'Jan 5, 2025 14:30' in local time", () => {
    expect(formatDateTime(new Date(2025, 0, 5, 14, 30).toISOString())).toBe('Jan 5, 2025 14:30');
    expect(formatDateTime('not a date')).toBe('N/A');
  });
});
