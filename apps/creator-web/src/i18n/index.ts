import { createI18n } from '@exam/ui/lib/i18n';
import type { Resource } from 'i18next';
import './types.ts';

/** The creator app speaks English; its text still comes from catalogues so a translation is a new folder. */
export const LANGUAGES = ['en'] as const;

const files = import.meta.glob<{ default: Record<string, unknown> }>('./locales/*/*.json', { eager: true });
export const resources: Resource = {};
for (const [path, module] of Object.entries(files)) {
  const [, language, namespace] = /\.\/locales\/([^/]+)\/([^/]+)\.json$/.exec(path) ?? [];
  if (!language || !namespace) continue;
  (resources[language] ??= {})[namespace] = module.default as Resource[string][string];
}

export const i18n = createI18n({ resources, defaultNS: 'common', languages: LANGUAGES });
