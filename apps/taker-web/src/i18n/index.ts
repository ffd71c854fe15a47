import { createI18n, resourcesFromFiles } from '@exam/ui/lib/i18n';
import type { ResourceLanguage } from 'i18next';
import './types.ts';

/** The candidate app's languages: English first (the fallback), then every complete translation. */
export const LANGUAGES = ['en', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];
/** Each language's name in itself, for the switcher. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', es: 'Español' };

/**
 * English, the fallback, is bundled with the first script (locales/en/<namespace>.json); every other language
 * is a chunk of its own (./languages/<language>.ts), fetched before the first render for a candidate who reads
 * it and when a candidate switches to it, so no page carries the catalogues of languages nobody reads.
 */
// The follow-up room's strings come with its own chunk (features/exam/lib/follow-up-i18n.ts), and the workspace's
// AI note's with the workspace panel's (features/workspace/lib/workspace-ai-i18n.ts), and the further question types'
// with their inputs' chunk (features/exam/lib/question-kinds-i18n.ts), not with every page.
const english = resourcesFromFiles(
  import.meta.glob<{ default: Record<string, unknown> }>(
    [
      './locales/en/*.json',
      '!./locales/en/follow-up.json',
      '!./locales/en/workspace-ai.json',
      '!./locales/en/question-kinds.json',
    ],
    { eager: true },
  ),
);
const translations = import.meta.glob<{ default: ResourceLanguage }>('./languages/*.ts');

export const i18n = createI18n({
  resources: english,
  defaultNS: 'common',
  languages: LANGUAGES,
  storageKey: 'exam.language',
});

// Screen readers and the browser's own features (hyphenation, spell checking) follow the page's language,
// and the tab's title is in it too.
const setDocumentLanguage = (language: string) => {
  if (typeof document === 'undefined') return;
  document.documentElement.lang = language;
  document.title = i18n.t('common:appTitle');
};

/**
 * The language the page opened in or was switched to, told to the web server too (packages/web-server): it sends
 * the prerendered start page, written in English, only to a candidate whose page opens in English.
 */
const rememberForServer = (language: string) => {
  if (typeof document === 'undefined') return;
  document.cookie = `exam.language=${encodeURIComponent(language)}; path=/; max-age=31536000; samesite=lax`;
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

/** Resolves when the language the page opens in (`?lang=`, the remembered choice, the browser's) is loaded. */
export const i18nReady = loadLanguage(i18n.languages?.[0] ?? i18n.resolvedLanguage ?? LANGUAGES[0]);

setDocumentLanguage(i18n.resolvedLanguage ?? LANGUAGES[0]);
rememberForServer(i18n.resolvedLanguage ?? LANGUAGES[0]);
i18n.on('languageChanged', setDocumentLanguage);
i18n.on('languageChanged', rememberForServer);
