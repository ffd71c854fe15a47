import { expectAccessible } from './support/a11y.ts';
import { expect, test } from './support/fixtures.ts';
import { publishExam, question, registerCreator } from './support/api.ts';
import { E2E } from './support/env.ts';
import { examUrl } from './support/taker.ts';
import { signInCreator } from './support/ui.ts';

// A candidate whose browser asks for Spanish (navigator.language and Accept-Language).
test.use({ locale: 'es-ES' });

/** The candidate app speaks the browser's language, switches on request without losing what was typed, and remembers. */
test('a Spanish browser gets the candidate pages in Spanish, switches to English and back, and keeps the choice', async ({
  page,
  request,
}) => {
  const creator = await registerCreator(request);
  const exam = await publishExam(request, creator.token, {
    title: 'Idiomas',
    questions: [question.shortAnswer('Capital of Spain', ['Madrid'])],
  });

  await test.step('the exam link opens the details page in Spanish', async () => {
    await page.goto(examUrl(exam.id));
    await expect(page).toHaveURL(/\/taker\/credentials$/);
    await expect(page.getByRole('heading', { name: 'Introduce tus datos' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    await expect(page).toHaveTitle('Realizar una evaluación');
    await page.getByLabel('Nombre completo').fill('Ada Lovelace');
  });

  await test.step('switching to English keeps the typed name', async () => {
    await page.getByRole('combobox', { name: 'Idioma' }).selectOption('en');
    await expect(page.getByRole('heading', { name: 'Enter Your Details' })).toBeVisible();
    await expect(page.getByLabel('Full Name')).toHaveValue('Ada Lovelace');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  });

  await test.step('and back to Spanish, where the briefing follows', async () => {
    await page.getByRole('combobox', { name: 'Language' }).selectOption('es');
    await expect(page.getByLabel('Nombre completo')).toHaveValue('Ada Lovelace');
    await page.getByLabel('ID de candidato').fill('C-1815');
    await page.getByRole('button', { name: 'Continuar' }).click();
    await expect(page.getByRole('button', { name: 'Comenzar examen' })).toBeVisible();
    await expect(page.getByTestId('briefing-duration')).toHaveText('Sin límite de tiempo');
  });

  await test.step('the choice is remembered on the next visit, and ?lang= overrides it', async () => {
    await page.getByRole('combobox', { name: 'Idioma' }).selectOption('en');
    await page.goto(`${E2E.takerOrigin}/taker/start`);
    await expect(page.getByRole('heading', { name: 'Enter Exam URL' })).toBeVisible();
    await page.goto(`${E2E.takerOrigin}/taker/start?lang=es`);
    await expect(page.getByRole('heading', { name: 'Introduce la URL del examen' })).toBeVisible();
    await expect(page.getByLabel('URL del examen')).toBeVisible();
  });
});

/** The creator app speaks the browser's Spanish too: the dashboard and the exam editor, with dates in Spanish. */
test('a Spanish browser gets the creator dashboard and exam editor in Spanish, accessible, and can switch', async ({
  page,
  request,
}) => {
  const creator = await registerCreator(request, 'idioma');
  await publishExam(request, creator.token, {
    title: 'Parcial de Geografía',
    questions: [question.shortAnswer('Capital of Spain', ['Madrid'])],
  });
  await signInCreator(page, creator);

  await test.step('the dashboard is in Spanish, with the date written the Spanish way', async () => {
    await page.goto(`${E2E.creatorOrigin}/creator/dashboard`);
    await expect(page.getByRole('heading', { name: 'Panel', exact: true })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    await expect(page.getByRole('link', { name: 'Crear examen nuevo' })).toBeVisible();
    const published = page.getByRole('table', { name: 'Exámenes publicados' });
    const row = published.getByRole('row').filter({ hasText: 'Parcial de Geografía' });
    await expect(row).toBeVisible();
    // 'Published' as '5 ene 2025' (day, month, year), never 'Jan 5, 2025'.
    await expect(row).toContainText(/\d{1,2} [a-z]{3,4}\.? \d{4}/);
    await expect(row).not.toContainText(/[A-Z][a-z]{2} \d{1,2}, \d{4}/);
    await expect(page.getByRole('combobox', { name: 'Idioma' })).toHaveValue('es');
    await expectAccessible(page, 'dashboard in Spanish');
  });

  await test.step('the exam editor is in Spanish', async () => {
    await page
      .getByRole('table', { name: 'Exámenes publicados' })
      .getByRole('row')
      .filter({ hasText: 'Parcial de Geografía' })
      .getByRole('link', { name: 'Editar' })
      .click();
    await expect(page.getByRole('heading', { name: 'Editar examen publicado' })).toBeVisible();
    await expect(page.getByLabel('Título del examen')).toHaveValue('Parcial de Geografía');
    await expect(page.getByLabel('Título de la pregunta 1', { exact: true })).toHaveValue('Capital of Spain');
    await expect(page.getByRole('button', { name: 'Actualizar el examen publicado' })).toBeVisible();
    await expectAccessible(page, 'exam editor in Spanish');
  });

  await test.step('switching to English is remembered on the next page', async () => {
    await page.getByRole('combobox', { name: 'Idioma' }).selectOption('en');
    await expect(page.getByRole('heading', { name: 'Edit Published Exam' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await page.goto(`${E2E.creatorOrigin}/creator/dashboard`);
    await expect(page.getByRole('heading', { name: 'Dashboard', exact: true })).toBeVisible();
  });
});

test.describe('the start page prerendered (issue 39)', () => {
  test.use({ locale: 'en-US' });

  /** The form is HTML from the build: it shows before any script, and what is typed meanwhile survives hydration. */
  test('shows its form before its script has come, and keeps what was typed when it hydrates', async ({
    page,
    request,
  }) => {
    const creator = await registerCreator(request, 'prerender');
    const exam = await publishExam(request, creator.token, {
      title: 'Prerendered Start',
      questions: [question.shortAnswer('Capital of Spain', ['Madrid'])],
    });
    let release!: () => void;
    const scripts = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/assets/*.js', async (route) => {
      await scripts;
      await route.continue();
    });

    await test.step('with every script held back, the form shows and takes the link', async () => {
      // Module scripts hold back DOMContentLoaded and load, so only the response is waited for.
      await page.goto(`${E2E.takerOrigin}/taker/start`, { waitUntil: 'commit' });
      await expect(page.getByRole('heading', { name: 'Enter Exam URL' })).toBeVisible();
      await page.getByLabel('Exam URL').fill(examUrl(exam.id));
      await expect(page.getByRole('button', { name: 'Continue' })).toBeDisabled();
    });

    await test.step('the script comes, keeps the link, and Continue goes on with it', async () => {
      release();
      await expect(page.getByRole('button', { name: 'Continue' })).toBeEnabled();
      await expect(page.getByLabel('Exam URL')).toHaveValue(examUrl(exam.id));
      await page.getByRole('button', { name: 'Continue' }).click();
      await expect(page).toHaveURL(/\/taker\/credentials$/);
      await expect(page.getByText('Prerendered Start')).toBeVisible();
    });
  });
});
