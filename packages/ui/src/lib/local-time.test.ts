import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatWithZone, fromLocalInputValue, localOffset, toLocalInputValue, zoneLabel } from './local-time.ts';

let savedTz: string | undefined;
const useZone = (zone: string) => {
  process.env.TZ = zone;
};

describe('local time', () => {
  beforeEach(() => {
    savedTz = process.env.TZ;
  });
  afterEach(() => {
    if (savedTz === undefined) delete process.env.TZ;
    else process.env.TZ = savedTz;
  });

  it('names the zone with its offset at the instant, summer and winter', () => {
    useZone('Europe/Berlin');
    expect(zoneLabel(new Date('2026-12-01T08:00:00Z'))).toBe('Europe/Berlin (UTC+01:00)');
    expect(zoneLabel(new Date('2026-07-01T08:00:00Z'))).toBe('Europe/Berlin (UTC+02:00)');
    useZone('Asia/Kolkata');
    expect(localOffset(new Date('2026-12-01T08:00:00Z'))).toBe('+05:30');
    useZone('America/St_Johns');
    expect(localOffset(new Date('2026-12-01T08:00:00Z'))).toBe('-03:30');
  });

  it('turns a typed local time into ISO 8601 with the offset, and back', () => {
    useZone('Europe/Berlin');
    expect(fromLocalInputValue('2026-12-01T09:00')).toBe('2026-12-01T09:00:00+01:00');
    expect(fromLocalInputValue('')).toBeNull();
    expect(toLocalInputValue('2026-12-01T08:00:00Z')).toBe('2026-12-01T09:00');
    expect(toLocalInputValue(null)).toBe('');
    useZone('America/New_York');
    expect(fromLocalInputValue('2026-07-04T18:30')).toBe('2026-07-04T18:30:00-04:00');
  });

  it('formats an instant in the zone and names it', () => {
    useZone('Europe/Berlin');
    expect(formatWithZone('2026-12-01T08:00:00Z')).toBe(
      'Tuesday, December 1, 2026 at 9:00 AM (Europe/Berlin, UTC+01:00)',
    );
  });
});
