import type { GradeResult, ResultDetail } from '@exam/domain/result';
import { notifyManager } from '@tanstack/react-query';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { signInAs } from '../../../testing/factories.ts';
import { errorBody } from '../../../testing/handlers.ts';
import { renderApp } from '../../../testing/render.tsx';
import { server } from '../../../testing/server.ts';
import { makeResultDetail } from './result-factories.ts';

// React Query batches renders through setTimeout(0); with the clock faked those must not wait for it.
beforeAll(() => notifyManager.setScheduler(queueMicrotask));
afterEach(() => vi.useRealTimers());

/** A fake results-service that applies PATCHes like the real one (score over graded questions) and can fail. */
function serveResult(initial: ResultDetail, opts: { failPatches?: number } = {}) {
  const patches: GradeResult[] = [];
  let failures = opts.failPatches ?? 0;
  let current = initial;
  server.use(
    http.get('*/api/results/:id', ({ params }) =>
      params.id === current.id
        ? HttpResponse.json(current)
        : HttpResponse.json(errorBody('NOT_FOUND', 'Result not found'), { status: 404 }),
    ),
    http.patch('*/api/results/:id', async ({ request }) => {
      const body = (await request.json()) as GradeResult;
      patches.push(body);
      if (failures > 0) {
        failures -= 1;
        return HttpResponse.json(errorBody('INTERNAL', 'boom'), { status: 500 });
      }
      const questionAnswers = current.questionAnswers.map((qa) => {
        const entry = body.grading.find((g) => g.questionIndex === qa.questionIndex);
        return entry
          ? {
              ...qa,
              isGraded: entry.isGraded,
              isCorrect: entry.isGraded ? (entry.isCorrect ?? null) : null,
              feedback: entry.feedback,
            }
          : qa;
      });
      const gradedCount = questionAnswers.filter((qa) => qa.isGraded).length;
      const correctCount = questionAnswers.filter((qa) => qa.isCorrect === true).length;
      const isGraded = gradedCount === questionAnswers.length;
      current = {
        ...current,
        questionAnswers,
        gradedCount,
        correctCount,
        isGraded,
        gradedAt: isGraded ? '2025-01-06T09:00:00.000Z' : null,
        score: isGraded ? Math.round((100 * correctCount) / questionAnswers.length) : null,
      };
      return HttpResponse.json(current);
    }),
    http.get('*/api/llm/attempts/:attemptId/transcript', () => HttpResponse.json({ messages: [] })),
  );
  return patches;
}

async function openResult(detail: ResultDetail) {
  signInAs();
  renderApp(`/creator/result/${detail.id}`);
  await screen.findByRole('heading', { name: 'Exam Result Details' });
}

const badge = () => screen.getByTestId('result-score');
const verdict = (question: number, name: 'Correct' | 'Incorrect') =>
  within(screen.getByRole('group', { name: `Question ${question}` })).getByRole('button', { name });

describe('result details', () => {
  it('auto-saves a verdict 500 ms after the change, showing it unsaved meanwhile', async () => {
    const detail = makeResultDetail();
    const patches = serveResult(detail);
    await openResult(detail);
    expect(badge()).toHaveTextContent('1/3 correct');

    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    fireEvent.click(verdict(2, 'Correct'));
    expect(badge()).toHaveTextContent('2/3 correct (unsaved)');
    expect(badge()).toHaveAttribute('data-tone', 'info');
    expect(screen.getByRole('button', { name: 'Save Grading' })).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(499));
    expect(patches).toHaveLength(0);
    act(() => vi.advanceTimersByTime(1));
    vi.useRealTimers();

    await waitFor(() => expect(patches).toHaveLength(1));
    expect(patches[0]!.grading[1]).toEqual({ questionIndex: 1, isGraded: true, isCorrect: true, feedback: '' });
    await waitFor(() => expect(badge()).toHaveTextContent(/^2\/3 correct$/));
    expect(badge()).toHaveAttribute('data-tone', 'warning');
    expect(screen.queryByRole('button', { name: 'Save Grading' })).not.toBeInTheDocument();
  });

  it('debounces quick changes into one save and unchecks a verdict back to ungraded', async () => {
    const detail = makeResultDetail();
    const patches = serveResult(detail);
    await openResult(detail);

    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    fireEvent.click(verdict(2, 'Correct'));
    act(() => vi.advanceTimersByTime(300));
    fireEvent.click(verdict(3, 'Incorrect'));
    act(() => vi.advanceTimersByTime(300));
    fireEvent.click(verdict(1, 'Correct'));
    expect(verdict(1, 'Correct')).toHaveAttribute('aria-pressed', 'false');
    act(() => vi.advanceTimersByTime(499));
    expect(patches).toHaveLength(0);
    act(() => vi.advanceTimersByTime(1));
    vi.useRealTimers();

    await waitFor(() => expect(patches).toHaveLength(1));
    expect(patches[0]!.grading.map((g) => [g.isGraded, g.isCorrect])).toEqual([
      [false, null],
      [true, true],
      [true, false],
    ]);
    await waitFor(() => expect(badge()).toHaveTextContent(/^1\/3 correct$/));
  });

  it('shows a failed save with Retry, keeps the change and retries it automatically with backoff', async () => {
    const detail = makeResultDetail();
    const patches = serveResult(detail, { failPatches: 1 });
    await openResult(detail);

    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    fireEvent.click(verdict(2, 'Correct'));
    fireEvent.click(verdict(3, 'Correct'));
    act(() => vi.advanceTimersByTime(500));
    vi.useRealTimers();
    expect(await screen.findByRole('alert')).toHaveTextContent('The grading could not be saved');
    expect(screen.getByRole('button', { name: 'Retry now' })).toBeInTheDocument();
    expect(badge()).toHaveTextContent('3/3 correct (unsaved)');
    expect(patches).toHaveLength(1);

    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    act(() => vi.advanceTimersByTime(999));
    expect(patches).toHaveLength(1);
    act(() => vi.advanceTimersByTime(1));
    vi.useRealTimers();
    await waitFor(() => expect(patches).toHaveLength(2));
    expect(patches[1]).toEqual(patches[0]);
    await waitFor(() => expect(badge()).toHaveTextContent('3 correct (graded Jan 6, 2025)'));
    expect(badge()).toHaveAttribute('data-tone', 'success');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('sends changes still waiting for the timer when the grader leaves the page', async () => {
    const detail = makeResultDetail();
    const patches = serveResult(detail);
    await openResult(detail);
    fireEvent.click(verdict(3, 'Incorrect'));
    fireEvent.click(screen.getByRole('link', { name: 'Back to Dashboard' }));
    await screen.findByRole('heading', { name: 'Dashboard' });
    await waitFor(() => expect(patches).toHaveLength(1));
    expect(patches[0]!.grading[2]).toEqual({ questionIndex: 2, isGraded: true, isCorrect: false, feedback: '' });
  });

  it("shows 'Result not found' with a way back for an unknown result", async () => {
    serveResult(makeResultDetail());
    signInAs();
    renderApp('/creator/result/missing');
    expect(await screen.findByText('Result not found')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute('href', '/creator/dashboard');
  });
});
