import { Languages } from 'lucide-react';
import { useId } from 'react';
import { cn } from './lib/cn.ts';

/**
 * The choice of language both apps show: each language named in itself, so someone who cannot read the current one
 * still finds theirs. The app says which languages it has, which is current, and how to change (its i18n setup
 * remembers the choice and re-renders in place, so nothing typed is lost).
 */
export function LanguageSelect<L extends string>({
  languages,
  names,
  current,
  label,
  onChange,
  className,
}: {
  languages: readonly L[];
  names: Record<L, string>;
  current: L;
  /** The select's accessible name, in the current language ("Language", "Idioma"). */
  label: string;
  onChange: (language: L) => void;
  className?: string;
}) {
  const id = useId();
  return (
    <div className={cn('inline-flex items-center gap-1.5 text-sm text-muted', className)}>
      <Languages aria-hidden className="h-4 w-4" />
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <select
        id={id}
        value={current}
        onChange={(event) => onChange(event.target.value as L)}
        className="rounded-md border border-line bg-surface px-2 py-1 text-sm text-ink focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-100"
      >
        {languages.map((language) => (
          <option key={language} value={language} lang={language}>
            {names[language]}
          </option>
        ))}
      </select>
    </div>
  );
}
