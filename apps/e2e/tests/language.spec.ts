import { expect, test } from './support/fixtures.ts';
import { publishExam, question, registerCreator } from './support/api.ts';
import { E2E } from './support/env.ts';
import { examUrl } from './support/taker.ts';

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
