import { LanguageSelect } from '@exam/ui/language-select';
import { useTranslation } from 'react-i18next';
import { changeLanguage, LANGUAGE_NAMES, LANGUAGES, type Language } from '../i18n/index.ts';

const isLanguage = (value: string | undefined): value is Language => LANGUAGES.includes(value as Language);

/**
 * The creator's choice of language, each language named in itself so a creator who cannot read the current one
 * still finds theirs. i18next's detector remembers it (localStorage) for the next visit; the page re-renders in
 * place, so nothing typed in a form is lost.
 */
export function LanguageSwitcher({ className }: { className?: string }) {
  const { t, i18n } = useTranslation('common');
  const current = isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : LANGUAGES[0];
  return (
    <LanguageSelect
      languages={LANGUAGES}
      names={LANGUAGE_NAMES}
      current={current}
      label={t('language')}
      onChange={(language) => void changeLanguage(language)}
      {...(className ? { className } : {})}
    />
  );
}
