import { useEffect, useRef, useState } from 'react';
import { remainingSeconds } from '../lib/clock.ts';

/** Remaining seconds to the server's deadline, ticking each second; onExpire fires once at zero. */
export function useCountdown(deadline: string | null, clockOffsetMs: number, onExpire: () => void): number | null {
  const compute = () => (deadline ? remainingSeconds(deadline, clockOffsetMs, Date.now()) : null);
  const [remaining, setRemaining] = useState<number | null>(compute);
  const expireRef = useRef(onExpire);
  const firedRef = useRef(false);

  useEffect(() => {
    expireRef.current = onExpire;
  }, [onExpire]);

  useEffect(() => {
    if (!deadline) return;
    const tick = () => {
      const left = remainingSeconds(deadline, clockOffsetMs, Date.now());
      setRemaining(left);
      if (left === 0 && !firedRef.current) {
        firedRef.current = true;
        expireRef.current();
      }
    };
    tick();
    const timer = setInterval(tick, 1000);
    return () => clearInterval(timer);
  }, [deadline, clockOffsetMs]);

  return remaining;
}
