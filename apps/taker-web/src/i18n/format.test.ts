import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { i18n } from './index.ts';
import {
  formatDateTime,
  formatDateTimeWithZone,
  formatFileSize,
  formatMinutes,
  formatNumber,
  formatPercent,
  formatTime,
} from './format.ts';

// A zone without daylight saving, so the offset in the expectations never moves.
const savedTz = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'Asia/Tokyo';
});
afterAll(() => {
  if (savedTz === undefined) delete process.env.TZ;
  else process.env.TZ = savedTz;
});

const instant = '2030-03-04T09:00:00.000Z';

describe('dates and times by language', () => {
  it("writes a date and time the way each language does, in the viewer's zone", () => {
    expect(formatDateTime(instant, 'en')).toMatch(/^Monday, March 4, 2030 at 6:00\sPM$/);
    expect(formatDateTime(instant, 'es')).toBe('lunes, 4 de marzo de 2030, 18:00');
  });

  it('names the zone and its offset after the time', () => {
    expect(formatDateTimeWithZone(instant, 'es')).toBe('lunes, 4 de marzo de 2030, 18:00 (Asia/Tokyo, UTC+09:00)');
  });

  it('gives hours and minutes alone, on each language’s clock', () => {
    expect(formatTime(instant, 'en')).toMatch(/^6:00\sPM$/);
    expect(formatTime(instant, 'es')).toBe('18:00');
  });

  it('returns an empty string for a value that is not a date', () => {
    expect(formatDateTime('not a date', 'en')).toBe('');
    expect(formatDateTimeWithZone('', 'es')).toBe('');
  });

  it('follows the language the page speaks when none is given', async () => {
    await i18n.changeLanguage('es');
    expect(formatDateTime(instant)).toBe('lunes, 4 de marzo de 2030, 18:00');
    expect(formatPercent(50)).toBe('50\u00a0%');
    await i18n.changeLanguage('en');
    expect(formatPercent(50)).toBe('50%');
  });
});

describe('numbers by language', () => {
  it('uses each language’s decimal and grouping marks', () => {
    expect(formatNumber(12345.5, 'en')).toBe('12,345.5');
    expect(formatNumber(12345.5, 'es')).toBe('12.345,5');
    expect(formatNumber(2.345, 'en')).toBe('2.35');
  });

  it('writes a 0–100 percentage with one decimal at most', () => {
    expect(formatPercent((7 / 9) * 100, 'en')).toBe('77.8%');
    expect(formatPercent((7 / 9) * 100, 'es')).toBe('77,8\u00a0%');
    expect(formatPercent(100, 'en')).toBe('100%');
  });

  it('spells minutes out, singular and plural', () => {
    expect(formatMinutes(90, 'en')).toBe('90 minutes');
    expect(formatMinutes(1, 'en')).toBe('1 minute');
    expect(formatMinutes(90, 'es')).toBe('90 minutos');
    expect(formatMinutes(1, 'es')).toBe('1 minuto');
  });

  it('sizes a file in bytes, then kilobytes, megabytes and gigabytes', () => {
    expect(formatFileSize(512, 'en')).toBe('512 B');
    expect(formatFileSize(1536, 'en')).toBe('1.5 kB');
    expect(formatFileSize(1536, 'es')).toBe('1,5 kB');
    expect(formatFileSize(2 * 1024 * 1024, 'es')).toBe('2 MB');
    expect(formatFileSize(3 * 1024 ** 3, 'en')).toBe('3 GB');
    expect(formatFileSize(-5, 'en')).toBe('0 B');
  });
});
