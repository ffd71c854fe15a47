import { afterEach, describe, expect, it } from 'vitest';
import { applyPreferences, DEFAULT_PREFERENCES, readPreferences, savePreferences } from './display-preferences.ts';

const storageWith = (value: string | null) => ({ getItem: () => value });

describe('display preferences', () => {
  afterEach(() => applyPreferences(DEFAULT_PREFERENCES));

  it('reads what was saved, and falls back field by field on anything unknown or unreadable', () => {
    expect(readPreferences(storageWith('{"textSize":"130","theme":"contrast"}'))).toEqual({
      textSize: '130',
      theme: 'contrast',
    });
    expect(readPreferences(storageWith('{"textSize":"400","theme":"dark"}'))).toEqual({
      textSize: '100',
      theme: 'dark',
    });
    expect(readPreferences(storageWith('not json'))).toEqual(DEFAULT_PREFERENCES);
    expect(readPreferences(storageWith('null'))).toEqual(DEFAULT_PREFERENCES);
    expect(readPreferences(storageWith(null))).toEqual(DEFAULT_PREFERENCES);
  });

  it('saves to localStorage and sets the attributes on <html>; the defaults remove them', () => {
    savePreferences({ textSize: '115', theme: 'dark' });
    expect(readPreferences()).toEqual({ textSize: '115', theme: 'dark' });
    expect(document.documentElement.dataset).toMatchObject({ textSize: '115', theme: 'dark' });
    savePreferences(DEFAULT_PREFERENCES);
    expect(document.documentElement).not.toHaveAttribute('data-text-size');
    expect(document.documentElement).not.toHaveAttribute('data-theme');
  });
});
