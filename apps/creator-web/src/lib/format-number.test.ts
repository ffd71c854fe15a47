import { afterEach, describe, expect, it } from 'vitest';
import { changeLanguage } from '../i18n/index.ts';
import { formatCount } from './format-number.ts';

describe('counts in the page’s language', () => {
  afterEach(() => changeLanguage('en'));

  it('groups thousands as English does', () => {
    expect(formatCount(128000)).toBe('128,000');
  });

  it('groups thousands as Spanish does once the page speaks it', async () => {
    await changeLanguage('es');
    expect(formatCount(128000)).toBe('128.000');
  });
});
