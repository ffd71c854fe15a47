import { EndedByExaminerMessage, LIVE_POLL_MS } from '@exam/domain/live';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildPublicExam } from '../../../testing/factories.ts';
import { createFakeResultsService } from '../../../testing/fake-results-service.ts';
import { renderRoute } from '../../../testing/render.tsx';
import { seedAttempt } from '../../../testing/seed.ts';
import { server } from '../../../testing/server.ts';

/** One poll interval and some slack for a slow machine. */
const NEXT_POLL = { timeout: LIVE_POLL_MS + 3000 };

async function openExam(options: { deadline?: string | null } = {}) {
  const exam = buildPublicExam(options.deadline ? { timerEnabled: true, timerMinutes: 30 } : {});
  const fake = createFakeResultsService({ exam, deadline: options.deadline ?? null });
  server.use(...fake.handlers);
  await seedAttempt(exam, fake.attemptId, { deadline: options.deadline ?? null });
  const view = renderRoute(`/exam/${exam.id}`);
  await screen.findByLabelText('Answer for Q1');
  return { ...view, fake, exam };
}

const announcement = (id: string, text: string) => ({ id, text, at: new Date().toISOString() });

describe("the examiner's live view, from the candidate's page", () => {
  it('lists announcements in a polite live region and shows a new one at the next poll', async () => {
    const exam = buildPublicExam();
    const fake = createFakeResultsService({ exam });
    fake.state.announcements = [announcement('a1', 'Welcome, you may start')];
    server.use(...fake.handlers);
    await seedAttempt(exam, fake.attemptId);
    renderRoute(`/exam/${exam.id}`);

    const region = await screen.findByRole('region', { name: 'Announcements from the examiner' });
    expect(region).toHaveAttribute('aria-live', 'polite');
    expect(await within(region).findByText('Welcome, you may start')).toBeInTheDocument();

    fake.state.announcements = [...fake.state.announcements, announcement('a2', 'Question 1 has a typo')];
    expect(await within(region).findByText('Question 1 has a typo', {}, NEXT_POLL)).toBeInTheDocument();
    // The new one is also toasted; the one already there when the page opened is not.
    expect(await screen.findByText('Announcement: Question 1 has a typo')).toBeInTheDocument();
    expect(screen.queryByText('Announcement: Welcome, you may start')).not.toBeInTheDocument();
  });

  it('hides a dismissed announcement, also after a reload', async () => {
    const exam = buildPublicExam();
    const fake = createFakeResultsService({ exam });
    fake.state.announcements = [announcement('d1', 'Keep your camera on'), announcement('d2', 'Ten minutes left')];
    server.use(...fake.handlers);
    await seedAttempt(exam, fake.attemptId);
    const first = renderRoute(`/exam/${exam.id}`);
    const region = await screen.findByRole('region', { name: 'Announcements from the examiner' });
    await within(region).findByText('Keep your camera on');
    await first.user.click(screen.getByRole('button', { name: 'Dismiss announcement: Keep your camera on' }));
    expect(within(region).queryByText('Keep your camera on')).not.toBeInTheDocument();
    expect(within(region).getByText('Ten minutes left')).toBeInTheDocument();
    first.unmount();

    renderRoute(`/exam/${exam.id}`);
    const again = await screen.findByRole('region', { name: 'Announcements from the examiner' });
    expect(await within(again).findByText('Ten minutes left')).toBeInTheDocument();
    expect(within(again).queryByText('Keep your camera on')).not.toBeInTheDocument();
  });

  it('follows a deadline the examiner extended', async () => {
    const deadline = new Date(Date.now() + 10 * 60_000).toISOString();
    const { fake } = await openExam({ deadline });
    const timer = await screen.findByRole('timer', { name: 'Time remaining' });
    expect(timer).toHaveTextContent(/^(10:00|9:5\d)$/);
    fake.state.deadline = new Date(Date.parse(deadline) + 10 * 60_000).toISOString();
    await waitFor(() => expect(timer).toHaveTextContent(/^(20:00|19:5\d)$/), NEXT_POLL);
  });

  it('shows the completion page saying the examiner ended the exam, with what this device had sent', async () => {
    const { user, fake } = await openExam();
    await user.type(screen.getByLabelText('Answer for Q1'), 'kept');
    await waitFor(() => expect(fake.state.answers.get(0)?.answer).toBe('kept'));

    fake.state.submitted = true;
    fake.state.endedAt = new Date().toISOString();
    expect(await screen.findByRole('heading', { name: 'Exam Completed' }, NEXT_POLL)).toBeInTheDocument();
    expect(screen.getByTestId('completion-notice')).toHaveTextContent(EndedByExaminerMessage);
    expect(screen.getByText('Questions Answered: 1 of 1')).toBeInTheDocument();
    const polls = fake.state.liveCalls;
    await new Promise((resolve) => setTimeout(resolve, LIVE_POLL_MS + 500));
    expect(fake.state.liveCalls).toBe(polls);
  });

  it('submits normally without an examiner notice while the page polls', async () => {
    const { user, fake } = await openExam();
    await user.type(screen.getByLabelText('Answer for Q1'), 'mine');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Submit exam' }));
    expect(await screen.findByRole('heading', { name: 'Exam Completed' })).toBeInTheDocument();
    expect(screen.queryByTestId('completion-notice')).not.toBeInTheDocument();
    expect(fake.state.liveCalls).toBeGreaterThan(0);
  });
});
