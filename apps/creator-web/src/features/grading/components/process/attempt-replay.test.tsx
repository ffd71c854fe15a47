import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { attemptSecond, makeRecordedTimeline } from '../../../../testing/timeline-factories.ts';
import { AttemptReplay } from './attempt-replay.tsx';

afterEach(() => vi.useRealTimers());

const slider = () => screen.getByRole('slider', { name: 'Time in the attempt' });
const answer = (n: number) => screen.getByTestId(`replay-answer-${n - 1}`);
const clock = () => screen.getByText(/of 01:30$/);
const announcement = () => screen.getByTestId('replay-announcement');

function renderReplay(timeline = makeRecordedTimeline()) {
  const user = userEvent.setup({ delay: null });
  return { user, ...render(<AttemptReplay timeline={timeline} />) };
}

describe('the attempt replay', () => {
  it('shows every answer, file, message and proctoring event as it was at the scrubbed moment', () => {
    renderReplay();
    expect(answer(1)).toHaveTextContent('(empty)');
    expect(screen.getByText('No messages to the assistant yet.')).toBeInTheDocument();

    fireEvent.change(slider(), { target: { value: '10250' } });
    expect(clock()).toHaveTextContent('00:10 of 01:30');
    // Three keys of the coalesced run are down by 10.25 s.
    expect(answer(1)).toHaveTextContent(/^Hel$/);
    expect(answer(2)).toHaveTextContent(/^x$/);
    expect(screen.getByText('main.py').closest('summary')).toHaveTextContent('main.py not created yet');
    expect(screen.queryByText('print("hi")')).not.toBeInTheDocument();

    fireEvent.change(slider(), { target: { value: '46000' } });
    expect(answer(1)).toHaveTextContent(/^Hello world$/);
    expect(screen.getByTestId('replay-file-main.py')).toHaveTextContent('print("hi")');
    const integrity = within(screen.getByRole('list', { name: 'Proctoring events so far' })).getAllByRole('listitem');
    expect(integrity.map((item) => item.textContent)).toEqual([
      '00:20 Pasted inside the exam (question 1)',
      '00:30 Left the exam page',
      '00:40 Came back to the exam page',
      '00:45 Paste from outside the exam blocked (question 1) (most recent)',
    ]);
    expect(integrity[3]).toHaveAttribute('aria-current', 'true');
    expect(screen.getByTestId('replay-page-state')).toHaveTextContent('On the exam page, in full screen');

    fireEvent.change(slider(), { target: { value: '52000' } });
    const conversation = screen.getByRole('list', { name: 'Assistant conversation so far' });
    expect(within(conversation).getAllByRole('listitem')).toHaveLength(1);
    expect(conversation).toHaveTextContent('What is a greeting?');
    expect(conversation).not.toHaveTextContent('A way to say hello.');

    fireEvent.change(slider(), { target: { value: '75000' } });
    expect(answer(1)).toHaveTextContent(/^Hello world — a greeting$/);
    expect(within(conversation).getAllByRole('listitem')[1]).toHaveAttribute('aria-current', 'true');
    expect(screen.getByTestId('replay-page-state')).toHaveTextContent('On the exam page, out of full screen');
  });

  it('steps one event with the arrow keys, ten with Page Up and Down, and to either end with Home and End', async () => {
    const { user } = renderReplay();
    await user.click(slider());
    fireEvent.change(slider(), { target: { value: '0' } });

    await user.keyboard('{ArrowRight}');
    expect(slider()).toHaveValue('5000');
    expect(answer(2)).toHaveTextContent(/^x$/);
    expect(announcement()).toHaveTextContent('00:05: Edited question 2');
    expect(slider()).toHaveAttribute('aria-valuetext', '00:05 elapsed: Edited question 2');

    await user.keyboard('{ArrowUp}');
    expect(slider()).toHaveValue('10000');
    await user.keyboard('{ArrowLeft}');
    expect(slider()).toHaveValue('5000');

    await user.keyboard('{PageUp}');
    // Ten events on from 5 s: 10, 15, 20, 30, 40, 45, 50, 55, 60, 70.
    expect(slider()).toHaveValue('70000');
    expect(announcement()).toHaveTextContent('01:10: Left full screen');
    await user.keyboard('{PageDown}');
    expect(slider()).toHaveValue('5000');

    await user.keyboard('{End}');
    expect(slider()).toHaveValue('90000');
    expect(announcement()).toHaveTextContent('01:30: End of the attempt');
    await user.keyboard('{Home}');
    expect(slider()).toHaveValue('0');
    expect(announcement()).toHaveTextContent('00:00: nothing has happened yet');
  });

  it('jumps to an event chosen from the list and marks it current', async () => {
    const { user } = renderReplay();
    const events = screen.getByRole('list', { name: 'Events' });
    // Answer edits show in the answers themselves, not in the list.
    expect(within(events).queryByText(/Edited question/)).not.toBeInTheDocument();
    await user.click(within(events).getByRole('button', { name: '00:50 Wrote to the assistant (question 1)' }));
    expect(slider()).toHaveValue('50000');
    expect(within(events).getByRole('button', { name: /Wrote to the assistant/ })).toHaveAttribute(
      'aria-current',
      'step',
    );
    expect(announcement()).toHaveTextContent('00:50: Wrote to the assistant (question 1)');
  });

  it('words test runs, guardrail stops and workspace deletions in the events list', () => {
    const at = (s: number) => attemptSecond(s);
    renderReplay(
      makeRecordedTimeline({
        events: [
          { at: at(1), kind: 'test-run', questionIndex: 0, passed: 3, total: 4 },
          { at: at(2), kind: 'test-run', questionIndex: 0, detail: 'The runner could not be reached.' },
          { at: at(3), kind: 'guardrail-stop', messageId: 'm9', questionIndex: 0, detail: 'The reply was stopped.' },
          { at: at(4), kind: 'workspace-change', path: 'main.py', change: 1, detail: 'deleted' },
        ],
        messages: [{ id: 'm9', role: 'assistant', content: 'The key is', at: at(3) }],
      }),
    );
    const events = within(screen.getByRole('list', { name: 'Events' }));
    expect(events.getAllByRole('button').map((b) => b.textContent)).toEqual([
      '00:01 Ran the tests: 3 of 4 passed (question 1)',
      '00:02 Ran the tests (question 1): The runner could not be reached.',
      "00:03 A guardrail stopped the assistant's reply (question 1): The reply was stopped.",
      '00:04 Changed main.py: deleted',
    ]);
    fireEvent.change(slider(), { target: { value: '3000' } });
    const conversation = screen.getByRole('list', { name: 'Assistant conversation so far' });
    expect(conversation).toHaveTextContent('The key is');
    expect(conversation).toHaveTextContent('Stopped by a guardrail');
  });

  it('words the follow-up questions asked after submit and their answers in the events list', () => {
    const at = (s: number) => attemptSecond(s);
    renderReplay(
      makeRecordedTimeline({
        events: [
          { at: at(1), kind: 'submit' },
          { at: at(2), kind: 'follow-up-asked', questionIndex: 1, detail: 'What stops your recursion?' },
          { at: at(3), kind: 'follow-up-answered', questionIndex: 1, detail: 'answered' },
          { at: at(4), kind: 'follow-up-asked', questionIndex: 0, detail: 'Why a hash map?' },
          { at: at(5), kind: 'follow-up-answered', questionIndex: 0, detail: 'timed-out' },
        ],
      }),
    );
    const events = within(screen.getByRole('list', { name: 'Events' }));
    expect(events.getAllByRole('button').map((b) => b.textContent)).toEqual([
      '00:01 Submitted',
      '00:02 Asked a follow-up question (question 2): What stops your recursion?',
      '00:03 Answered a follow-up question (question 2)',
      '00:04 Asked a follow-up question (question 1): Why a hash map?',
      '00:05 Answered a follow-up question (question 1): the time ran out; the draft saved by then is the answer',
    ]);
  });

  it('plays in real time, faster at a chosen speed, and pauses saying where it stopped', () => {
    vi.useFakeTimers();
    renderReplay();
    fireEvent.click(screen.getByRole('button', { name: 'Play' }));
    act(() => vi.advanceTimersByTime(1000));
    expect(clock()).toHaveTextContent('00:01 of 01:30');
    // Nothing is said on every frame while playing: no announcement, and the slider's value text waits for an event.
    expect(announcement()).toBeEmptyDOMElement();
    expect(slider()).toHaveAttribute('aria-valuetext', 'Playing: nothing has happened yet');

    fireEvent.click(screen.getByRole('radio', { name: '8×' }));
    act(() => vi.advanceTimersByTime(1000));
    expect(clock()).toHaveTextContent('00:09 of 01:30');
    act(() => vi.advanceTimersByTime(200));
    // 10.6 s: the whole run typed, nothing pasted yet.
    expect(answer(1)).toHaveTextContent(/^Hello$/);
    expect(slider()).toHaveAttribute('aria-valuetext', 'Playing, latest event at 00:10: Edited question 1');

    fireEvent.click(screen.getByRole('button', { name: 'Pause' }));
    expect(announcement()).toHaveTextContent('00:10: Edited question 1');
    act(() => vi.advanceTimersByTime(2000));
    expect(clock()).toHaveTextContent('00:10 of 01:30');
  });

  it('skips idle stretches and stops at the end of the attempt', () => {
    vi.useFakeTimers();
    renderReplay();
    fireEvent.click(screen.getByRole('radio', { name: 'Skip idle' }));
    fireEvent.click(screen.getByRole('button', { name: 'Play' }));
    // Nothing happens for the first 5 s: the first tick lands half a second before the first edit.
    act(() => vi.advanceTimersByTime(100));
    expect(clock()).toHaveTextContent('00:04 of 01:30');
    act(() => vi.advanceTimersByTime(600));
    expect(answer(2)).toHaveTextContent(/^x$/);

    fireEvent.click(screen.getByRole('radio', { name: '16×' }));
    act(() => vi.advanceTimersByTime(10_000));
    expect(slider()).toHaveValue('90000');
    expect(screen.getByRole('button', { name: 'Play' })).toBeInTheDocument();
    expect(announcement()).toHaveTextContent('01:30: End of the attempt');
  });

  it('says which parts of the timeline could not be read, and that nothing was recorded when so', () => {
    renderReplay(
      makeRecordedTimeline({ events: [], answers: [], workspaceFiles: [], messages: [], unavailable: ['assistant'] }),
    );
    expect(screen.getByRole('note')).toHaveTextContent("The assistant's conversation could not be read just now");
    expect(screen.getByText('Nothing was recorded for this attempt.')).toBeInTheDocument();
    expect(screen.queryByRole('slider')).not.toBeInTheDocument();
  });
});
