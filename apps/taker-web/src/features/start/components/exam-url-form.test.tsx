import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { i18n } from '../../../i18n/index.ts';
import { buildPublicExam } from '../../../testing/factories.ts';
import { renderRoute } from '../../../testing/render.tsx';
import { server } from '../../../testing/server.ts';

async function submitUrl(url: string) {
  const view = renderRoute('/taker/start');
  const field = await screen.findByLabelText('Exam URL');
  if (url) await view.user.type(field, url);
  await view.user.click(screen.getByRole('button', { name: 'Continue' }));
  return view;
}

describe('/taker/start', () => {
  it('asks for a URL when the field is empty', async () => {
    await submitUrl('');
    expect(await screen.findByText('Please enter an exam URL')).toBeInTheDocument();
  });

  it('rejects a URL without an exam id', async () => {
    await submitUrl('https://example.com/somewhere');
    expect(await screen.findByText('Invalid exam URL format. Please check the URL and try again.')).toBeInTheDocument();
  });

  it('says the exam was not found when the server answers 404', async () => {
    server.use(
      http.get('/api/public/exams/:id', () =>
        HttpResponse.json({ error: { code: 'NOT_FOUND', message: 'Exam not found' } }, { status: 404 }),
      ),
    );
    await submitUrl('http://localhost:5174/exam/missing1');
    expect(
      await screen.findByText('Exam not found. Please check the URL or contact your test provider.'),
    ).toBeInTheDocument();
  });

  it('says the exam is offline when the server answers 403 EXAM_OFFLINE', async () => {
    server.use(
      http.get('/api/public/exams/:id', () =>
        HttpResponse.json({ error: { code: 'EXAM_OFFLINE', message: 'offline' } }, { status: 403 }),
      ),
    );
    await submitUrl('http://localhost:5174/exam/off1');
    expect(
      await screen.findByText('This exam is currently offline. Please contact your test provider.'),
    ).toBeInTheDocument();
  });

  it('shows the validation error with the status text when the server fails', async () => {
    server.use(
      http.get('/api/public/exams/:id', () => new HttpResponse('boom', { status: 502, statusText: 'Bad Gateway' })),
    );
    await submitUrl('http://localhost:5174/exam/e1');
    expect(
      await screen.findByText('An error occurred while validating the exam URL. Please try again. Bad Gateway'),
    ).toBeInTheDocument();
  });

  it('shows the validation error when the network is down', async () => {
    server.use(http.get('/api/public/exams/:id', () => HttpResponse.error()));
    await submitUrl('http://localhost:5174/exam/e1');
    expect(
      await screen.findByText(/^An error occurred while validating the exam URL\. Please try again\./),
    ).toBeInTheDocument();
  });

  it('announces the exam and moves on to the details form with its title when the exam is live', async () => {
    const exam = buildPublicExam({ id: 'live42', title: 'Statistics Midterm', fullScreenEnabled: true });
    server.use(
      http.get('/api/public/exams/:id', ({ params }) =>
        params.id === 'live42' ? HttpResponse.json(exam) : HttpResponse.json({}, { status: 404 }),
      ),
    );
    const { router } = await submitUrl('https://exams.example.com/take?examId=live42');
    expect(await screen.findByText('Valid exam found! Redirecting...')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Enter Your Details' })).toBeInTheDocument();
    expect(screen.getByText('Statistics Midterm')).toBeInTheDocument();
    expect(router.state.location.state).toMatchObject({
      examId: 'live42',
      examTitle: 'Statistics Midterm',
      fullScreenRequested: true,
    });
  });
});

describe('/taker/start in Spanish', () => {
  it('asks for the URL and explains a bad one in Spanish', async () => {
    await i18n.changeLanguage('es');
    const { user } = renderRoute('/taker/start');
    expect(await screen.findByRole('heading', { name: 'Introduce la URL del examen' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Continuar' }));
    expect(await screen.findByText('Introduce la URL de un examen')).toBeInTheDocument();
    await user.type(screen.getByLabelText('URL del examen'), 'https://example.com/somewhere');
    await user.click(screen.getByRole('button', { name: 'Continuar' }));
    expect(
      await screen.findByText('El formato de la URL del examen no es válido. Revísala e inténtalo de nuevo.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Volver a la página principal' })).toBeInTheDocument();
  });
});
