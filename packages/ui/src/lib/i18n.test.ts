import { describe, expect, it } from 'vitest';
import enUi from '../locales/en/ui.json';
import esUi from '../locales/es/ui.json';
import { compareCatalogues, createI18n, resourcesFromFiles } from './i18n.ts';

describe('compareCatalogues', () => {
  it('names missing and extra keys and changed variables, and accepts plural forms', () => {
    const english = {
      a: 'A {{name}}',
      nested: { b: 'B', count_one: '{{count}} item', count_other: '{{count}} items' },
    };
    const other = { a: 'A {{nom}}', nested: { count_one: '{{count}} x', count_many: '{{count}} y', c: 'C' } };
    expect(compareCatalogues(english, other)).toEqual([
      'a: variables nom instead of name',
      'missing nested.b',
      'extra nested.c',
    ]);
    expect(compareCatalogues(english, english)).toEqual([]);
  });

  it('finds nothing wrong with the shared components’ Spanish catalogue', () => {
    expect(compareCatalogues(enUi, esUi)).toEqual([]);
  });
});

describe('createI18n', () => {
  it('answers in the chosen language and falls back to English for a key a catalogue lacks', async () => {
    const i18n = createI18n({
      resources: {
        en: { app: { hello: 'Hello {{name}}', only: 'English only' } },
        es: { app: { hello: 'Hola {{name}}' } },
      },
      defaultNS: 'app',
      languages: ['en', 'es'],
    });
    expect(i18n.t('hello', { name: 'Ada' })).toBe('Hello Ada');
    await i18n.changeLanguage('es');
    expect(i18n.t('hello', { name: 'Ada' })).toBe('Hola Ada');
    expect(i18n.t('only')).toBe('English only');
  });
});

describe('resourcesFromFiles', () => {
  it('files each catalogue under its language and namespace and ignores other paths', () => {
    const resources = resourcesFromFiles({
      './locales/en/exam.json': { default: { title: 'Exam' } },
      './locales/es/exam.json': { default: { title: 'Examen' } },
      './other/en.json': { default: { stray: 'x' } },
    });
    expect(resources).toEqual({ en: { exam: { title: 'Exam' } }, es: { exam: { title: 'Examen' } } });
  });
});
