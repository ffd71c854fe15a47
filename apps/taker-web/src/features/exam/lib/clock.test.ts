import { describe, expect, it } from 'vitest';
import { computeClockOffset, formatCountdown, remainingSeconds } from './clock.ts';

describe('clock', () => {
  it('measures a client clock running 5 s behind the server as +5000 ms', () => {
    const clientStart = Date.parse('2030-01-01T10:00:00.000Z');
    expect(computeClockOffset('2030-01-01T10:00:05.100Z', clientStart, clientStart + 200)).toBe(5000);
  });

  it('shows the same remaining time on two devices whose clocks disagree', () => {
    const deadline = '2030-01-01T11:00:00.000Z';
    const serverNow = Date.parse('2030-01-01T10:30:00.000Z');
    const fastDevice = serverNow + 120_000;
    const slowDevice = serverNow - 45_000;
    expect(remainingSeconds(deadline, serverNow - fastDevice, fastDevice)).toBe(1800);
    expect(remainingSeconds(deadline, serverNow - slowDevice, slowDevice)).toBe(1800);
  });

  it('never returns less than zero after the deadline', () => {
    expect(remainingSeconds('2030-01-01T11:00:00.000Z', 0, Date.parse('2030-01-01T12:00:00.000Z'))).toBe(0);
  });

  it('formats as m:ss with unbounded minutes', () => {
    expect(formatCountdown(0)).toBe('0:00');
    expect(formatCountdown(65)).toBe('1:05');
    expect(formatCountdown(5400)).toBe('90:00');
  });
});
