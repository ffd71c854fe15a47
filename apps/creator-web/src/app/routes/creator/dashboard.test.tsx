import type { ExamLive, LiveAttempt } from '@exam/domain/live';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { makeExam, signInAs } from '../../../testing/factories.ts';
import { errorBody, examStore, seedExams } from '../../../testing/handlers.ts';
import { renderApp } from '../../../testing/render.tsx';
import { server } from '../../../testing/server.ts';

/** The live view's attempts of an exam (results-service), by status. */
function fakeSitting(examId: string, statuses: LiveAttempt['status'][]) {
  const attempt = (status: LiveAttempt['status'], i: number): LiveAttempt => ({
    attemptId: `a-${i}`,
    name: `Candidate ${i}`,
    studentId: `S-${i}`,
    startedAt: '2030-01-01T09:00:00.000Z',
    lastSeenAt: null,
    answered: 0,
    total: 3,
    warnings: {},
    deadline: null,
    secondsLeft: null,
    status,
    submittedAt: status === 'in-progress' ? null : '2030-01-01T09:30:00.000Z',
    endedBy: null,
  });
  server.use(
    http.get(`*/api/exams/${examId}/live`, () =>
      HttpResponse.json<ExamLive>({
        examId,
        serverNow: '2030-01-01T10:00:00.000Z',
        attempts: statuses.map(attempt),
        announcements: [],
      }),
    ),
  );
}

function stat(label: string) {
  return within(screen.getByRole('region', { name: 'Summary' }))
    .getByText(label)
    .parentElement?.querySelector('p:nth-of-type(2)')?.textContent;
}

/** Opens the row's "More actions" menu and picks one item by its name. */
async function chooseFromMenu(user: ReturnType<typeof renderApp>['user'], row: HTMLElement, item: string) {
  await user.click(within(row).getByRole('button', { name: 'More actions' }));
  await user.click(await screen.findByRole('menuitem', { name: item }));
}

describe('creator dashboard', () => {
  it('shows both empty messages when the creator has no exams', async () => {
    seedExams();
    signInAs();
    renderApp('/creator/dashboard');
    expect(await screen.findByText('No published exams yet')).toBeInTheDocument();
    expect(screen.getByText('No draft exams yet')).toBeInTheDocument();
  });

  it('splits exams into the published and draft tables with their columns and counts', async () => {
    seedExams(
      makeExam({
        title: 'Live Quiz',
        isDraft: false,
        isLive: true,
        publishedAt: '2025-03-04T10:00:00.000Z',
        questions: [],
      }),
      makeExam({ title: 'Offline Quiz', isDraft: false, isLive: false }),
      makeExam({ title: 'Draft Quiz', isDraft: true, createdAt: '2025-02-01T10:00:00.000Z' }),
    );
    server.use(
      http.get('*/api/results/summary', () =>
        HttpResponse.json({
          exams: [
            {
              examId: examStore.exams[0]?.id ?? '',
              examTitle: examStore.exams[0]?.title ?? '',
              started: 7,
              submitted: 5,
              graded: 2,
              avgScore: 80,
              pending: 3,
            },
          ],
        }),
      ),
      // Two invitations sent, seven candidates started (anyone with the link may open it): Invites is the two.
      http.get('*/api/exams/invitation-counts', () =>
        HttpResponse.json({ exams: [{ examId: examStore.exams[0]?.id ?? '', invited: 2 }] }),
      ),
    );
    signInAs();
    renderApp('/creator/dashboard');
    const published = await screen.findByRole('table', { name: 'Published Exams' });
    const headers = within(published)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers).toEqual([
      'Title',
      'Status',
      'Questions',
      'Published',
      'Last Edit',
      'Invites',
      'Submissions',
      'Actions',
    ]);
    const liveRow = within(published).getByRole('row', { name: /Live Quiz/ });
    expect(within(liveRow).getByText('Mar 4, 2025')).toBeInTheDocument();
    expect(within(liveRow).getByRole('switch')).toBeChecked();
    expect(await within(liveRow).findByRole('cell', { name: '2' })).toBeInTheDocument();
    expect(within(liveRow).queryByRole('cell', { name: '7' })).not.toBeInTheDocument();
    const offlineRow = within(published).getByRole('row', { name: /Offline Quiz/ });
    expect(within(offlineRow).getAllByRole('cell')[headers.indexOf('Invites')]).toHaveTextContent(/^0$/);
    expect(within(liveRow).getByRole('link', { name: 'Results' })).toHaveAttribute(
      'href',
      `/creator/exam-insights/${examStore.exams[0]?.id}`,
    );
    const drafts = screen.getByRole('table', { name: 'Draft Exams' });
    expect(within(drafts).getByRole('row', { name: /Draft Quiz/ })).toHaveTextContent('Feb 1, 2025');
    await waitFor(() => expect(stat('Total Submissions')).toBe('5'));
    expect(stat('Live Exams')).toBe('1');
    expect(stat('Published Exams')).toBe('2');
    expect(stat('Draft Exams')).toBe('1');
  });

  it("shows '—' for submissions and invites when the services that count them fail", async () => {
    seedExams(makeExam({ title: 'Quiz', isDraft: false }));
    server.use(
      http.get('*/api/results/summary', () => HttpResponse.json(errorBody('UNAVAILABLE', 'down'), { status: 503 })),
      http.get('*/api/exams/invitation-counts', () =>
        HttpResponse.json(errorBody('UNAVAILABLE', 'down'), { status: 503 }),
      ),
    );
    signInAs();
    renderApp('/creator/dashboard');
    const row = await screen.findByRole('row', { name: /Quiz/ });
    await waitFor(() => expect(stat('Total Submissions')).toBe('—'));
    expect(within(row).getAllByText('—')).toHaveLength(2);
  });

  it("switches an exam live and toasts 'Exam is now live'", async () => {
    seedExams(makeExam({ title: 'Quiz', isDraft: false, isLive: false }));
    signInAs();
    const { user } = renderApp('/creator/dashboard');
    const row = await screen.findByRole('row', { name: /Quiz/ });
    await user.click(within(row).getByRole('switch'));
    expect(await screen.findByText('Exam is now live')).toBeInTheDocument();
    expect(within(row).getByRole('switch')).toBeChecked();
    expect(examStore.writes).toEqual([
      { method: 'PUT', path: `/api/exams/${examStore.exams[0]?.id}`, body: { isLive: true } },
    ]);
  });

  it('asks before taking a live exam offline, saying how many candidates are sitting it now and what happens to them', async () => {
    const exam = makeExam({ title: 'Quiz', isDraft: false, isLive: true });
    seedExams(exam);
    fakeSitting(exam.id, ['in-progress', 'in-progress', 'submitted']);
    signInAs();
    const { user } = renderApp('/creator/dashboard');
    const row = await screen.findByRole('row', { name: /Quiz/ });
    await user.click(within(row).getByRole('switch'));
    let dialog = await screen.findByRole('alertdialog', { name: 'Take this exam offline?' });
    expect(await within(dialog).findByText('2 candidates are sitting it right now.')).toBeInTheDocument();
    expect(dialog).toHaveTextContent('Candidates with the exam open can keep answering and submit.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(examStore.writes).toEqual([]);
    expect(within(row).getByRole('switch')).toBeChecked();

    await user.click(within(row).getByRole('switch'));
    dialog = await screen.findByRole('alertdialog', { name: 'Take this exam offline?' });
    await within(dialog).findByText('2 candidates are sitting it right now.');
    await user.click(within(dialog).getByRole('button', { name: 'Take offline' }));
    expect(await screen.findByText('Exam is now offline')).toBeInTheDocument();
    expect(examStore.writes).toEqual([{ method: 'PUT', path: `/api/exams/${exam.id}`, body: { isLive: false } }]);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
  });

  it('puts the switch back and shows the error when the server refuses the change', async () => {
    const exam = makeExam({ title: 'Quiz', isDraft: false, isLive: true });
    seedExams(exam);
    fakeSitting(exam.id, []);
    server.use(http.put('*/api/exams/:id', () => HttpResponse.json(errorBody('INTERNAL', 'boom'), { status: 500 })));
    signInAs();
    const { user } = renderApp('/creator/dashboard');
    const row = await screen.findByRole('row', { name: /Quiz/ });
    await user.click(within(row).getByRole('switch'));
    const dialog = await screen.findByRole('alertdialog', { name: 'Take this exam offline?' });
    expect(await within(dialog).findByText('Nobody is sitting it right now.')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Take offline' }));
    expect(await screen.findByText('Something went wrong. Please try again.')).toBeInTheDocument();
    await waitFor(() => expect(within(row).getByRole('switch')).toBeChecked());
  });

  it('asks for confirmation with the fixed wording before deleting a draft', async () => {
    seedExams(makeExam({ title: 'Old Draft', isDraft: true }));
    signInAs();
    const { user } = renderApp('/creator/dashboard');
    const row = await screen.findByRole('row', { name: /Old Draft/ });
    await chooseFromMenu(user, row, 'Delete');
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent(
      'Are you sure you want to delete the draft "Old Draft"? This action cannot be undone.',
    );
    expect(examStore.writes).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(examStore.exams).toHaveLength(1);

    await chooseFromMenu(user, row, 'Delete');
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Draft exam deleted successfully')).toBeInTheDocument();
    expect(await screen.findByText('No draft exams yet')).toBeInTheDocument();
    expect(examStore.exams).toHaveLength(0);
  });

  it('names an exam without a title "Untitled exam" in the delete confirmation, as the list does', async () => {
    seedExams(makeExam({ title: '', isDraft: true }));
    signInAs();
    const { user } = renderApp('/creator/dashboard');
    const row = await screen.findByRole('row', { name: /Untitled exam/ });
    await chooseFromMenu(user, row, 'Delete');
    expect(await screen.findByRole('alertdialog')).toHaveTextContent(
      'Are you sure you want to delete the draft "Untitled exam"? This action cannot be undone.',
    );
  });

  it("toasts 'Error' when deleting a published exam fails", async () => {
    seedExams(makeExam({ title: 'Final', isDraft: false }));
    server.use(http.delete('*/api/exams/:id', () => HttpResponse.json(errorBody('INTERNAL', 'boom'), { status: 500 })));
    signInAs();
    const { user } = renderApp('/creator/dashboard');
    const row = await screen.findByRole('row', { name: /Final/ });
    await chooseFromMenu(user, row, 'Delete');
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Error')).toBeInTheDocument();
    expect(screen.getByRole('row', { name: /Final/ })).toBeInTheDocument();
  });

  it('signs out: clears storage, goes home and toasts', async () => {
    seedExams();
    signInAs();
    sessionStorage.setItem('something', 'x');
    const { user, router } = renderApp('/creator/dashboard');
    await user.click(await screen.findByRole('button', { name: 'Sign Out' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(await screen.findByText('Signed out successfully')).toBeInTheDocument();
    // Nothing of the creator stays; the language the page is read in is the device's, and stays.
    expect(Object.keys(localStorage)).toEqual(['exam.language']);
    expect(sessionStorage.length).toBe(0);
  });
});

describe('published exam actions', () => {
  it('copies the taker URL of the exam and confirms with a toast', async () => {
    seedExams(makeExam({ title: 'Shared', isDraft: false }));
    signInAs();
    const { user } = renderApp('/creator/dashboard');
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
    const row = await screen.findByRole('row', { name: /Shared/ });
    await user.click(within(row).getByRole('button', { name: 'Copy link' }));
    expect(await screen.findByText('Exam URL copied to clipboard!')).toBeInTheDocument();
    expect(writeText).toHaveBeenCalledWith(`http://taker.test/exam/${examStore.exams[0]?.id}`);
  });

  /** A stand-in for the tab window.open returns: where the page sends it, and whether it closed it. */
  function fakeTab() {
    const tab = { opener: {} as unknown, location: { replace: vi.fn() }, close: vi.fn() };
    const open = vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    return { tab, open };
  }

  async function choosePreview(user: ReturnType<typeof renderApp>['user'], title: string) {
    const row = await screen.findByRole('row', { name: new RegExp(title) });
    await chooseFromMenu(user, row, 'Preview');
  }

  it("opens the preview with a preview token from the server in the fragment, never the creator's token", async () => {
    seedExams(makeExam({ title: 'Preview me', isDraft: false }));
    const creatorToken = signInAs();
    const asked: Array<string | null> = [];
    server.use(
      http.post('*/api/exams/:id/preview-token', ({ request }) => {
        asked.push(request.headers.get('authorization'));
        return HttpResponse.json({ token: 'preview.jwt.x', expiresAt: '2030-01-01T00:15:00.000Z' }, { status: 201 });
      }),
    );
    const { tab, open } = fakeTab();
    const { user } = renderApp('/creator/dashboard');
    await choosePreview(user, 'Preview me');
    const examId = examStore.exams[0]?.id ?? '';

    // The tab opens inside the click, cut off from this page, and goes to the preview once the token is there.
    expect(open).toHaveBeenCalledWith('', '_blank');
    expect(tab.opener).toBeNull();
    await waitFor(() =>
      expect(tab.location.replace).toHaveBeenCalledWith(`http://taker.test/exam/${examId}/preview#token=preview.jwt.x`),
    );
    expect(asked).toEqual([`Bearer ${creatorToken}`]);
    const url = String(tab.location.replace.mock.calls[0]?.[0]);
    expect(url).not.toContain(creatorToken);
    expect(url).not.toContain('?');
  });

  it('closes the tab and says why when the server refuses the preview token', async () => {
    seedExams(makeExam({ title: 'Not mine', isDraft: false }));
    signInAs();
    server.use(
      http.post('*/api/exams/:id/preview-token', () =>
        HttpResponse.json(errorBody('NOT_FOUND', 'Exam not found'), { status: 404 }),
      ),
    );
    const { tab } = fakeTab();
    const { user } = renderApp('/creator/dashboard');
    await choosePreview(user, 'Not mine');
    expect(await screen.findByText('Exam not found')).toBeInTheDocument();
    expect(tab.close).toHaveBeenCalled();
    expect(tab.location.replace).not.toHaveBeenCalled();
  });

  it('asks to allow pop-ups when the browser blocks the tab', async () => {
    seedExams(makeExam({ title: 'Blocked', isDraft: false }));
    signInAs();
    vi.spyOn(window, 'open').mockReturnValue(null);
    const { user } = renderApp('/creator/dashboard');
    await choosePreview(user, 'Blocked');
    expect(await screen.findByText('Allow pop-ups for this site to open the preview.')).toBeInTheDocument();
  });
});
