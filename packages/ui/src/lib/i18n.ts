import i18next, { type i18n as I18n, type Resource } from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';
import enUi from '../locales/en/ui.json';
import esUi from '../locales/es/ui.json';
import './i18n-types.ts';

/** The shared components' own catalogue, merged into every app's resources under the `ui` namespace. */
const uiResources: Record<string, { ui: typeof enUi }> = { en: { ui: enUi }, es: { ui: esUi } };

export type CreateI18nOptions = {
  /** Per language, per namespace: the app's catalogues. English is the fallback for every key. */
  resources: Resource;
  defaultNS: string;
  /** Languages a user may choose; the first is the default. */
  languages: readonly string[];
  /** Where the chosen language is remembered (localStorage); unset: the app speaks its first language only. */
  storageKey?: string;
};

/**
 * One i18next instance per app, initialised synchronously from bundled catalogues (no flash of keys).
 * With a storage key the language is picked from `?lang=`, then the remembered choice, then the browser.
 */
export function createI18n({ resources, defaultNS, languages, storageKey }: CreateI18nOptions): I18n {
  const instance = i18next.createInstance();
  const merged: Resource = {};
  for (const language of languages) {
    merged[language] = { ...(uiResources[language] ?? uiResources.en), ...resources[language] };
  }
  if (storageKey) instance.use(LanguageDetector);
  instance.use(initReactI18next);
  void instance.init({
    resources: merged,
    defaultNS,
    ns: Object.keys(merged[languages[0]!] ?? {}),
    fallbackLng: languages[0],
    supportedLngs: [...languages],
    nonExplicitSupportedLngs: true,
    load: 'languageOnly',
    initAsync: false,
    returnNull: false,
    // React escapes what it renders.
    interpolation: { escapeValue: false },
    ...(storageKey
      ? {
          detection: {
            order: ['querystring', 'localStorage', 'navigator'],
            lookupQuerystring: 'lang',
            lookupLocalStorage: storageKey,
            caches: ['localStorage'],
          },
        }
      : { lng: languages[0] }),
  });
  return instance;
}

/**
 * Resources from an app's catalogue files (locales/<language>/<namespace>.json) as Vite's eager
 * `import.meta.glob` returns them; the glob itself must be written in the app for Vite to bundle the files.
 */
export function resourcesFromFiles(files: Record<string, { default: Record<string, unknown> }>): Resource {
  const resources: Resource = {};
  for (const [path, module] of Object.entries(files)) {
    const [, language, namespace] = /locales\/([^/]+)\/([^/]+)\.json$/.exec(path) ?? [];
    if (!language || !namespace) continue;
    (resources[language] ??= {})[namespace] = module.default as Resource[string][string];
  }
  return resources;
}

type Catalogue = { [key: string]: string | Catalogue };

/** Every key of a catalogue as a dotted path, with the `{{variables}}` its text uses. */
export function catalogueKeys(catalogue: Catalogue, prefix = ''): Map<string, string[]> {
  const keys = new Map<string, string[]>();
  for (const [key, value] of Object.entries(catalogue)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') {
      keys.set(path, [...value.matchAll(/\{\{\s*(\w+)/g)].map((match) => match[1]!).sort());
    } else {
      for (const [inner, variables] of catalogueKeys(value, path)) keys.set(inner, variables);
    }
  }
  return keys;
}

/**
 * What a translation gets wrong against English: keys it lacks, keys English does not have, and keys whose
 * interpolation variables differ. Plural forms (`_one`, `_other`, `_many`…) are compared by their base key.
 */
export function compareCatalogues(english: Catalogue, other: Catalogue): string[] {
  const base = (key: string) => key.replace(/_(zero|one|two|few|many|other)$/, '');
  const group = (keys: Map<string, string[]>) => {
    const grouped = new Map<string, Set<string>>();
    for (const [key, variables] of keys) {
      const set = grouped.get(base(key)) ?? new Set<string>();
      for (const variable of variables) set.add(variable);
      grouped.set(base(key), set);
    }
    return grouped;
  };
  const en = group(catalogueKeys(english));
  const them = group(catalogueKeys(other));
  const problems: string[] = [];
  for (const [key, variables] of en) {
    const theirs = them.get(key);
    if (!theirs) problems.push(`missing ${key}`);
    else if ([...variables].sort().join() !== [...theirs].sort().join()) {
      problems.push(`${key}: variables ${[...theirs].sort().join()} instead of ${[...variables].sort().join()}`);
    }
  }
  for (const key of them.keys()) if (!en.has(key)) problems.push(`extra ${key}`);
  return problems;
}
