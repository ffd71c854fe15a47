import { Button } from '@exam/ui/button';
import {
  DropdownMenu,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
} from '@exam/ui/dropdown-menu';
import { Type } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { changeLanguage, LANGUAGE_NAMES, LANGUAGES } from '../i18n/index.ts';
import {
  readPreferences,
  savePreferences,
  TEXT_SIZES,
  THEMES,
  type DisplayPreferences,
  type TextSize,
  type Theme,
} from './display-preferences.ts';

/** The candidate's display menu (text size, theme, language): a menu button whose choices are radio items. */
export function PreferencesMenu() {
  const { t, i18n } = useTranslation(['preferences', 'common']);
  const [preferences, setPreferences] = useState<DisplayPreferences>(() => readPreferences());
  const update = (change: Partial<DisplayPreferences>) => {
    const next = { ...preferences, ...change };
    setPreferences(next);
    savePreferences(next);
  };
  return (
    <DropdownMenu
      trigger={
        <Button size="icon" variant="ghost" aria-label={t('menu.button')}>
          <Type aria-hidden className="h-4 w-4" />
        </Button>
      }
    >
      <DropdownMenuLabel>{t('menu.textSize')}</DropdownMenuLabel>
      <DropdownMenuRadioGroup
        aria-label={t('menu.textSize')}
        value={preferences.textSize}
        onValueChange={(value) => update({ textSize: value as TextSize })}
      >
        {TEXT_SIZES.map((size) => (
          <DropdownMenuRadioItem key={size} value={size}>
            {t(`menu.size.${size}`)}
          </DropdownMenuRadioItem>
        ))}
      </DropdownMenuRadioGroup>
      <DropdownMenuSeparator />
      <DropdownMenuLabel>{t('menu.theme')}</DropdownMenuLabel>
      <DropdownMenuRadioGroup
        aria-label={t('menu.theme')}
        value={preferences.theme}
        onValueChange={(value) => update({ theme: value as Theme })}
      >
        {THEMES.map((theme) => (
          <DropdownMenuRadioItem key={theme} value={theme}>
            {t(`menu.themes.${theme}`)}
          </DropdownMenuRadioItem>
        ))}
      </DropdownMenuRadioGroup>
      <DropdownMenuSeparator />
      <DropdownMenuLabel>{t('language', { ns: 'common' })}</DropdownMenuLabel>
      <DropdownMenuRadioGroup
        aria-label={t('language', { ns: 'common' })}
        value={i18n.resolvedLanguage ?? LANGUAGES[0]}
        onValueChange={(value) => void changeLanguage(value)}
      >
        {LANGUAGES.map((language) => (
          <DropdownMenuRadioItem key={language} value={language} lang={language}>
            {LANGUAGE_NAMES[language]}
          </DropdownMenuRadioItem>
        ))}
      </DropdownMenuRadioGroup>
    </DropdownMenu>
  );
}
