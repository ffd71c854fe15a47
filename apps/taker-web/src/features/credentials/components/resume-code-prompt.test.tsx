import { ResumeMessages } from '@exam/domain/attempt-binding';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { findResume } from '../../../lib/resume-store.ts';
import { buildPublicExam } from '../../../testing/factories.ts';
import { createFakeResultsService } from '../../../testing/fake-results-service.ts';
import { renderRoute } from '../../../testing/render.tsx';
import { server } from '../../../testing/server.ts';

const state = { examId: 'exam-9', examTitle: 'Chemistry', fullScreenRequested: false };
const refusal = (status: number, code: string, message: string, field = true) =>
  HttpResponse.json(
    { error: { code, message, ...(field ? { issues: [{ path: 'resumeCode', message }] } : {}) } },
    { status },
  );

/** results-service as it answers a candidate ID whose attempt started elsewhere: the code is 7KQ2M9XD. */
function attemptElsewhere() {
  const bodies: Record<string, unknown>[] = [];
  server.use(
    http.post('/api/attempts', async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      bodies.push(body);
      if (body.resumeCode === undefined) return refusal(403, 'FORBIDDEN', ResumeMessages.required);
      if (String(body.resumeCode).replace('-', '').toUpperCase() !== '7KQ2M9XD')
        return refusal(403, 'FORBIDDEN', ResumeMessages.wrong);
      return HttpResponse.json({
        attemptId: 'attempt-1',
        token: 'attempt-token',
        startedAt: new Date().toISOString(),
        deadline: null,
        resumed: true,
        resumeSecret: 'secret-for-this-device',
      });
    }),
  );
  return bodies;
}

/** Name and ID, Continue, then Start Exam on the briefing. */
async function fillDetails(user: ReturnType<typeof renderRoute>['user']) {
  await user.type(await screen.findByLabelText('Full Name'), 'Ada Lovelace');
  await user.type(screen.getByLabelText('Candidate ID'), 'S-42');
  await user.click(screen.getByRole('button', { name: 'Continue' }));
  await user.click(await screen.findByRole('button', { name: 'Start Exam' }));
}

describe('the resume code on the details form', () => {
  // The exam's summary and the briefing on the way in; each test adds the starts it plays.
  beforeEach(() => {
    server.use(...createFakeResultsService({ exam: buildPublicExam({ id: 'exam-9', title: 'Chemistry' }) }).handlers);
  });

  it('asks for the resume code when the server says the attempt started elsewhere, keeping what was typed', async () => {
    attemptElsewhere();
    const { user, router } = renderRoute('/taker/credentials', state);
    await fillDetails(user);
    expect(await screen.findByTestId('resume-code-notice')).toHaveTextContent(ResumeMessages.required);
    expect(screen.getByLabelText('Resume code')).toBeInTheDocument();
    expect(screen.getByLabelText('Full Name')).toHaveValue('Ada Lovelace');
    expect(screen.getByLabelText('Candidate ID')).toHaveValue('S-42');
    expect(router.state.location.pathname).toBe('/taker/credentials');
  });

  it('shows the refusal of a wrong code on the field, and a right code opens the exam and is kept with the new secret', async () => {
    const exam = buildPublicExam({ id: 'exam-9', title: 'Chemistry' });
    const fake = createFakeResultsService({ exam });
    server.use(...fake.handlers);
    const bodies = attemptElsewhere();
    const { user, router } = renderRoute('/taker/credentials', state);
    await fillDetails(user);
    const field = await screen.findByLabelText('Resume code');
    await user.click(screen.getByRole('button', { name: 'Start Exam' }));
    expect(await screen.findByText('Enter the resume code')).toBeInTheDocument();
    await user.type(field, 'AAAA-BBBB');
    await user.click(screen.getByRole('button', { name: 'Start Exam' }));
    expect(await screen.findByText(ResumeMessages.wrong)).toBeInTheDocument();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    await user.clear(field);
    await user.type(field, '7kq2-m9xd');
    await user.click(screen.getByRole('button', { name: 'Start Exam' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/exam/exam-9'));
    expect(bodies.map((b) => b.resumeCode)).toEqual([undefined, 'AAAA-BBBB', '7kq2-m9xd']);
    expect(findResume('exam-9', 's-42')).toEqual({
      attemptId: 'attempt-1',
      secret: 'secret-for-this-device',
      code: '7KQ2-M9XD',
    });
  });

  it('shows the wait for too many wrong codes on the field', async () => {
    const message = ResumeMessages.tooMany(30);
    server.use(
      http.post('/api/attempts', async ({ request }) => {
        const body = (await request.json()) as Record<string, unknown>;
        return body.resumeCode === undefined
          ? refusal(403, 'FORBIDDEN', ResumeMessages.required)
          : refusal(429, 'RATE_LIMITED', message);
      }),
    );
    const { user } = renderRoute('/taker/credentials', state);
    await fillDetails(user);
    await user.type(await screen.findByLabelText('Resume code'), '7KQ2M9XD');
    await user.click(screen.getByRole('button', { name: 'Start Exam' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(screen.getByLabelText('Resume code')).toHaveAttribute('aria-invalid', 'true');
  });

  it('says when too many exams were started from the network, without asking for a code', async () => {
    const message = ResumeMessages.startsPerClient(120);
    server.use(http.post('/api/attempts', () => refusal(429, 'RATE_LIMITED', message, false)));
    const { user } = renderRoute('/taker/credentials', state);
    await fillDetails(user);
    await waitFor(() => expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toContain(message));
    expect(screen.queryByLabelText('Resume code')).not.toBeInTheDocument();
  });

  it.each([
    { attemptsAllowed: 2, onCompletion: true },
    { attemptsAllowed: 1, onCompletion: false },
  ])(
    'shows the resume code in the exam menu, and on the completion page only while an attempt is left ($attemptsAllowed allowed)',
    async ({ attemptsAllowed, onCompletion }) => {
      const exam = buildPublicExam({ id: 'exam-9', title: 'Chemistry', attemptsAllowed });
      const fake = createFakeResultsService({ exam });
      server.use(...fake.handlers);
      const { user, router, unmount } = renderRoute('/taker/credentials', state);
      await fillDetails(user);
      await waitFor(() => expect(router.state.location.pathname).toBe('/exam/exam-9'));
      await user.click(await screen.findByRole('button', { name: 'Resume code' }));
      expect(within(screen.getByRole('dialog', { name: 'Resume code' })).getByTestId('resume-code')).toHaveTextContent(
        '7KQ2-M9XD',
      );
      unmount();
      renderRoute('/taker/results', { answered: 1, total: 2, attemptId: fake.attemptId });
      expect(await screen.findByTestId('answered-summary')).toBeInTheDocument();
      if (onCompletion) expect(screen.getByTestId('resume-code')).toHaveTextContent('7KQ2-M9XD');
      else expect(screen.queryByTestId('resume-code')).not.toBeInTheDocument();
    },
  );

  it('sends the resume secret this browser kept when the same candidate starts again', async () => {
    const exam = buildPublicExam({ id: 'exam-9', title: 'Chemistry' });
    const fake = createFakeResultsService({ exam });
    server.use(...fake.handlers);
    const first = renderRoute('/taker/credentials', state);
    await fillDetails(first.user);
    await waitFor(() => expect(first.router.state.location.pathname).toBe('/exam/exam-9'));
    first.unmount();
    const again = renderRoute('/taker/credentials', state);
    await again.user.type(await screen.findByLabelText('Full Name'), 'Ada Lovelace');
    await again.user.type(screen.getByLabelText('Candidate ID'), ' s-42 ');
    await again.user.click(screen.getByRole('button', { name: 'Continue' }));
    await again.user.click(await screen.findByRole('button', { name: 'Start Exam' }));
    await waitFor(() => expect(fake.state.startBodies).toHaveLength(2));
    expect(fake.state.startBodies[0]?.resumeSecret).toBeUndefined();
    expect(fake.state.startBodies[1]?.resumeSecret).toBe('secret-of-this-browser');
  });
});
