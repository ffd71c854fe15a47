import { FollowUpMessages } from '@exam/domain/follow-up';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../i18n/index.ts';
import { buildPublicExam, buildQuestion } from '../../../testing/factories.ts';
import type { FakeFollowUpQuestion } from '../../../testing/fake-follow-up.ts';
import { createFakeResultsService } from '../../../testing/fake-results-service.ts';
import { renderRoute } from '../../../testing/render.tsx';
import { seedAttempt } from '../../../testing/seed.ts';
import { server } from '../../../testing/server.ts';
import { findDraft } from '../lib/follow-up-drafts.ts';

const QUESTIONS: FakeFollowUpQuestion[] = [
  { text: 'Why is Paris the capital and not Lyon?', questionNumber: 2, title: 'Name the capital of France' },
  { text: 'Which step of your search halves the range?', questionNumber: 1, title: 'Binary search' },
];

function buildExam() {
  return buildPublicExam({
    title: 'Geography',
    questions: [
      buildQuestion({ type: 'short-answer', title: 'Binary search' }),
      buildQuestion({ type: 'short-answer', title: 'Name the capital of France' }),
    ],
    questionCount: 2,
  });
}

/** An exam whose follow-up questions come after submit, with the attempt on this device. */
async function serveExam(options: { submitted?: boolean } = {}) {
  const exam = buildExam();
  const fake = createFakeResultsService({ exam });
  fake.followUp.status = 'pending';
  fake.followUp.questions = QUESTIONS;
  fake.state.submitted = options.submitted ?? false;
  server.use(...fake.handlers);
  await seedAttempt(exam, fake.attemptId);
  return { exam, fake };
}

/** The candidate answers and submits the exam from its page. */
async function submitExam(exam: ReturnType<typeof buildExam>) {
  const view = renderRoute(`/exam/${exam.id}`);
  await view.user.type(await screen.findByLabelText('Answer for Q2'), 'Paris');
  await view.user.click(screen.getByRole('button', { name: 'Submit' }));
  await view.user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Submit exam' }));
  return view;
}

const answerBox = () => screen.getByRole('textbox', { name: 'Your answer' });

/** Timers and the clock are faked (fetch, msw and IndexedDB run as usual); vi.waitFor advances the clock. */
const useFakeClock = () =>
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });

afterEach(() => {
  vi.useRealTimers();
});

describe('the follow-up room after submit', () => {
  it('prepares the questions, takes one answer by submit and one when its time runs out, then shows the completion page', async () => {
    const { exam, fake } = await serveExam();
    let release: () => void = () => undefined;
    fake.followUp.startGate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { user, router } = await submitExam(exam);

    // The exam is submitted before the room opens; the questions are being generated meanwhile.
    const room = await screen.findByTestId('follow-up-preparing');
    expect(router.state.location.pathname).toBe(`/exam/${exam.id}/follow-up`);
    expect(fake.state.submitCalls).toBe(1);
    expect(room.closest('[aria-busy]')).toHaveAttribute('aria-busy', 'true');
    expect(within(room).getByRole('status')).toHaveTextContent('Preparing your questions…');
    expect(screen.getByRole('heading', { level: 1, name: 'Follow-up questions' })).toBeInTheDocument();
    expect(screen.getByText(FollowUpMessages.intro)).toBeInTheDocument();
    release();

    expect(await screen.findByRole('heading', { name: 'Question 1 of 2' })).toBeInTheDocument();
    expect(fake.followUp.startCalls).toBe(1);
    expect(screen.getByTestId('follow-up-probes')).toHaveTextContent(
      'About your answer to question 2: Name the capital of France',
    );
    expect(screen.getByText(QUESTIONS[0]!.text)).toBeInTheDocument();
    expect(screen.getByRole('timer', { name: 'Time remaining' })).toHaveTextContent(/^3:00|2:59$/);
    expect(answerBox()).toHaveAttribute('maxlength', '5000');
    // The room does not take the focus from the candidate when it opens.
    expect(answerBox()).not.toHaveFocus();

    await user.type(answerBox(), 'It is the seat of government.');
    expect(screen.getByText('29 of 5,000 characters')).toBeInTheDocument();
    // From here the clock is faked: the second question's countdown runs out without waiting three minutes.
    useFakeClock();
    fireEvent.click(screen.getByRole('button', { name: 'Submit answer' }));

    await vi.waitFor(() => expect(screen.getByRole('heading', { name: 'Question 2 of 2' })).toBeInTheDocument());
    expect(fake.followUp.submitBodies).toEqual([{ n: 1, answer: 'It is the seat of government.' }]);
    expect(answerBox()).toHaveValue('');
    // The candidate pressed Submit answer: the next answer box has the focus, in the same place.
    await vi.waitFor(() => expect(answerBox()).toHaveFocus());

    fireEvent.change(answerBox(), { target: { value: 'The middle comparison' } });
    await act(() => vi.advanceTimersByTimeAsync(1000));
    await vi.waitFor(() => expect(fake.followUp.asked[1]?.answer).toBe('The middle comparison'));
    await vi.waitFor(() => expect(screen.getByTestId('save-status')).toHaveTextContent('Saved'));

    await act(() => vi.advanceTimersByTimeAsync(121_000));
    expect(screen.getByTestId('timer-announcement')).toHaveTextContent('1 minute left');
    await act(() => vi.advanceTimersByTimeAsync(60_000));
    await vi.waitFor(() => expect(screen.getByRole('heading', { name: 'Exam Completed' })).toBeInTheDocument());
    vi.useRealTimers();

    expect(screen.getByText(FollowUpMessages.done)).toHaveAttribute('role', 'status');
    expect(screen.getByRole('link', { name: 'View your result' })).toHaveAttribute(
      'href',
      `/taker/results/${fake.attemptId}`,
    );
    expect(fake.followUp.asked.map((q) => ({ answer: q.answer, timedOut: q.timedOut }))).toEqual([
      { answer: 'It is the seat of government.', timedOut: false },
      { answer: 'The middle comparison', timedOut: true },
    ]);
    expect(fake.followUp.submitBodies).toHaveLength(1);
    expect(fake.followUp.status).toBe('done');
  });

  it('says the time is up, keeps the draft as the answer and shows the next question', async () => {
    const { exam, fake } = await serveExam({ submitted: true });
    fake.followUp.secondsPerQuestion = 30;
    useFakeClock();
    renderRoute(`/exam/${exam.id}`);
    // The route's chunk is transformed on first use: a cold run takes seconds.
    await vi.waitFor(() => expect(screen.getByRole('heading', { name: 'Question 1 of 2' })).toBeInTheDocument(), {
      timeout: 15_000,
    });
    expect(screen.getByRole('timer')).toHaveTextContent('0:30');
    fireEvent.change(answerBox(), { target: { value: 'Because of history' } });
    // Typing stays on screen; the pause after it sends the draft.
    await act(() => vi.advanceTimersByTimeAsync(1000));
    await vi.waitFor(() => expect(fake.followUp.asked[0]?.answer).toBe('Because of history'));
    expect(screen.getByRole('timer')).toHaveTextContent('0:29');

    await act(() => vi.advanceTimersByTimeAsync(30_000));
    await vi.waitFor(() => expect(screen.getByRole('heading', { name: 'Question 2 of 2' })).toBeInTheDocument());
    vi.useRealTimers();
    expect(screen.getByText(FollowUpMessages.timeUp)).toHaveAttribute('role', 'status');
    expect(fake.followUp.asked[0]).toMatchObject({ answer: 'Because of history', timedOut: true });
    expect(answerBox()).toHaveValue('');
  });

  it('saves the draft as typed with increasing seq, keeps it on this device while offline and restores it after a reload', async () => {
    const { exam, fake } = await serveExam({ submitted: true });
    const first = renderRoute(`/exam/${exam.id}`);
    await screen.findByRole('heading', { name: 'Question 1 of 2' });

    await first.user.type(answerBox(), 'Seat');
    await waitFor(() => expect(fake.followUp.asked[0]?.answer).toBe('Seat'));
    await first.user.type(answerBox(), ' of power');
    await waitFor(() => expect(fake.followUp.asked[0]?.answer).toBe('Seat of power'));
    const seqs = fake.followUp.putBodies.map((body) => body.seq);
    expect(seqs.length).toBeGreaterThanOrEqual(2);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(fake.followUp.asked[0]?.seq).toBe('Seat of power'.length);
    // Acknowledged: nothing is left on the device.
    await waitFor(() => expect(findDraft(fake.attemptId, 1)).toBeUndefined());

    fake.state.networkDown = true;
    await first.user.type(answerBox(), ' and law');
    await waitFor(() =>
      expect(screen.getByTestId('save-status')).toHaveTextContent('Offline — answers are kept on this device'),
    );
    expect(findDraft(fake.attemptId, 1)).toEqual({ answer: 'Seat of power and law', seq: 21 });
    expect(fake.followUp.asked[0]?.answer).toBe('Seat of power');

    // The page is reloaded once the connection is back: the device's newer draft is shown and sent.
    first.unmount();
    fake.state.networkDown = false;
    renderRoute(`/exam/${exam.id}/follow-up`, { answered: 1, total: 2, attemptId: fake.attemptId });
    await screen.findByRole('heading', { name: 'Question 1 of 2' });
    expect(answerBox()).toHaveValue('Seat of power and law');
    await waitFor(() => expect(fake.followUp.asked[0]).toMatchObject({ answer: 'Seat of power and law', seq: 21 }));
    await waitFor(() => expect(findDraft(fake.attemptId, 1)).toBeUndefined());
    expect(fake.followUp.startCalls).toBe(1);
  });

  it('brings a candidate back to a submitted attempt on the current question, with its draft and remaining time', async () => {
    const { exam, fake } = await serveExam({ submitted: true });
    fake.followUp.status = 'asking';
    const now = Date.now();
    const asked = (index: number, askedAt: number) => ({
      ...QUESTIONS[index]!,
      n: index + 1,
      askedAt: new Date(askedAt),
      deadline: new Date(askedAt + 180_000),
    });
    fake.followUp.asked = [
      {
        ...asked(0, now - 300_000),
        answer: 'Seat of government',
        seq: 9,
        answeredAt: new Date(now - 200_000),
        timedOut: false,
      },
      { ...asked(1, now - 60_000), answer: 'The mid', seq: 7, answeredAt: null, timedOut: false },
    ];
    const { router } = renderRoute(`/exam/${exam.id}`);

    expect(await screen.findByRole('heading', { name: 'Question 2 of 2' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(`/exam/${exam.id}/follow-up`);
    expect(screen.getByText(QUESTIONS[1]!.text)).toBeInTheDocument();
    expect(answerBox()).toHaveValue('The mid');
    expect(screen.getByRole('timer', { name: 'Time remaining' })).toHaveTextContent(/^2:0\d|1:59$/);
    expect(fake.followUp.startCalls).toBe(0);
    expect(fake.followUp.putBodies).toEqual([]);
  });

  it('sends a candidate whose follow-up is done to the completion page', async () => {
    const { exam, fake } = await serveExam({ submitted: true });
    fake.followUp.status = 'done';
    const { router } = renderRoute(`/exam/${exam.id}`);
    expect(await screen.findByRole('heading', { name: 'Exam Completed' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/taker/results');
    expect(fake.followUp.startCalls).toBe(0);
  });

  it('says why the follow-up was skipped, then shows the completion page', async () => {
    const { exam, fake } = await serveExam();
    fake.followUp.skipNote = FollowUpMessages.skippedProvider;
    await submitExam(exam);
    expect(await screen.findByRole('heading', { name: 'Exam Completed' })).toBeInTheDocument();
    expect(screen.getByText(FollowUpMessages.skippedProvider)).toHaveAttribute('role', 'status');
    expect(screen.getByTestId('answered-summary')).toHaveTextContent('1 of 2');
    expect(fake.followUp.status).toBe('skipped');
  });

  it('says the skipped note in Spanish', async () => {
    await i18n.changeLanguage('es');
    const { exam, fake } = await serveExam({ submitted: true });
    fake.followUp.skipNote = FollowUpMessages.skippedBudget;
    renderRoute(`/exam/${exam.id}`);
    expect(
      await screen.findByText('Se omitieron las preguntas de seguimiento: se agotó el presupuesto de IA del examen.'),
    ).toBeInTheDocument();
  });

  it('offers Try again when the questions cannot be prepared, and the exam stays submitted', async () => {
    const { exam, fake } = await serveExam();
    fake.followUp.startFailures = 1;
    const { user } = await submitExam(exam);

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Your exam is submitted. The follow-up questions could not be prepared');
    expect(fake.state.submitted).toBe(true);
    expect(fake.state.submitCalls).toBe(1);
    await user.click(screen.getByRole('button', { name: 'Try again' }));

    expect(await screen.findByRole('heading', { name: 'Question 1 of 2' })).toBeInTheDocument();
    expect(fake.followUp.startCalls).toBe(2);
    expect(fake.state.submitCalls).toBe(1);
  });

  it('keeps an answer whose submit failed on the page and on this device, and submits it again', async () => {
    const { exam, fake } = await serveExam({ submitted: true });
    const { user } = renderRoute(`/exam/${exam.id}`);
    await screen.findByRole('heading', { name: 'Question 1 of 2' });
    fake.state.networkDown = true;
    await user.type(answerBox(), 'Seat');
    await user.click(screen.getByRole('button', { name: 'Submit answer' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Your answer could not be sent.');
    expect(answerBox()).toHaveValue('Seat');
    expect(findDraft(fake.attemptId, 1)?.answer).toBe('Seat');

    fake.state.networkDown = false;
    await user.click(screen.getByRole('button', { name: 'Submit answer' }));
    expect(await screen.findByRole('heading', { name: 'Question 2 of 2' })).toBeInTheDocument();
    expect(fake.followUp.submitBodies).toEqual([{ n: 1, answer: 'Seat' }]);
    expect(findDraft(fake.attemptId, 1)).toBeUndefined();
  });
});
