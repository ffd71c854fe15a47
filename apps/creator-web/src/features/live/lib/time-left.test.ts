import { describe, expect, it } from 'vitest';
import { formatAgo, formatTimeLeft, secondsLeftNow } from './time-left.ts';

describe('time left', () => {
  it('formats minutes and seconds, with hours only when there are some', () => {
    expect(formatTimeLeft(0)).toBe('0:00');
    expect(formatTimeLeft(247)).toBe('4:07');
    expect(formatTimeLeft(3909)).toBe('1:05:09');
    expect(formatTimeLeft(-5)).toBe('0:00');
  });

  it('counts the server figure down by the whole seconds since it arrived, never below zero', () => {
    expect(secondsLeftNow(100, 1_000, 1_999)).toBe(100);
    expect(secondsLeftNow(100, 1_000, 4_000)).toBe(97);
    expect(secondsLeftNow(2, 1_000, 9_000)).toBe(0);
  });

  it('says how long ago the candidate was seen, or a dash when never', () => {
    const now = '2030-01-01T10:00:00.000Z';
    expect(formatAgo(null, now)).toBe('—');
    expect(formatAgo('2030-01-01T09:59:48.000Z', now)).toBe('12 s ago');
    expect(formatAgo('2030-01-01T09:57:00.000Z', now)).toBe('3 min ago');
    expect(formatAgo('2030-01-01T07:30:00.000Z', now)).toBe('2 h ago');
  });
});
