import { WindowMessages } from '@exam/domain/cohort';
import { PlantedErrorMessages } from '@exam/domain/planted-errors';
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { i18n } from '../../../i18n/index.ts';
import { findStoredAttempt, getTakerDb } from '../../../lib/taker-db.ts';
import { buildPublicExam } from '../../../testing/factories.ts';
import { createFakeResultsService } from '../../../testing/fake-results-service.ts';
import { renderRoute } from '../../../testing/render.tsx';
import { seedAttempt } from '../../../testing/seed.ts';
import { server } from '../../../testing/server.ts';

const savedTz = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'Asia/Tokyo';
});
afterAll(() => {
  if (savedTz === undefined) delete process.env.TZ;
  else process.env.TZ = savedTz;
});

const state = { examId: 'exam-b', examTitle: 'Statistics Final', fullScreenRequested: false };

function serveTimedExam() {
  const exam = buildPublicExam({
    id: 'exam-b',
    title: 'Statistics Final',
    description: 'Chapters 1 to 6.',
    rules: 'No phones.\nOne sheet of notes.',
    timerEnabled: true,
    timerMinutes: 60,
    fullScreenEnabled: true,
    questionCount: 12,
    attemptsAllowed: 3,
    closesAt: '2030-03-04T09:00:00.000Z',
  });
  const fake = createFakeResultsService({ exam });
  // The briefing says the workspace is on (the exam page itself is not opened with one here).
  fake.state.briefing = { workspaceEnabled: true };
  server.use(...fake.handlers);
  return fake;
}

async function giveDetails(user: ReturnType<typeof renderRoute>['user'], studentId = 'C-150') {
  await user.type(await screen.findByLabelText('Full Name'), 'Mary Somerville');
  await user.type(screen.getByLabelText('Candidate ID'), studentId);
  await user.click(screen.getByRole('button', { name: 'Continue' }));
}

describe('the briefing before Start', () => {
  it('shows the exam as this candidate will sit it, with their extra time, and starts only on Start Exam', async () => {
    const fake = serveTimedExam();
    fake.state.briefing = { ...fake.state.briefing, durationMinutes: 90, baseDurationMinutes: 60, attemptsUsed: 1 };
    fake.state.deadline = new Date(Date.now() + 90 * 60_000).toISOString();
    const { user, router } = renderRoute('/taker/credentials', state);
    await giveDetails(user);
    expect(await screen.findByRole('heading', { name: 'Statistics Final' })).toBeInTheDocument();
    expect(screen.getByTestId('briefing-candidate')).toHaveTextContent('Mary Somerville (C-150)');
    expect(screen.getByText('Chapters 1 to 6.')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Rules' })).toHaveTextContent('No phones. One sheet of notes.');
    expect(screen.getByTestId('briefing-duration')).toHaveTextContent('90 minutes (60 + extra time)');
    expect(screen.getByTestId('briefing-questions')).toHaveTextContent('12');
    expect(screen.getByTestId('briefing-availability')).toHaveTextContent(
      'This exam closes on Monday, March 4, 2030 at 6:00 PM (Asia/Tokyo, UTC+09:00).',
    );
    expect(screen.getByTestId('briefing-full-screen')).toHaveTextContent('Required');
    expect(screen.getByTestId('briefing-coding-workspace')).toHaveTextContent('On');
    expect(screen.getByTestId('briefing-ai-assistant')).toHaveTextContent('Off');
    expect(screen.getByTestId('briefing-attempts')).toHaveTextContent('1 of 3 used');
    expect(screen.getByText('The timer starts when you press Start Exam.')).toBeInTheDocument();
    expect(fake.state.briefingBodies).toEqual([{ examId: 'exam-b', name: 'Mary Somerville', studentId: 'C-150' }]);
    // Nothing started yet: the clock runs from Start Exam.
    expect(fake.state.startBodies).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Start Exam' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/exam/exam-b'));
    expect(fake.state.startBodies).toEqual([{ examId: 'exam-b', name: 'Mary Somerville', studentId: 'C-150' }]);
    expect(await findStoredAttempt(await getTakerDb(), 'exam-b')).toMatchObject({ deadline: fake.state.deadline });
    // The exam page counts down to the server's deadline: the 90 minutes, not the exam's 60.
    const timer = await screen.findByRole('timer', { name: 'Time remaining' });
    expect(timer.textContent).toMatch(/^(89:5\d|90:00)$/);
  });

  it('shows a plain duration without extra time, and no timer for an untimed exam', async () => {
    const fake = serveTimedExam();
    const { user } = renderRoute('/taker/credentials', state);
    await giveDetails(user);
    expect(await screen.findByTestId('briefing-duration')).toHaveTextContent(/^60 minutes$/);
    await user.click(screen.getByRole('button', { name: 'Change my details' }));
    fake.state.briefing = { durationMinutes: null, baseDurationMinutes: null };
    expect(screen.getByLabelText('Full Name')).toHaveValue('Mary Somerville');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByTestId('briefing-duration')).toHaveTextContent('No time limit');
  });

  it("shows a 409 not-yet-open with the opening time in the candidate's zone, and stays on the briefing", async () => {
    const fake = serveTimedExam();
    fake.state.startRefusal = {
      status: 409,
      code: 'CONFLICT',
      message: WindowMessages.notYetOpen('2030-03-04T00:30:00.000Z'),
    };
    const { user, router } = renderRoute('/taker/credentials', state);
    await giveDetails(user);
    await user.click(await screen.findByRole('button', { name: 'Start Exam' }));
    expect(await screen.findByTestId('briefing-refusal')).toHaveTextContent(
      'This exam opens on Monday, March 4, 2030 at 9:30 AM (Asia/Tokyo, UTC+09:00).',
    );
    expect(router.state.location.pathname).toBe('/taker/credentials');
  });

  it('shows the closed and no-attempts-left refusals as the server words them', async () => {
    const fake = serveTimedExam();
    fake.state.startRefusal = { status: 409, code: 'CONFLICT', message: WindowMessages.closed };
    const { user } = renderRoute('/taker/credentials', state);
    await giveDetails(user);
    await user.click(await screen.findByRole('button', { name: 'Start Exam' }));
    expect(await screen.findByTestId('briefing-refusal')).toHaveTextContent(WindowMessages.closed);
    fake.state.startRefusal = { status: 409, code: 'CONFLICT', message: WindowMessages.noAttemptsLeft };
    await user.click(screen.getByRole('button', { name: 'Start Exam' }));
    await waitFor(() =>
      expect(screen.getByTestId('briefing-refusal')).toHaveTextContent(WindowMessages.noAttemptsLeft),
    );
    expect(fake.state.startBodies).toHaveLength(2);
  });

  it('offers no Start when every attempt is used, and says why', async () => {
    const fake = serveTimedExam();
    fake.state.briefing = { attemptsUsed: 3 };
    const { user } = renderRoute('/taker/credentials', state);
    await giveDetails(user);
    expect(await screen.findByRole('button', { name: 'Start Exam' })).toBeDisabled();
    expect(screen.getByTestId('briefing-refusal')).toHaveTextContent(WindowMessages.noAttemptsLeft);
  });
});

describe('the briefing of an exam in sections, with planted errors', () => {
  function serveSectionedExam(plantedErrors: boolean) {
    const exam = buildPublicExam({
      id: 'exam-b',
      title: 'Statistics Final',
      questionCount: 5,
      aiSettings: { ...buildPublicExam().aiSettings, enabled: true, plantedErrors },
      sections: [
        { id: 's1', title: 'On your own', assistant: false, timeLimitMinutes: 20, questionCount: 2 },
        { id: 's2', title: '', assistant: true, timeLimitMinutes: null, questionCount: 3 },
      ],
    });
    const fake = createFakeResultsService({ exam });
    server.use(...fake.handlers);
    return fake;
  }

  it('lists each section and tells the candidate, before Start, that the assistant is sometimes wrong on purpose', async () => {
    const fake = serveSectionedExam(true);
    const { user } = renderRoute('/taker/credentials', state);
    await giveDetails(user);
    const sections = await screen.findByRole('region', { name: 'Sections' });
    expect(within(sections).getByTestId('briefing-section-0')).toHaveTextContent(
      /Section 1: On your own.*Assistant off.*20 minutes.*2 questions/,
    );
    expect(within(sections).getByTestId('briefing-section-1')).toHaveTextContent(
      /Section 2.*Assistant on.*No time limit of its own.*3 questions/,
    );
    const disclosure = screen.getByRole('note', { name: 'About the assistant' });
    expect(disclosure).toHaveTextContent(PlantedErrorMessages.disclosure);
    expect(disclosure).toHaveAttribute('data-testid', 'planted-errors-disclosure');
    // Said before anything started.
    expect(fake.state.startBodies).toHaveLength(0);
  });

  it('says nothing of planted errors when the creator has not turned them on', async () => {
    serveSectionedExam(false);
    const { user } = renderRoute('/taker/credentials', state);
    await giveDetails(user);
    expect(await screen.findByRole('region', { name: 'Sections' })).toBeInTheDocument();
    expect(screen.queryByTestId('planted-errors-disclosure')).not.toBeInTheDocument();
  });

  it('keeps the disclosure on the exam page while the candidate works', async () => {
    const exam = buildPublicExam({
      aiSettings: { ...buildPublicExam().aiSettings, plantedErrors: true },
    });
    const fake = createFakeResultsService({ exam });
    server.use(...fake.handlers);
    await seedAttempt(exam, fake.attemptId);
    renderRoute(`/exam/${exam.id}`);
    expect(await screen.findByTestId('planted-errors-disclosure')).toHaveTextContent(PlantedErrorMessages.disclosure);
  });

  it('says the disclosure and the sections in Spanish', async () => {
    await i18n.changeLanguage('es');
    serveSectionedExam(true);
    const { user } = renderRoute('/taker/credentials', state);
    await user.type(await screen.findByLabelText('Nombre completo'), 'Mary Somerville');
    await user.type(screen.getByLabelText('ID de candidato'), 'C-150');
    await user.click(screen.getByRole('button', { name: 'Continuar' }));
    expect(await screen.findByTestId('briefing-section-0')).toHaveTextContent(
      /Sección 1: On your own.*Asistente desactivado/,
    );
    expect(screen.getByTestId('planted-errors-disclosure')).toHaveTextContent(/se equivoca a propósito/);
  });
});

describe('the briefing of an exam with follow-up questions', () => {
  function serveFollowUpExam(
    followUp: { questions: number; secondsPerQuestion: number } | null,
    { plantedErrors = false } = {},
  ) {
    const exam = buildPublicExam({
      id: 'exam-b',
      title: 'Statistics Final',
      aiSettings: { ...buildPublicExam().aiSettings, enabled: true, plantedErrors, followUp },
    });
    server.use(...createFakeResultsService({ exam }).handlers);
  }

  it('says before Start how many follow-up questions come after submit and how long each has', async () => {
    serveFollowUpExam({ questions: 2, secondsPerQuestion: 180 });
    const { user } = renderRoute('/taker/credentials', state);
    await giveDetails(user);
    expect(await screen.findByTestId('briefing-follow-up')).toHaveTextContent(
      'After you submit, the assistant will ask you 2 short questions about your answers, 3 minutes each.',
    );
    expect(screen.getByTestId('briefing-follow-up')).toHaveAttribute('role', 'note');
  });

  it('says one question and a time in seconds, in Spanish too', async () => {
    await i18n.changeLanguage('es');
    serveFollowUpExam({ questions: 1, secondsPerQuestion: 90 });
    const { user } = renderRoute('/taker/credentials', state);
    await user.type(await screen.findByLabelText('Nombre completo'), 'Mary Somerville');
    await user.type(screen.getByLabelText('ID de candidato'), 'C-150');
    await user.click(screen.getByRole('button', { name: 'Continuar' }));
    expect(await screen.findByTestId('briefing-follow-up')).toHaveTextContent(
      'Cuando entregues, el asistente te hará 1 pregunta breve sobre tus respuestas, con 90 segundos para responderla.',
    );
  });

  it('says nothing of follow-up questions when the exam has none', async () => {
    serveFollowUpExam(null, { plantedErrors: true });
    const { user } = renderRoute('/taker/credentials', state);
    await giveDetails(user);
    // The planted-error disclosure comes from the same summary: once it shows, the summary is read.
    expect(await screen.findByTestId('planted-errors-disclosure')).toBeInTheDocument();
    expect(screen.queryByTestId('briefing-follow-up')).not.toBeInTheDocument();
  });
});

describe('the briefing in Spanish', () => {
  it('states the facts, the closing time and the extra time in Spanish', async () => {
    await i18n.changeLanguage('es');
    const fake = serveTimedExam();
    fake.state.briefing = { ...fake.state.briefing, durationMinutes: 90, baseDurationMinutes: 60, attemptsUsed: 1 };
    const { user } = renderRoute('/taker/credentials', state);
    await user.type(await screen.findByLabelText('Nombre completo'), 'Mary Somerville');
    await user.type(screen.getByLabelText('ID de candidato'), 'C-150');
    await user.click(screen.getByRole('button', { name: 'Continuar' }));
    expect(await screen.findByTestId('briefing-duration')).toHaveTextContent('90 minutos (60 + tiempo adicional)');
    expect(screen.getByTestId('briefing-availability')).toHaveTextContent(
      'Este examen se cierra el lunes, 4 de marzo de 2030, 18:00 (Asia/Tokyo, UTC+09:00).',
    );
    expect(screen.getByTestId('briefing-full-screen')).toHaveTextContent('Obligatoria');
    expect(screen.getByTestId('briefing-ai-assistant')).toHaveTextContent('Desactivado');
    expect(screen.getByTestId('briefing-attempts')).toHaveTextContent('1 de 3 usados');
    expect(screen.getByRole('region', { name: 'Normas' })).toBeInTheDocument();
    expect(screen.getByText('El temporizador empieza cuando pulses «Comenzar examen».')).toBeInTheDocument();
  });

  it('says a closed window in Spanish when the service refuses the start with its English message', async () => {
    await i18n.changeLanguage('es');
    const fake = serveTimedExam();
    fake.state.startRefusal = { status: 409, code: 'CONFLICT', message: WindowMessages.closed };
    const { user } = renderRoute('/taker/credentials', state);
    await user.type(await screen.findByLabelText('Nombre completo'), 'Mary Somerville');
    await user.type(screen.getByLabelText('ID de candidato'), 'C-150');
    await user.click(screen.getByRole('button', { name: 'Continuar' }));
    await user.click(await screen.findByRole('button', { name: 'Comenzar examen' }));
    expect(await screen.findByTestId('briefing-refusal')).toHaveTextContent('Este examen ya está cerrado.');
  });
});
