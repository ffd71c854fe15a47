import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { i18n } from '../i18n/index.ts';
import { buildPublicExam } from '../testing/factories.ts';
import { createFakeResultsService } from '../testing/fake-results-service.ts';
import { renderRoute } from '../testing/render.tsx';
import { server } from '../testing/server.ts';

const STORAGE_KEY = 'exam.language';

describe('the language switcher', () => {
  it('offers each language in its own name and turns the start page into Spanish', async () => {
    const { user } = renderRoute('/taker/start');
    const switcher = await screen.findByRole('combobox', { name: 'Language' });
    expect([...(switcher as HTMLSelectElement).options].map((option) => option.text)).toEqual(['English', 'Español']);
    await user.selectOptions(switcher, 'es');
    expect(await screen.findByRole('heading', { name: 'Introduce la URL del examen' })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Idioma' })).toHaveValue('es');
    expect(document.documentElement.lang).toBe('es');
    expect(document.title).toBe('Realizar una evaluación');
    // Remembered for the next visit.
    expect(window.localStorage.getItem(STORAGE_KEY)).toBe('es');
  });

  it('keeps what the candidate typed when the language changes', async () => {
    server.use(
      ...createFakeResultsService({ exam: buildPublicExam({ id: 'exam-7', title: 'Physics Quiz' }) }).handlers,
    );
    const { user } = renderRoute('/taker/credentials', {
      examId: 'exam-7',
      examTitle: 'Physics Quiz',
      fullScreenRequested: false,
    });
    await user.type(await screen.findByLabelText('Full Name'), 'Ada Lovelace');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Candidate ID is required')).toBeInTheDocument();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'es');
    expect(await screen.findByLabelText('Nombre completo')).toHaveValue('Ada Lovelace');
    // The error already on screen is said again in the new language.
    expect(screen.getByText('El ID de candidato es obligatorio')).toBeInTheDocument();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Idioma' }), 'en');
    expect(await screen.findByLabelText('Full Name')).toHaveValue('Ada Lovelace');
  });
});

describe('choosing the language on arrival', () => {
  /** Runs the detector again, as a fresh page load does: `?lang=`, then the remembered choice, then the browser. */
  async function arrive(search: string) {
    window.history.replaceState(null, '', `/taker/start${search}`);
    try {
      await i18n.changeLanguage();
    } finally {
      window.history.replaceState(null, '', '/');
    }
    return i18n.resolvedLanguage;
  }

  it('honours ?lang=es over a remembered English', async () => {
    window.localStorage.setItem(STORAGE_KEY, 'en');
    expect(await arrive('?lang=es')).toBe('es');
    expect(window.localStorage.getItem(STORAGE_KEY)).toBe('es');
  });

  it('uses the remembered choice when the link names no language', async () => {
    window.localStorage.setItem(STORAGE_KEY, 'es');
    expect(await arrive('')).toBe('es');
  });

  it("follows a Spanish browser's region-specific language, and falls back to English for one it does not speak", async () => {
    window.localStorage.removeItem(STORAGE_KEY);
    const languages = vi.spyOn(window.navigator, 'languages', 'get').mockReturnValue(['es-MX', 'en']);
    expect(await arrive('')).toBe('es');
    window.localStorage.removeItem(STORAGE_KEY);
    languages.mockReturnValue(['fr-FR']);
    const language = vi.spyOn(window.navigator, 'language', 'get').mockReturnValue('fr-FR');
    expect(await arrive('')).toBe('en');
    await waitFor(() => expect(document.documentElement.lang).toBe('en'));
    languages.mockRestore();
    language.mockRestore();
  });
});
