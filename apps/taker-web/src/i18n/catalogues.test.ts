import { compareCatalogues, resourcesFromFiles } from '@exam/ui/lib/i18n';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from './index.ts';

// Every catalogue file, whichever language chunk the app fetches it in.
const resources = resourcesFromFiles(
  import.meta.glob<{ default: Record<string, unknown> }>('./locales/*/*.json', { eager: true }),
);

type Catalogue = Parameters<typeof compareCatalogues>[0];

describe('the candidate app’s catalogues', () => {
  const english = resources.en as Record<string, Catalogue>;

  it('has every namespace in every language', () => {
    for (const language of LANGUAGES) {
      expect(Object.keys(resources[language] ?? {}).sort(), language).toEqual(Object.keys(english).sort());
    }
  });

  it.each(LANGUAGES.filter((language) => language !== 'en'))(
    'has every English key, with the same variables, in %s',
    (language) => {
      for (const namespace of Object.keys(english)) {
        const other = (resources[language] as Record<string, Catalogue>)[namespace] ?? {};
        expect(compareCatalogues(english[namespace]!, other), `${language}/${namespace}`).toEqual([]);
      }
    },
  );
});

describe('the candidate app’s i18n', () => {
  it('speaks the chosen language and sets the page’s lang', async () => {
    const { i18n } = await import('./index.ts');
    await i18n.changeLanguage('es');
    expect(i18n.t('language')).toBe('Idioma');
    expect(document.documentElement.lang).toBe('es');
    await i18n.changeLanguage('en');
    expect(i18n.t('common:language')).toBe('Language');
    expect(document.documentElement.lang).toBe('en');
  });
});
