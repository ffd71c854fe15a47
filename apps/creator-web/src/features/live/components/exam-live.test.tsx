import type { Override } from '@exam/domain/cohort';
import type { Announcement, ExamLive, LiveAttempt } from '@exam/domain/live';
import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { makeExam, signInAs } from '../../../testing/factories.ts';
import { errorBody, seedExams } from '../../../testing/handlers.ts';
import type { LiveAttemptWithShares } from '../api/manage-live-exam.ts';
import { renderApp } from '../../../testing/render.tsx';
import { server } from '../../../testing/server.ts';

const NOW = '2030-01-01T10:00:00.000Z';

function liveAttempt(overrides: Partial<LiveAttemptWithShares> = {}): LiveAttemptWithShares {
  return {
    attemptId: 'attempt-ada',
    name: 'Ada Lovelace',
    studentId: 'S-1',
    startedAt: '2030-01-01T09:30:00.000Z',
    lastSeenAt: '2030-01-01T09:59:48.000Z',
    answered: 2,
    total: 4,
    warnings: { 'focus-lost': 2, copy: 1 },
    deadline: '2030-01-01T10:30:00.000Z',
    secondsLeft: 1800,
    status: 'in-progress',
    submittedAt: null,
    endedBy: null,
    ...overrides,
  };
}

const override = (fields: Partial<Override>): Override => ({
  studentId: 'S-1',
  extraMinutes: null,
  timeFactor: null,
  opensAt: null,
  closesAt: null,
  attemptsAllowed: null,
  updatedAt: NOW,
  ...fields,
});

/** A fake live endpoint and the writes the page made. */
function fakeLive(examId: string, attempts: LiveAttempt[]) {
  const announcements: Announcement[] = [];
  const calls = { announced: [] as unknown[], ended: [] as string[], puts: [] as unknown[] };
  server.use(
    http.get(`*/api/exams/${examId}/live`, () =>
      HttpResponse.json<ExamLive>({ examId, serverNow: NOW, attempts, announcements: [...announcements].reverse() }),
    ),
    http.post(`*/api/exams/${examId}/announcements`, async ({ request }) => {
      const body = (await request.json()) as { text: string };
      calls.announced.push(body);
      const sent = { id: `a-${announcements.length}`, text: body.text, at: NOW };
      announcements.push(sent);
      return HttpResponse.json(sent, { status: 201 });
    }),
    http.post(`*/api/exams/${examId}/attempts/:attemptId/end`, ({ params }) => {
      calls.ended.push(String(params.attemptId));
      return HttpResponse.json({ resultId: 'r1', answered: 2, total: 4, endedAt: NOW, endedBy: 'creator@example.com' });
    }),
    http.get(`*/api/exams/${examId}/overrides`, () =>
      HttpResponse.json<{ overrides: Override[] }>({ overrides: [override({ extraMinutes: 5, timeFactor: 1.5 })] }),
    ),
    http.put(`*/api/exams/${examId}/overrides/:studentId`, async ({ params, request }) => {
      const body = (await request.json()) as Partial<Override>;
      calls.puts.push({ studentId: params.studentId, body });
      return HttpResponse.json({ override: override(body) });
    }),
  );
  return calls;
}

describe('the live proctor view', () => {
  it('lists each candidate with status, last seen, answered n/total, warnings by kind and time left', async () => {
    const exam = makeExam({ isDraft: false, title: 'Physics final' });
    seedExams(exam);
    fakeLive(exam.id, [
      liveAttempt(),
      liveAttempt({
        attemptId: 'attempt-bob',
        name: 'Bob',
        studentId: 'S-2',
        status: 'ended',
        secondsLeft: null,
        warnings: {},
        endedBy: 'creator@example.com',
      }),
    ]);
    signInAs();
    renderApp(`/creator/exam-live/${exam.id}`);

    const table = await screen.findByRole('table', { name: 'Candidates' });
    expect(await screen.findByRole('heading', { name: 'Live: Physics final' })).toBeInTheDocument();
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual([
      'Candidate',
      'Status',
      'Started',
      'Last seen',
      'Answered',
      'Warnings',
      'Typed / pasted / assistant',
      'Time left',
      'Actions',
    ]);
    const ada = screen.getByRole('row', { name: /Ada Lovelace/ });
    expect(within(ada).getByText('In progress')).toBeInTheDocument();
    expect(within(ada).getByText('12 s ago')).toBeInTheDocument();
    expect(within(ada).getByTestId('answered')).toHaveTextContent('2 / 4');
    expect(within(ada).getByText(/Focus lost:/)).toHaveTextContent('Focus lost: 2');
    expect(within(ada).getByText(/Copied:/)).toHaveTextContent('Copied: 1');
    expect(within(ada).getByTestId('time-left')).toHaveTextContent(/^(30:00|29:5\d)$/);
    expect(within(ada).getByRole('button', { name: 'End attempt of Ada Lovelace (S-1)' })).toBeInTheDocument();

    const bob = screen.getByRole('row', { name: /Bob/ });
    expect(within(bob).getByText('Ended by examiner')).toBeInTheDocument();
    expect(within(bob).queryByRole('button')).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('1 in progress, 1 finished in the last hour.');
  });

  it("shows each attempt's running shares of typed, pasted and assistant text, when the server sends them", async () => {
    const exam = makeExam({ isDraft: false });
    seedExams(exam);
    fakeLive(exam.id, [
      liveAttempt({ shares: { typed: 600, pasted: 150, assistant: 250 } }),
      liveAttempt({
        attemptId: 'attempt-bob',
        name: 'Bob',
        studentId: 'S-2',
        shares: { typed: 0, pasted: 0, assistant: 0 },
      }),
      liveAttempt({ attemptId: 'attempt-cy', name: 'Cy', studentId: 'S-3' }),
    ]);
    signInAs();
    renderApp(`/creator/exam-live/${exam.id}`);

    const ada = await screen.findByRole('row', { name: /Ada Lovelace/ });
    expect(within(ada).getByTestId('shares')).toHaveTextContent('60% typed, 15% pasted, 25% assistant');
    expect(within(screen.getByRole('row', { name: /Bob/ })).getByTestId('shares')).toHaveTextContent(
      'Nothing written yet',
    );
    // No figures from the server: no claim either way.
    expect(within(screen.getByRole('row', { name: /Cy/ })).getByTestId('shares')).toHaveTextContent(/^—$/);
  });

  it('sends an announcement and lists it among those sent; an empty one is refused before sending', async () => {
    const exam = makeExam({ isDraft: false });
    seedExams(exam);
    const calls = fakeLive(exam.id, [liveAttempt()]);
    signInAs();
    const { user } = renderApp(`/creator/exam-live/${exam.id}`);

    const box = await screen.findByLabelText('Announcement to all candidates');
    await user.click(screen.getByRole('button', { name: 'Send announcement' }));
    expect(await screen.findByText('Write the announcement')).toBeInTheDocument();
    expect(calls.announced).toEqual([]);

    await user.type(box, 'Question 3 is worth 2 points');
    await user.click(screen.getByRole('button', { name: 'Send announcement' }));
    const sent = await screen.findByRole('list', { name: 'Announcements sent' });
    expect(await within(sent).findByText('Question 3 is worth 2 points')).toBeInTheDocument();
    expect(calls.announced).toEqual([{ text: 'Question 3 is worth 2 points' }]);
    expect(box).toHaveValue('');
  });

  it("extends one candidate's time by adding minutes to their override, keeping its other settings", async () => {
    const exam = makeExam({ isDraft: false });
    seedExams(exam);
    const calls = fakeLive(exam.id, [liveAttempt()]);
    signInAs();
    const { user } = renderApp(`/creator/exam-live/${exam.id}`);

    await user.click(await screen.findByRole('button', { name: 'Extend time for Ada Lovelace (S-1)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Extend time' });
    const minutes = within(dialog).getByLabelText('Minutes to add');
    await user.clear(minutes);
    await user.click(within(dialog).getByRole('button', { name: 'Extend time' }));
    expect(await within(dialog).findByText('Enter a whole number of minutes')).toBeInTheDocument();
    await user.type(minutes, '10');
    await user.click(within(dialog).getByRole('button', { name: 'Extend time' }));
    await screen.findByText('Ada Lovelace has 10 more minutes (15 extra in all)');
    expect(calls.puts).toEqual([{ studentId: 'S-1', body: { extraMinutes: 15, timeFactor: 1.5 } }]);
  });

  it('ends an attempt only after the proctor confirms', async () => {
    const exam = makeExam({ isDraft: false });
    seedExams(exam);
    const calls = fakeLive(exam.id, [liveAttempt()]);
    signInAs();
    const { user } = renderApp(`/creator/exam-live/${exam.id}`);

    await user.click(await screen.findByRole('button', { name: 'End attempt of Ada Lovelace (S-1)' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'End this attempt?' });
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(calls.ended).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'End attempt of Ada Lovelace (S-1)' }));
    const again = await screen.findByRole('alertdialog', { name: 'End this attempt?' });
    await user.click(within(again).getByRole('button', { name: 'End attempt' }));
    expect(await screen.findByText('Ended the attempt of Ada Lovelace')).toBeInTheDocument();
    expect(calls.ended).toEqual(['attempt-ada']);
  });

  it("says the exam was not found when the live view refuses (another creator's exam)", async () => {
    server.use(
      http.get('*/api/exams/not-mine/live', () =>
        HttpResponse.json(errorBody('NOT_FOUND', 'Exam not found'), { status: 404 }),
      ),
      http.get('*/api/exams/not-mine', () =>
        HttpResponse.json(errorBody('NOT_FOUND', 'Exam not found'), { status: 404 }),
      ),
    );
    signInAs();
    renderApp('/creator/exam-live/not-mine');
    expect(await screen.findByText('Exam not found')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });
});
