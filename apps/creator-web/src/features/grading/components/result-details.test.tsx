import type { ResultDetail } from '@exam/domain/result';
import { notifyManager } from '@tanstack/react-query';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { signInAs } from '../../../testing/factories.ts';
import { fakeResultService } from '../../../testing/fake-result-service.ts';
import { renderApp } from '../../../testing/render.tsx';
import { server } from '../../../testing/server.ts';
import { makeResultDetail } from '../../../testing/result-factories.ts';

// React Query batches renders through setTimeout(0); with the clock faked those must not wait for it.
beforeAll(() => notifyManager.setScheduler(queueMicrotask));
afterEach(() => vi.useRealTimers());

function serveResult(initial: ResultDetail, opts: { failPatches?: number } = {}) {
  const fake = fakeResultService(initial, opts);
  server.use(...fake.handlers);
  return fake;
}

async function openResult(detail: ResultDetail) {
  signInAs();
  const view = renderApp(`/creator/result/${detail.id}`);
  await screen.findByRole('heading', { name: 'Exam Result Details' });
  return view;
}

const score = () => screen.getByTestId('result-score');
const question = (n: number) => screen.getByRole('group', { name: `Question ${n}` });
const action = (n: number, name: 'Full marks' | 'Zero' | 'Clear mark') =>
  within(question(n)).getByRole('button', { name });

describe('result details', () => {
  it("counts proctoring events from the server's summary, not from the newest events it lists", async () => {
    const detail = makeResultDetail({
      events: [
        { type: 'focus-lost', at: '2030-01-01T10:00:00.000Z', clientAt: null, questionIndex: null, detail: null },
      ],
      eventSummary: { 'focus-lost': 250, 'paste-blocked': 3 },
      eventsTruncated: true,
    });
    serveResult(detail);
    await openResult(detail);
    const counts = screen.getByLabelText('Event counts');
    expect(within(counts).getByText('Focus lost').nextElementSibling).toHaveTextContent('250');
    expect(within(counts).getByText('External pastes blocked').nextElementSibling).toHaveTextContent('3');
  });

  it('reads "awaiting grading" for a pending result, never Incorrect or 0%', async () => {
    const detail = makeResultDetail();
    serveResult(detail);
    await openResult(detail);
    expect(score()).toHaveTextContent('1 / 3 points · awaiting grading');
    expect(score()).toHaveTextContent('Pending');
    expect(within(question(1)).getByText('1 / 1 point')).toBeInTheDocument();
    expect(within(question(1)).getByText('Scored by key')).toBeInTheDocument();
    expect(within(question(2)).getByText('— / 1 point')).toBeInTheDocument();
    expect(within(question(2)).getByText('Awaiting grading')).toBeInTheDocument();
    expect(screen.queryByText(/Incorrect/)).not.toBeInTheDocument();
    expect(screen.queryByText(/0%/)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Release result' })).toBeDisabled();
  });

  it('auto-saves a mark 500 ms after the change and shows the score the server computed', async () => {
    const detail = makeResultDetail();
    const fake = serveResult(detail);
    await openResult(detail);

    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    fireEvent.click(action(2, 'Full marks'));
    expect(within(question(2)).getByText('1 / 1 point')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save Grading' })).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(499));
    expect(fake.patches).toHaveLength(0);
    act(() => vi.advanceTimersByTime(1));
    vi.useRealTimers();

    await waitFor(() => expect(fake.patches).toHaveLength(1));
    expect(fake.patches[0]!.grading).toEqual([{ questionIndex: 1, points: 1, feedback: '', criteria: [] }]);
    await waitFor(() => expect(score()).toHaveTextContent('2 / 3 points · awaiting grading'));
    expect(screen.queryByRole('button', { name: 'Save Grading' })).not.toBeInTheDocument();
  });

  it('sets points with Full marks (pressing it again changes nothing) and removes a mark with Clear mark (null)', async () => {
    const detail = makeResultDetail();
    const fake = serveResult(detail);
    const { user } = await openResult(detail);
    const points = within(question(2)).getByLabelText('Points for question 2');

    await user.click(action(2, 'Full marks'));
    await user.click(action(2, 'Full marks'));
    expect(points).toHaveValue(1);
    await waitFor(() => expect(fake.patches).toHaveLength(1));
    expect(fake.patches[0]!.grading).toEqual([{ questionIndex: 1, points: 1, feedback: '', criteria: [] }]);
    await waitFor(() => expect(score()).toHaveTextContent('2 / 3 points'));

    await user.click(action(2, 'Clear mark'));
    expect(points).toHaveValue(null);
    await waitFor(() => expect(fake.patches).toHaveLength(2));
    expect(fake.patches[1]!.grading).toEqual([{ questionIndex: 1, points: null, feedback: '', criteria: [] }]);
    await waitFor(() => expect(score()).toHaveTextContent('1 / 3 points · awaiting grading'));
  });

  it('debounces quick changes into one save of the touched questions', async () => {
    const detail = makeResultDetail();
    const fake = serveResult(detail);
    await openResult(detail);

    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    fireEvent.click(action(2, 'Full marks'));
    act(() => vi.advanceTimersByTime(300));
    fireEvent.change(within(question(3)).getByLabelText('Points for question 3'), { target: { value: '0.5' } });
    act(() => vi.advanceTimersByTime(300));
    fireEvent.click(action(1, 'Zero'));
    act(() => vi.advanceTimersByTime(499));
    expect(fake.patches).toHaveLength(0);
    act(() => vi.advanceTimersByTime(1));
    vi.useRealTimers();

    await waitFor(() => expect(fake.patches).toHaveLength(1));
    expect(fake.patches[0]!.grading.map((g) => [g.questionIndex, g.points])).toEqual([
      [0, 0],
      [1, 1],
      [2, 0.5],
    ]);
    await waitFor(() => expect(score()).toHaveTextContent('1.5 / 3 points · 50%'));
    expect(score()).toHaveTextContent('Graded');
  });

  it('shows a failed save with Retry, keeps the change and retries it automatically with backoff', async () => {
    const detail = makeResultDetail();
    const fake = serveResult(detail, { failPatches: 1 });
    await openResult(detail);

    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    fireEvent.click(action(2, 'Full marks'));
    fireEvent.click(action(3, 'Full marks'));
    act(() => vi.advanceTimersByTime(500));
    vi.useRealTimers();
    expect(await screen.findByRole('alert')).toHaveTextContent('The grading could not be saved');
    expect(screen.getByRole('button', { name: 'Retry now' })).toBeInTheDocument();
    expect(score()).toHaveTextContent('1 / 3 points · awaiting grading');
    expect(fake.patches).toHaveLength(1);

    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    act(() => vi.advanceTimersByTime(999));
    expect(fake.patches).toHaveLength(1);
    act(() => vi.advanceTimersByTime(1));
    vi.useRealTimers();
    await waitFor(() => expect(fake.patches).toHaveLength(2));
    expect(fake.patches[1]).toEqual(fake.patches[0]);
    await waitFor(() => expect(score()).toHaveTextContent('3 / 3 points · 100%'));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('sends changes still waiting for the timer when the grader leaves the page', async () => {
    const detail = makeResultDetail();
    const fake = serveResult(detail);
    await openResult(detail);
    fireEvent.click(action(3, 'Zero'));
    fireEvent.click(screen.getByRole('link', { name: 'Back to Dashboard' }));
    await screen.findByRole('heading', { name: 'Dashboard' });
    await waitFor(() => expect(fake.patches).toHaveLength(1));
    expect(fake.patches[0]!.grading).toEqual([{ questionIndex: 2, points: 0, feedback: '', criteria: [] }]);
  });

  it('sets the points to the sum of the ticked rubric criteria', async () => {
    const detail = makeResultDetail();
    detail.questionAnswers[1] = {
      ...detail.questionAnswers[1]!,
      maxPoints: 3,
      rubric: {
        id: 'r1',
        title: 'Explanation',
        criteria: [
          { id: 'c1', description: 'Names the base case', points: 1 },
          { id: 'c2', description: 'Gives an example', points: 1.5 },
        ],
      },
    };
    const fake = serveResult(detail);
    const { user } = await openResult(detail);
    await user.click(within(question(2)).getByRole('checkbox', { name: 'Names the base case (1 point)' }));
    await user.click(within(question(2)).getByRole('checkbox', { name: 'Gives an example (1.5 points)' }));
    expect(within(question(2)).getByLabelText('Points for question 2')).toHaveValue(2.5);
    await waitFor(() =>
      expect(fake.patches.at(-1)?.grading).toEqual([
        { questionIndex: 1, points: 2.5, feedback: '', criteria: ['c1', 'c2'] },
      ]),
    );
  });

  it('lists the grade history and releases a graded result, then withdraws the release', async () => {
    const detail = makeResultDetail();
    serveResult(detail);
    const { user } = await openResult(detail);
    await user.click(action(2, 'Full marks'));
    await user.click(action(3, 'Zero'));
    await waitFor(() => expect(score()).toHaveTextContent('2 / 3 points · 66.7%'));
    const history = screen.getByRole('list', { name: 'Grade history' });
    expect(history).toHaveTextContent('creator@example.com · Q2: — → 1 point');

    await user.click(screen.getByRole('button', { name: 'Release result' }));
    await waitFor(() => expect(score()).toHaveTextContent('Released'));
    expect(screen.getByRole('list', { name: 'Grade history' })).toHaveTextContent('Released to the candidate');
    await user.click(screen.getByRole('button', { name: 'Withdraw release' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Release result' })).toBeEnabled());
  });

  it("shows 'Result not found' with a way back for an unknown result", async () => {
    serveResult(makeResultDetail());
    signInAs();
    renderApp('/creator/result/missing');
    expect(await screen.findByText('Result not found')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute('href', '/creator/dashboard');
  });
});
