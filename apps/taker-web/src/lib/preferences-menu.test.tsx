import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { i18n } from '../i18n/index.ts';
import { PreferencesMenu } from './preferences-menu.tsx';

describe('PreferencesMenu', () => {
  it('changes the theme and the language, each remembered for the next page', async () => {
    const user = userEvent.setup();
    render(<PreferencesMenu />);

    await user.click(screen.getByRole('button', { name: 'Display preferences' }));
    await user.click(await screen.findByRole('menuitemradio', { name: 'Dark' }));
    expect(document.documentElement.dataset.theme).toBe('dark');

    await user.click(screen.getByRole('button', { name: 'Display preferences' }));
    const spanish = await screen.findByRole('menuitemradio', { name: 'Español' });
    expect(spanish).toHaveAttribute('lang', 'es');
    await user.click(spanish);
    expect(i18n.resolvedLanguage).toBe('es');
    expect(window.localStorage.getItem('exam.language')).toBe('es');
    expect(document.documentElement.lang).toBe('es');
  });
});
