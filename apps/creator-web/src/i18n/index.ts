import { createI18n, resourcesFromFiles } from '@exam/ui/lib/i18n';
import './types.ts';

/** The creator app speaks English; its text still comes from catalogues so a translation is a new folder. */
export const LANGUAGES = ['en'] as const;

const files = import.meta.glob<{ default: Record<string, unknown> }>('./locales/*/*.json', { eager: true });
export const resources = resourcesFromFiles(files);

export const i18n = createI18n({ resources, defaultNS: 'common', languages: LANGUAGES });
