import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { getTakerDb } from '../../../lib/taker-db.ts';
import { buildAllTypesExam, buildPublicExam, buildQuestion } from '../../../testing/factories.ts';
import { createFakeGateway } from '../../../testing/fake-gateway.ts';
import { createFakeResultsService } from '../../../testing/fake-results-service.ts';
import { renderRoute } from '../../../testing/render.tsx';
import { seedAttempt } from '../../../testing/seed.ts';
import { server } from '../../../testing/server.ts';
import { listPending, recordAnswer } from '../lib/outbox.ts';
import { listUploads } from '../lib/uploads.ts';

async function openExam(exam = buildAllTypesExam(), options: { deadline?: string | null } = {}) {
  const fake = createFakeResultsService({ exam, deadline: options.deadline ?? null });
  server.use(...fake.handlers);
  await seedAttempt(exam, fake.attemptId, { deadline: options.deadline ?? null });
  const view = renderRoute(`/exam/${exam.id}`);
  return { ...view, fake, exam };
}

describe('/exam/{examId}', () => {
  it('renders each question with the input of its type and counts answered questions', async () => {
    const { user, fake } = await openExam();
    expect(await screen.findByRole('heading', { name: 'Q1: Pick a prime' })).toBeInTheDocument();
    expect(screen.getByText('Ada Lovelace (S-1)')).toBeInTheDocument();
    expect(screen.getByTestId('answered-count')).toHaveTextContent('Answered: 0/4');
    expect(within(screen.getByRole('radiogroup')).getAllByRole('radio')).toHaveLength(4);
    expect(screen.getByLabelText('Answer for Q2')).toBeInTheDocument();
    expect(screen.getByLabelText('Upload file for Q3')).toBeInTheDocument();
    expect(await screen.findByTestId('code-editor')).toHaveAttribute('data-language', 'python');
    expect(screen.getByTestId('question-status-0')).toHaveTextContent('Pending');

    await user.click(screen.getByRole('radio', { name: '7' }));
    await user.type(screen.getByLabelText('Answer for Q2'), 'Paris');
    expect(screen.getByTestId('answered-count')).toHaveTextContent('Answered: 2/4');
    expect(screen.getByTestId('question-status-0')).toHaveTextContent('Answered');
    await waitFor(() => expect(fake.state.answers.get(1)?.answer).toBe('Paris'));
    expect(fake.state.answers.get(0)?.answer).toBe('7');
    await waitFor(() => expect(screen.getByTestId('save-status')).toHaveTextContent('Saved'));
  });

  it('uploads a file answer and records it as File: {name} without sending it again as text', async () => {
    const exam = buildPublicExam({ questions: [buildQuestion({ type: 'file-upload', title: 'Upload your report' })] });
    const { user, fake } = await openExam(exam);
    await user.upload(
      await screen.findByLabelText('Upload file for Q1'),
      new File(['%PDF'], 'report.pdf', { type: 'application/pdf' }),
    );
    expect(await screen.findByTestId('file-name-0')).toHaveTextContent('report.pdf');
    expect(screen.getByTestId('answered-count')).toHaveTextContent('Answered: 1/1');
    await waitFor(() => expect(fake.state.files.get(0)?.fileName).toBe('report.pdf'));
    expect(new TextDecoder().decode(fake.state.files.get(0)?.bytes)).toBe('%PDF');
    await waitFor(async () => expect(await listUploads(await getTakerDb(), fake.attemptId)).toEqual([]));
    expect(await listPending(await getTakerDb(), fake.attemptId)).toEqual([]);
    expect(fake.state.putCalls).toBe(0);
  });

  it('keeps a file chosen while offline through a reload and uploads it when the network returns', async () => {
    const exam = buildPublicExam({ questions: [buildQuestion({ type: 'file-upload', title: 'Upload your report' })] });
    const { user, fake, unmount } = await openExam(exam);
    const input = await screen.findByLabelText('Upload file for Q1');
    fake.state.networkDown = true;
    await user.upload(input, new File(['lab results: 42'], 'lab.txt', { type: 'text/plain' }));
    // Shown as the answer at once, kept on this device, not on the server.
    expect(await screen.findByTestId('file-name-0')).toHaveTextContent('lab.txt');
    expect(screen.getByTestId('answered-count')).toHaveTextContent('Answered: 1/1');
    await waitFor(() =>
      expect(screen.getByTestId('save-status')).toHaveTextContent('Offline — answers are kept on this device'),
    );
    expect(fake.state.files.size).toBe(0);

    // The page is reloaded while the network is still down.
    unmount();
    renderRoute(`/exam/${exam.id}`);
    expect(await screen.findByTestId('file-name-0')).toHaveTextContent('lab.txt');
    expect(screen.getByTestId('answered-count')).toHaveTextContent('Answered: 1/1');
    expect(await listUploads(await getTakerDb(), fake.attemptId)).toMatchObject([
      { questionIndex: 0, fileName: 'lab.txt', mimeType: 'text/plain' },
    ]);

    fake.state.networkDown = false;
    window.dispatchEvent(new Event('online'));
    await waitFor(() => expect(fake.state.files.get(0)).toMatchObject({ fileName: 'lab.txt', mimeType: 'text/plain' }));
    expect(new TextDecoder().decode(fake.state.files.get(0)?.bytes)).toBe('lab results: 42');
    await waitFor(() => expect(screen.getByTestId('save-status')).toHaveTextContent('Saved'));
    expect(await listUploads(await getTakerDb(), fake.attemptId)).toEqual([]);
    expect(fake.state.answers.get(0)?.answer).toBe('File: lab.txt');
    expect(fake.state.putCalls).toBe(0);
  });

  it('submits only after a file kept offline has reached the server', async () => {
    const exam = buildPublicExam({ questions: [buildQuestion({ type: 'file-upload', title: 'Upload your report' })] });
    const { user, fake } = await openExam(exam);
    const input = await screen.findByLabelText('Upload file for Q1');
    fake.state.networkDown = true;
    await user.upload(input, new File(['final'], 'final.txt', { type: 'text/plain' }));
    expect(await screen.findByTestId('file-name-0')).toHaveTextContent('final.txt');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Submit exam' }));
    setTimeout(() => (fake.state.networkDown = false), 300);
    expect(await screen.findByRole('heading', { name: 'Exam Completed' }, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.getByText('Questions Answered: 1 of 1')).toBeInTheDocument();
    expect(fake.state.files.get(0)?.fileName).toBe('final.txt');
    expect(fake.state.filesAtSubmit).toEqual([0]);
    expect(fake.state.submitCalls).toBe(1);
  });

  it('refuses a file over the size limit at once with the reason and keeps nothing', async () => {
    const exam = buildPublicExam({ questions: [buildQuestion({ type: 'file-upload', title: 'Upload your report' })] });
    const fake = createFakeResultsService({ exam });
    fake.state.uploadMaxBytes = 1024;
    server.use(...fake.handlers);
    await seedAttempt(exam, fake.attemptId);
    const { user } = renderRoute(`/exam/${exam.id}`);
    await user.upload(await screen.findByLabelText('Upload file for Q1'), new File(['x'.repeat(2048)], 'huge.bin'));
    expect(await screen.findByRole('alert')).toHaveTextContent('The file is too large. The maximum size is 1 kB.');
    expect(screen.queryByTestId('file-answer-0')).not.toBeInTheDocument();
    expect(screen.getByTestId('answered-count')).toHaveTextContent('Answered: 0/1');
    const db = await getTakerDb();
    expect(await listUploads(db, fake.attemptId)).toEqual([]);
    expect(await listPending(db, fake.attemptId)).toEqual([]);
    expect(fake.state.uploadCalls).toBe(0);
  });

  it("shows the attempt's snapshot, not the live exam the creator edited since, also after a reload while offline", async () => {
    const snapshot = buildPublicExam({
      title: 'Algebra',
      questions: [buildQuestion({ title: 'Solve x + 1 = 2' }), buildQuestion({ title: 'Factor x^2 - 1' })],
    });
    const fake = createFakeResultsService({ exam: snapshot });
    fake.state.examResponse = {
      ...snapshot,
      title: 'Algebra (edited)',
      questions: [buildQuestion({ title: 'A question added later' }), ...snapshot.questions],
    };
    server.use(...fake.handlers);
    await seedAttempt(snapshot, fake.attemptId);

    const first = renderRoute(`/exam/${snapshot.id}`);
    expect(await screen.findByRole('heading', { name: 'Q1: Solve x + 1 = 2' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Q2: Factor x^2 - 1' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Algebra' })).toBeInTheDocument();
    expect(screen.queryByText(/A question added later/)).not.toBeInTheDocument();
    expect(screen.getByTestId('answered-count')).toHaveTextContent('Answered: 0/2');
    first.unmount();

    fake.state.networkDown = true;
    renderRoute(`/exam/${snapshot.id}`);
    expect(await screen.findByRole('heading', { name: 'Q1: Solve x + 1 = 2' })).toBeInTheDocument();
    expect(screen.getByTestId('answered-count')).toHaveTextContent('Answered: 0/2');
  });

  it('resumes an answer kept on this device that the server never received', async () => {
    const exam = buildPublicExam();
    const fake = createFakeResultsService({ exam });
    server.use(...fake.handlers);
    await seedAttempt(exam, fake.attemptId);
    fake.state.answers.set(0, { answer: 'older', seq: 1 });
    const db = await getTakerDb();
    await recordAnswer(db, fake.attemptId, 0, 'older');
    await recordAnswer(db, fake.attemptId, 0, 'typed before the crash');
    renderRoute(`/exam/${exam.id}`);
    expect(await screen.findByLabelText('Answer for Q1')).toHaveValue('typed before the crash');
    await waitFor(() => expect(fake.state.answers.get(0)).toEqual({ answer: 'typed before the crash', seq: 2 }));
  });

  it('keeps answers typed while the network is down and shows the offline status until they are sent', async () => {
    const { user, fake } = await openExam(buildPublicExam());
    const field = await screen.findByLabelText('Answer for Q1');
    fake.state.networkDown = true;
    await user.type(field, 'offline answer');
    await waitFor(() =>
      expect(screen.getByTestId('save-status')).toHaveTextContent('Offline — answers are kept on this device'),
    );
    fake.state.networkDown = false;
    window.dispatchEvent(new Event('online'));
    await waitFor(() => expect(fake.state.answers.get(0)?.answer).toBe('offline answer'));
    await waitFor(() => expect(screen.getByTestId('save-status')).toHaveTextContent('Saved'));
  });

  it('submits, then shows the completion page with the answered count and a link to the result', async () => {
    const { user, fake } = await openExam(buildPublicExam());
    await user.type(await screen.findByLabelText('Answer for Q1'), 'done');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Submit exam' }));
    expect(await screen.findByRole('heading', { name: 'Exam Completed' })).toBeInTheDocument();
    expect(screen.getByText('Questions Answered: 1 of 1')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'View your result' })).toHaveAttribute(
      'href',
      `/taker/results/${fake.attemptId}`,
    );
    expect(fake.state.answers.get(0)?.answer).toBe('done');
    expect(fake.state.submitCalls).toBe(1);
  });

  it('shows the countdown from the server deadline and submits when it reaches zero', async () => {
    const deadline = new Date(Date.now() + 1500).toISOString();
    const { fake } = await openExam(buildPublicExam({ timerEnabled: true, timerMinutes: 1 }), { deadline });
    expect(await screen.findByRole('timer', { name: 'Time remaining' })).toHaveTextContent(/^0:0[12]$/);
    expect(await screen.findByRole('heading', { name: 'Exam Completed' }, { timeout: 6000 })).toBeInTheDocument();
    expect(fake.state.submitCalls).toBe(1);
  });

  it('redirects to the start page with a toast when the exam is offline', async () => {
    server.use(
      http.get('/api/public/exams/:id', () =>
        HttpResponse.json({ error: { code: 'EXAM_OFFLINE', message: 'offline' } }, { status: 403 }),
      ),
    );
    const { router } = renderRoute('/exam/gone');
    expect(await screen.findByText('This exam is currently offline')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/taker/start'));
  });

  it('shows the unavailable screen when the exam cannot be loaded and nothing is kept locally', async () => {
    server.use(http.get('/api/public/exams/:id', () => HttpResponse.error()));
    renderRoute('/exam/unknown');
    expect(await screen.findByRole('heading', { name: 'Exam not found or unavailable' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Back to Start' })).toBeInTheDocument();
  });

  it('shows the no-questions screen for an exam without questions', async () => {
    await openExam(buildPublicExam({ questions: [] }));
    expect(await screen.findByRole('heading', { name: 'This exam has no questions' })).toBeInTheDocument();
  });

  it('sends a candidate without a started attempt to the details form', async () => {
    const exam = buildPublicExam({ title: 'Chemistry' });
    server.use(http.get('/api/public/exams/:id', () => HttpResponse.json(exam)));
    const { router } = renderRoute(`/exam/${exam.id}`);
    expect(await screen.findByRole('heading', { name: 'Enter Your Details' })).toBeInTheDocument();
    expect(router.state.location.state).toMatchObject({ examId: exam.id, examTitle: 'Chemistry' });
  });

  it('offers no panel toggles when the exam has only its questions', async () => {
    await openExam(buildPublicExam());
    await screen.findByTestId('panel-questions');
    expect(screen.queryByRole('group', { name: 'Panels' })).not.toBeInTheDocument();
    expect(screen.queryByTestId('panel-assistant')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Restore All' })).not.toBeInTheDocument();
  });

  it('hides a panel on toggle and restores all when the last one is hidden', async () => {
    const exam = buildPublicExam();
    server.use(...createFakeGateway().handlers);
    const { user } = await openExam({ ...exam, aiSettings: { ...exam.aiSettings, enabled: true } });
    await screen.findByTestId('panel-questions');
    await user.click(screen.getByRole('button', { name: 'Questions' }));
    expect(screen.queryByTestId('panel-questions')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Assistant' }));
    expect(screen.getByTestId('panel-questions')).toBeInTheDocument();
    expect(screen.getByTestId('panel-assistant')).toBeInTheDocument();
    expect(screen.getAllByRole('separator', { name: 'Resize panels' })).toHaveLength(1);
  });
});
