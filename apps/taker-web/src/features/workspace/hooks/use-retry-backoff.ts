import { useEffect, useState } from 'react';
import { retryDelayMs } from '../lib/workspace-session.ts';

/**
 * While `waiting`, calls `retry` once after retryDelayMs(failures) and counts the seconds left down for the
 * candidate to see; null when no try is scheduled. A new failure (a higher count) schedules the next, longer wait.
 */
export function useRetryBackoff(waiting: boolean, failures: number, retry: () => void): number | null {
  const [secondsLeft, setSecondsLeft] = useState<number | null>(null);
  useEffect(() => {
    if (!waiting) return;
    const delay = retryDelayMs(failures);
    setSecondsLeft(Math.ceil(delay / 1000));
    const ticker = setInterval(() => setSecondsLeft((left) => (left === null ? null : Math.max(0, left - 1))), 1000);
    const timer = setTimeout(retry, delay);
    return () => {
      clearInterval(ticker);
      clearTimeout(timer);
      setSecondsLeft(null);
    };
  }, [waiting, failures, retry]);
  if (!waiting) return null;
  // The first render after a failure, before the effect has set the count.
  return secondsLeft ?? Math.ceil(retryDelayMs(failures) / 1000);
}
