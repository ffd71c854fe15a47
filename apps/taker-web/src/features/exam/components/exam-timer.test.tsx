import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useCountdown } from '../hooks/use-countdown.ts';
import { ExamTimer } from './exam-timer.tsx';

const START = Date.parse('2026-03-02T09:00:00Z');

/** The header's wiring: the countdown hook ticking on the (fake) clock, feeding the timer. */
function Countdown({ deadline }: { deadline: string }) {
  const remaining = useCountdown(deadline, 0, () => {});
  return remaining === null ? null : <ExamTimer remaining={remaining} />;
}

const announcement = () => screen.getByTestId('timer-announcement').textContent;

describe('ExamTimer', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(START);
  });
  afterEach(() => vi.useRealTimers());

  it('announces 10, 5 and 1 minutes left once each, and nothing on the seconds between', () => {
    render(<Countdown deadline={new Date(START + 12 * 60_000).toISOString()} />);
    const timer = screen.getByRole('timer', { name: 'Time remaining' });
    expect(timer).toHaveTextContent('12:00');
    // The clock itself is never a live region; only the status is, and it starts silent.
    expect(timer).not.toHaveAttribute('aria-live');
    expect(screen.getByRole('status')).toBe(screen.getByTestId('timer-announcement'));
    expect(announcement()).toBe('');

    const heard: string[] = [];
    let last = '';
    // Every second of the twelve minutes, noting each change of the announcement.
    for (let second = 0; second < 12 * 60; second++) {
      act(() => vi.advanceTimersByTime(1000));
      const now = announcement() ?? '';
      if (now !== last) heard.push(now);
      last = now;
      if (second === 60) expect(timer).toHaveTextContent('10:59');
    }
    expect(heard).toEqual(['10 minutes left', '5 minutes left', '1 minute left']);
    expect(timer).toHaveTextContent('0:00');
  });

  it('says 10 minutes at the moment 10:00 shows, not before', () => {
    render(<Countdown deadline={new Date(START + 10 * 60_000 + 2000).toISOString()} />);
    act(() => vi.advanceTimersByTime(1000));
    expect(screen.getByRole('timer')).toHaveTextContent('10:01');
    expect(announcement()).toBe('');
    act(() => vi.advanceTimersByTime(1000));
    expect(screen.getByRole('timer')).toHaveTextContent('10:00');
    expect(announcement()).toBe('10 minutes left');
  });

  it('opening the page with 3 minutes left says nothing until the 1-minute mark', () => {
    render(<Countdown deadline={new Date(START + 3 * 60_000).toISOString()} />);
    act(() => vi.advanceTimersByTime(60_000));
    expect(announcement()).toBe('');
    act(() => vi.advanceTimersByTime(60_000));
    expect(announcement()).toBe('1 minute left');
  });

  it('time added by the examiner announces nothing, and the marks count again on the way down', () => {
    const { rerender } = render(<ExamTimer remaining={301} />);
    rerender(<ExamTimer remaining={300} />);
    expect(announcement()).toBe('5 minutes left');
    rerender(<ExamTimer remaining={900} />);
    expect(announcement()).toBe('5 minutes left');
    rerender(<ExamTimer remaining={600} />);
    expect(announcement()).toBe('10 minutes left');
  });
});
