import { createI18n, resourcesFromFiles } from '@exam/ui/lib/i18n';
import './types.ts';

/** The candidate app's languages: English first (the fallback), then every complete translation. */
export const LANGUAGES = ['en', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];
/** Each language's name in itself, for the switcher. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', es: 'Español' };

/** Every catalogue under locales/<language>/<namespace>.json, bundled (they are small). */
const files = import.meta.glob<{ default: Record<string, unknown> }>('./locales/*/*.json', { eager: true });
export const resources = resourcesFromFiles(files);

export const i18n = createI18n({ resources, defaultNS: 'common', languages: LANGUAGES, storageKey: 'exam.language' });

// Screen readers and the browser's own features (hyphenation, spell checking) follow the page's language,
// and the tab's title is in it too.
const setDocumentLanguage = (language: string) => {
  if (typeof document === 'undefined') return;
  document.documentElement.lang = language;
  document.title = i18n.t('common:appTitle');
};
setDocumentLanguage(i18n.resolvedLanguage ?? LANGUAGES[0]);
i18n.on('languageChanged', setDocumentLanguage);
