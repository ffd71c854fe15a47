import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18n, LANGUAGE_STORAGE_KEY } from '../i18n/index.ts';
import { clearAllStorage } from '../lib/auth-storage.ts';
import { signInAs } from '../testing/factories.ts';
import { seedExams } from '../testing/handlers.ts';
import { renderApp } from '../testing/render.tsx';

describe('the creator’s language switcher', () => {
  it('offers each language in its own name, turns the dashboard into Spanish and remembers the choice', async () => {
    seedExams();
    signInAs('grace@example.com');
    const { user } = renderApp('/creator/dashboard');
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    const switcher = screen.getByRole('combobox', { name: 'Language' });
    expect([...(switcher as HTMLSelectElement).options].map((option) => option.text)).toEqual(['English', 'Español']);

    await user.selectOptions(switcher, 'es');
    expect(await screen.findByRole('heading', { name: 'Panel' })).toBeInTheDocument();
    expect(screen.getByText('Hola, grace@example.com')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Idioma' })).toHaveValue('es');
    expect(document.documentElement.lang).toBe('es');
    expect(localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('es');

    // Signing out forgets the creator, not the device's language.
    clearAllStorage();
    expect(localStorage.getItem('authToken')).toBeNull();
    expect(localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('es');
  });

  it('is on the sign-in page too', async () => {
    const { user } = renderApp('/creator/auth');
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Language' }), 'es');
    expect(await screen.findByRole('heading', { name: 'Iniciar sesión' })).toBeInTheDocument();
    expect(screen.getByLabelText('Correo electrónico')).toBeInTheDocument();
  });
});

describe('the creator app’s language on arrival', () => {
  afterEach(() => vi.restoreAllMocks());

  /** Runs the detector again, as a fresh page load does: `?lang=`, then the remembered choice, then the browser. */
  async function arrive(search: string) {
    window.history.replaceState(null, '', `/creator/dashboard${search}`);
    try {
      await i18n.changeLanguage();
    } finally {
      window.history.replaceState(null, '', '/');
    }
    return i18n.resolvedLanguage;
  }

  it("follows a Spanish browser's regional language, and English for a language it does not speak", async () => {
    // Nothing remembered yet (each test starts in English, which the detector would otherwise remember).
    localStorage.removeItem(LANGUAGE_STORAGE_KEY);
    vi.spyOn(window.navigator, 'languages', 'get').mockReturnValue(['es-ES', 'en']);
    expect(await arrive('')).toBe('es');
    localStorage.removeItem(LANGUAGE_STORAGE_KEY);
    vi.spyOn(window.navigator, 'languages', 'get').mockReturnValue(['fr-FR']);
    vi.spyOn(window.navigator, 'language', 'get').mockReturnValue('fr-FR');
    expect(await arrive('')).toBe('en');
  });

  it('prefers the remembered choice to the browser, and ?lang= to both', async () => {
    vi.spyOn(window.navigator, 'languages', 'get').mockReturnValue(['en-US']);
    localStorage.setItem(LANGUAGE_STORAGE_KEY, 'es');
    expect(await arrive('')).toBe('es');
    localStorage.setItem(LANGUAGE_STORAGE_KEY, 'es');
    expect(await arrive('?lang=en')).toBe('en');
    expect(localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('en');
  });
});
