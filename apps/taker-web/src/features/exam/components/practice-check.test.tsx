import type { PracticeCheck } from '@exam/domain/practice';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { buildPublicExam, buildQuestion } from '../../../testing/factories.ts';
import { createFakeResultsService } from '../../../testing/fake-results-service.ts';
import { renderRoute } from '../../../testing/render.tsx';
import { seedAttempt } from '../../../testing/seed.ts';
import { server } from '../../../testing/server.ts';

async function openExam(practice: boolean) {
  const exam = buildPublicExam({
    practice,
    questions: [buildQuestion({ type: 'short-answer', title: 'Lightest element' })],
  });
  const fake = createFakeResultsService({ exam });
  const checks: Array<{ answer: string; seq: number }> = [];
  server.use(
    http.post('/api/attempts/:attemptId/questions/:questionIndex/check', async ({ request }) => {
      const body = (await request.json()) as { answer: string; seq: number };
      checks.push(body);
      const right = body.answer.trim() === 'Hydrogen';
      const check: PracticeCheck = {
        questionIndex: 0,
        verdict: right ? 'correct' : 'incorrect',
        points: right ? 1 : 0,
        maxPoints: 1,
        feedback: right ? ['Yes.'] : ['It has one proton.'],
        correctAnswer: null,
        parts: null,
      };
      return HttpResponse.json(check);
    }),
    ...fake.handlers,
  );
  await seedAttempt(exam, fake.attemptId);
  renderRoute(`/exam/${exam.id}`);
  await screen.findByRole('heading', { name: 'Q1: Lightest element' });
  return { checks };
}

describe('checking an answer in a practice exam', () => {
  it('says the exam is practice, and announces the verdict and feedback of the answer on screen', async () => {
    const user = userEvent.setup();
    const { checks } = await openExam(true);
    expect(screen.getByTestId('practice-banner')).toHaveTextContent(
      'Practice: your answers are checked as you go and do not count',
    );
    await user.type(screen.getByLabelText('Answer for Q1'), 'Helium');
    await user.click(await screen.findByRole('button', { name: 'Check answer' }));
    const outcome = screen.getByTestId('practice-outcome-0');
    expect(outcome).toHaveAttribute('aria-live', 'polite');
    await waitFor(() => expect(outcome).toHaveTextContent('Incorrect'));
    expect(within(outcome).getByText('It has one proton.')).toBeInTheDocument();
    // The check carries the outbox's seq for the question, never one above it.
    expect(checks.at(-1)).toMatchObject({ answer: 'Helium' });
    expect(checks.at(-1)!.seq).toBeGreaterThan(0);

    // A changed answer is no longer the one checked: its verdict goes until it is checked again.
    await user.clear(screen.getByLabelText('Answer for Q1'));
    await user.type(screen.getByLabelText('Answer for Q1'), 'Hydrogen');
    expect(outcome).toBeEmptyDOMElement();
    await user.click(screen.getByRole('button', { name: 'Check answer' }));
    await waitFor(() => expect(outcome).toHaveTextContent('Correct'));
    expect(outcome).toHaveTextContent('1 / 1 point');
  });

  it('offers no check and no banner in a real exam', async () => {
    await openExam(false);
    expect(screen.queryByRole('button', { name: 'Check answer' })).not.toBeInTheDocument();
    expect(screen.queryByTestId('practice-banner')).not.toBeInTheDocument();
  });
});
