import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { createRoot, hydrateRoot, type Root } from 'react-dom/client';
import { createMemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { paths } from '../config/paths.ts';
import { i18n } from '../i18n/index.ts';
import { carryTypedValues } from '../lib/prerendered-form.ts';
import { buildPublicExam } from '../testing/factories.ts';
import { server } from '../testing/server.ts';
import { renderStartPage } from './prerender.tsx';
import { AppRoot, withLoaded } from './root.tsx';
import { routes } from './router.tsx';
import { StartRoute } from './routes/taker/start.tsx';

const URL = 'https://exams.example.com/exam/live42';
let root: Root | undefined;
let container: HTMLElement;

/** The build's prerendered start page as the browser receives it: HTML only, no React behind it yet. */
async function prerenderedPage(): Promise<HTMLElement> {
  const markup = await renderStartPage();
  container = document.createElement('div');
  container.innerHTML = markup;
  document.body.append(container);
  return container;
}

/** What a candidate does to the bare HTML: the field changes, nothing listens yet. */
function typeBeforeScript(field: HTMLInputElement, text: string) {
  field.focus();
  field.value = text;
  field.dispatchEvent(new Event('input', { bubbles: true }));
}

function startRouter() {
  return createMemoryRouter(withLoaded(routes, paths.start, StartRoute), { initialEntries: [paths.start] });
}

afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  container.remove();
});

describe('the prerendered start page (app/prerender.tsx, written by the build)', () => {
  it('shows the form in English with no script, Continue held until the script has come', async () => {
    const page = await prerenderedPage();
    const view = within(page);
    expect(view.getByRole('heading', { name: 'Enter Exam URL' })).toBeInTheDocument();
    expect(view.getByLabelText('Exam URL')).toHaveValue('');
    // A click on the bare HTML would submit the form to the page itself, losing the text.
    expect(view.getByRole('button', { name: 'Continue' })).toBeDisabled();
    expect(view.getByRole('combobox', { name: 'Language' })).toHaveValue('en');
  });

  it('hydrates without a mismatch, keeps what was typed before, and continues with it', async () => {
    const exam = buildPublicExam({ id: 'live42', title: 'Statistics Midterm' });
    server.use(
      http.get('/api/public/exams/:id', ({ params }) =>
        params.id === 'live42' ? HttpResponse.json(exam) : HttpResponse.json({}, { status: 404 }),
      ),
    );
    const page = await prerenderedPage();
    const field = within(page).getByLabelText<HTMLInputElement>('Exam URL');
    typeBeforeScript(field, URL);

    const router = startRouter();
    const mismatches: unknown[] = [];
    await act(async () => {
      root = hydrateRoot(page, <AppRoot router={router} />, { onRecoverableError: (error) => mismatches.push(error) });
    });
    expect(mismatches).toEqual([]);
    // The same element, with the text and the focus it had: nothing was drawn afresh.
    expect(within(page).getByLabelText('Exam URL')).toBe(field);
    expect(field).toHaveValue(URL);
    expect(document.activeElement).toBe(field);

    const continueButton = within(page).getByRole('button', { name: 'Continue' });
    await waitFor(() => expect(continueButton).toBeEnabled());
    await userEvent.setup().click(continueButton);
    await waitFor(() => expect(router.state.location.pathname).toBe(paths.credentials));
    expect(router.state.location.state).toMatchObject({ examId: 'live42', examUrl: URL });
  });

  it('typing on after hydration edits the text typed before it', async () => {
    const page = await prerenderedPage();
    const field = within(page).getByLabelText<HTMLInputElement>('Exam URL');
    typeBeforeScript(field, 'https://exams.example.com/exam/');
    await act(async () => {
      root = hydrateRoot(page, <AppRoot router={startRouter()} />);
    });
    await userEvent.setup().type(field, 'abc');
    expect(field).toHaveValue('https://exams.example.com/exam/abc');
  });

  it('a page that opens in another language is drawn afresh in it, with the typed text carried over', async () => {
    const page = await prerenderedPage();
    typeBeforeScript(within(page).getByLabelText('Exam URL'), URL);
    // As main.tsx does when the candidate's language is not the prerender's.
    carryTypedValues(page);
    page.replaceChildren();
    await i18n.changeLanguage('es');
    try {
      await act(async () => {
        root = createRoot(page);
        root.render(<AppRoot router={startRouter()} />);
      });
      expect(await screen.findByRole('heading', { name: 'Introduce la URL del examen' })).toBeInTheDocument();
      expect(screen.getByLabelText('URL del examen')).toHaveValue(URL);
    } finally {
      await i18n.changeLanguage('en');
    }
  });
});
