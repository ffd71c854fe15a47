/**
 * The candidate's display preferences: text size and theme, kept in localStorage and applied as data attributes
 * on <html>, where packages/ui/src/styles.css maps them to the root font size and the theme's colour tokens.
 */
export const TEXT_SIZES = ['100', '115', '130'] as const;
export type TextSize = (typeof TEXT_SIZES)[number];
export const THEMES = ['default', 'dark', 'contrast'] as const;
export type Theme = (typeof THEMES)[number];
export type DisplayPreferences = { textSize: TextSize; theme: Theme };

export const DEFAULT_PREFERENCES: DisplayPreferences = { textSize: '100', theme: 'default' };
const STORAGE_KEY = 'exam.display';

const isTextSize = (value: unknown): value is TextSize => TEXT_SIZES.includes(value as TextSize);
const isTheme = (value: unknown): value is Theme => THEMES.includes(value as Theme);

/** What this browser remembers; anything unreadable or unknown falls back to the default, field by field. */
export function readPreferences(storage: Pick<Storage, 'getItem'> = localStorage): DisplayPreferences {
  let stored: Partial<Record<keyof DisplayPreferences, unknown>> = {};
  try {
    stored = (JSON.parse(storage.getItem(STORAGE_KEY) ?? '{}') ?? {}) as typeof stored;
  } catch {
    // A damaged entry is ignored: the page must open whatever is in storage.
  }
  return {
    textSize: isTextSize(stored.textSize) ? stored.textSize : DEFAULT_PREFERENCES.textSize,
    theme: isTheme(stored.theme) ? stored.theme : DEFAULT_PREFERENCES.theme,
  };
}

export function applyPreferences(preferences: DisplayPreferences, root: HTMLElement = document.documentElement): void {
  if (preferences.textSize === DEFAULT_PREFERENCES.textSize) delete root.dataset.textSize;
  else root.dataset.textSize = preferences.textSize;
  if (preferences.theme === DEFAULT_PREFERENCES.theme) delete root.dataset.theme;
  else root.dataset.theme = preferences.theme;
}

export function savePreferences(
  preferences: DisplayPreferences,
  storage: Pick<Storage, 'setItem'> = localStorage,
): void {
  try {
    storage.setItem(STORAGE_KEY, JSON.stringify(preferences));
  } catch {
    // Storage full or blocked (private mode): the choice still applies to this page.
  }
  applyPreferences(preferences);
}
