import { cn } from '@exam/ui/lib/cn';
import { Languages } from 'lucide-react';
import { useId } from 'react';
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
  const id = useId();
  const current = isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : LANGUAGES[0];
  return (
    <div className={cn('inline-flex items-center gap-1.5 text-sm text-muted', className)}>
      <Languages aria-hidden className="h-4 w-4" />
      <label htmlFor={id} className="sr-only">
        {t('language')}
      </label>
      <select
        id={id}
        value={current}
        onChange={(event) => void changeLanguage(event.target.value)}
        className="rounded-md border border-line bg-surface px-2 py-1 text-sm text-ink focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-100"
      >
        {LANGUAGES.map((language) => (
          <option key={language} value={language} lang={language}>
            {LANGUAGE_NAMES[language]}
          </option>
        ))}
      </select>
    </div>
  );
}
