import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { RosterMessages } from '@exam/domain/roster';
import { i18n } from '../../../i18n/index.ts';
import { findStoredAttempt, getTakerDb } from '../../../lib/taker-db.ts';
import { buildPublicExam } from '../../../testing/factories.ts';
import { createFakeResultsService } from '../../../testing/fake-results-service.ts';
import { renderRoute } from '../../../testing/render.tsx';
import { server } from '../../../testing/server.ts';

const state = { examId: 'exam-7', examTitle: 'Physics Quiz', fullScreenRequested: false };

describe('/taker/credentials', () => {
  it('sends the candidate back to URL entry when no exam id is in the navigation state', async () => {
    const { router } = renderRoute('/taker/credentials');
    expect(await screen.findByRole('heading', { name: 'Enter Exam URL' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/taker/start');
  });

  it('requires both the full name and the candidate ID', async () => {
    let started = 0;
    const fake = createFakeResultsService({ exam: buildPublicExam({ id: 'exam-7', title: 'Physics Quiz' }) });
    server.use(
      ...fake.handlers,
      http.post('/api/attempts', () => (started++, HttpResponse.json({}))),
    );
    const { user } = renderRoute('/taker/credentials', state);
    expect(await screen.findByText('Physics Quiz')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Full Name is required')).toBeInTheDocument();
    expect(screen.getByText('Candidate ID is required')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Full Name'), 'Ada');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Candidate ID is required')).toBeInTheDocument();
    expect(screen.queryByText('Full Name is required')).not.toBeInTheDocument();
    expect(started).toBe(0);
    expect(fake.state.briefingBodies).toHaveLength(0);
  });

  it('starts an attempt, keeps it in IndexedDB and opens the exam page', async () => {
    const exam = buildPublicExam({ id: 'exam-7', title: 'Physics Quiz' });
    const fake = createFakeResultsService({ exam });
    server.use(...fake.handlers);
    const { user, router } = renderRoute('/taker/credentials', state);
    await user.type(await screen.findByLabelText('Full Name'), 'Ada Lovelace');
    await user.type(screen.getByLabelText('Candidate ID'), 'S-1');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.click(await screen.findByRole('button', { name: 'Start Exam' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/exam/exam-7'));
    const stored = await findStoredAttempt(await getTakerDb(), 'exam-7');
    expect(stored).toMatchObject({
      attemptId: fake.attemptId,
      token: 'attempt-token',
      name: 'Ada Lovelace',
      studentId: 'S-1',
    });
    expect(await screen.findByText('Ada Lovelace (S-1)')).toBeInTheDocument();
  });
});

describe('/taker/credentials in Spanish', () => {
  it('labels the fields, says what is missing and answers a known refusal in Spanish', async () => {
    await i18n.changeLanguage('es');
    const fake = createFakeResultsService({ exam: buildPublicExam({ id: 'exam-7', title: 'Physics Quiz' }) });
    server.use(...fake.handlers);
    // Handlers added later answer first: the service refuses this candidate with its English roster message.
    server.use(
      http.post('/api/attempts/briefing', () =>
        HttpResponse.json({ error: { code: 'FORBIDDEN', message: RosterMessages.notOnRoster } }, { status: 403 }),
      ),
    );
    const { user } = renderRoute('/taker/credentials', state);
    expect(await screen.findByRole('heading', { name: 'Introduce tus datos' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Continuar' }));
    expect(await screen.findByText('El nombre completo es obligatorio')).toBeInTheDocument();
    expect(screen.getByText('El ID de candidato es obligatorio')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Nombre completo'), 'Ada');
    await user.type(screen.getByLabelText('ID de candidato'), 'S-1');
    await user.click(screen.getByRole('button', { name: 'Continuar' }));
    expect(
      await screen.findByText(
        'Solo los candidatos de la lista de este examen pueden iniciarlo. Usa el enlace de tu invitación o pregunta al examinador.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Volver a introducir la URL' })).toBeInTheDocument();
  });
});
