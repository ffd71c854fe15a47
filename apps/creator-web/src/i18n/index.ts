import { createI18n, resourcesFromFiles } from '@exam/ui/lib/i18n';
import type { ResourceLanguage } from 'i18next';
import './types.ts';

/** The creator app's languages: English first (the fallback and the source of every key), then each translation. */
export const LANGUAGES = ['en', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];
/** Each language's name in itself, for the switcher. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', es: 'Español' };

/** Where the creator's choice is remembered (localStorage); signing out keeps it (lib/auth-storage.ts). */
export const LANGUAGE_STORAGE_KEY = 'exam.language';

/**
 * English is bundled with the first script; every other language is a chunk of its own (./languages/<language>.ts),
 * fetched before the first render for a creator who reads it and when a creator switches to it, so an English
 * page never downloads the Spanish catalogues. The candidate app loads its languages the same way.
 */
export const resources = resourcesFromFiles(
  import.meta.glob<{ default: Record<string, unknown> }>('./locales/en/*.json', { eager: true }),
);
const translations = import.meta.glob<{ default: ResourceLanguage }>('./languages/*.ts');

export const i18n = createI18n({
  resources,
  defaultNS: 'common',
  languages: LANGUAGES,
  storageKey: LANGUAGE_STORAGE_KEY,
});

// Screen readers and the browser's own features (hyphenation, spell checking) follow the page's language.
const setDocumentLanguage = (language: string) => {
  if (typeof document !== 'undefined') document.documentElement.lang = language;
};

const loaded = new Map<string, Promise<void>>([['en', Promise.resolve()]]);

/** Fetches a language's catalogues once (English is always there); a language the app lacks resolves at once. */
export function loadLanguage(language: string): Promise<void> {
  const load = translations[`./languages/${language}.ts`];
  if (!load) return Promise.resolve();
  let loading = loaded.get(language);
  if (!loading) {
    loading = load().then(({ default: catalogues }) => {
      for (const [namespace, catalogue] of Object.entries(catalogues)) {
        i18n.addResourceBundle(language, namespace, catalogue, true, true);
      }
      if (i18n.resolvedLanguage === language) setDocumentLanguage(language);
    });
    loaded.set(language, loading);
  }
  return loading;
}

/** Switches the page's language once its catalogues are here, so nothing shows in English on the way. */
export async function changeLanguage(language: string): Promise<void> {
  await loadLanguage(language);
  await i18n.changeLanguage(language);
}

/** The language the page speaks now, for Intl formatting of dates and numbers. */
export const activeLanguage = (): Language => (i18n.resolvedLanguage === 'es' ? 'es' : 'en');

/** Resolves when the language the page opens in (`?lang=`, the remembered choice, the browser's) is loaded. */
export const i18nReady = loadLanguage(i18n.languages?.[0] ?? i18n.resolvedLanguage ?? LANGUAGES[0]);

setDocumentLanguage(i18n.resolvedLanguage ?? LANGUAGES[0]);
i18n.on('languageChanged', setDocumentLanguage);
