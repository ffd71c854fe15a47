import type { RosterEntry } from '@exam/domain/roster';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { makeExam, signInAs } from '../../../testing/factories.ts';
import { seedExams } from '../../../testing/handlers.ts';
import { renderApp } from '../../../testing/render.tsx';
import { server } from '../../../testing/server.ts';

const entry = (n: number, invitedAt: string | null = null): RosterEntry => ({
  id: `e-${n}`,
  name: `Candidate ${n}`,
  candidateId: `S-${n}`,
  email: `c${n}@example.test`,
  invitedAt,
});

describe('the exam roster page', () => {
  it('lists the per-row errors of a refused CSV and imports nothing', async () => {
    seedExams(makeExam({ id: 'exam-1', title: 'Biology', access: 'roster' }));
    const sent: unknown[] = [];
    server.use(
      http.get('*/api/exams/exam-1/roster', () => HttpResponse.json({ entries: [], rosterAdmission: 'candidate-id' })),
      http.post('*/api/exams/exam-1/roster/import', async ({ request }) => {
        sent.push(await request.json());
        return HttpResponse.json(
          {
            error: {
              code: 'VALIDATION',
              message: 'The roster has errors',
              issues: [
                { path: 'rows.3.candidateId', message: 'Row 3: Candidate ID is required' },
                { path: 'rows.4.email', message: 'Row 4: Enter a valid e-mail address' },
              ],
            },
          },
          { status: 400 },
        );
      }),
    );
    signInAs();
    const { user } = renderApp('/creator/exam-roster/exam-1');
    expect(await screen.findByText('Only candidates on this roster may start.')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Roster CSV'), 'name,candidate id{enter}Ada,');
    await user.click(screen.getByRole('button', { name: 'Import CSV' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Row 3: Candidate ID is required');
    expect(alert).toHaveTextContent('Row 4: Enter a valid e-mail address');
    expect(sent).toEqual([{ csv: 'name,candidate id\nAda,' }]);
    expect(screen.getByText('No candidates yet')).toBeInTheDocument();
  });

  const previewOf = (body: { entryIds?: string[]; message?: string }, alreadyInvited = 0) => ({
    candidate: { name: 'Candidate 2', candidateId: 'S-2' },
    subject: 'Invitation: Chemistry',
    text: `Hello Candidate 2,\n\nMessage from the examiner:\n  ${body.message ?? ''}`,
    html: `<!doctype html><html lang="en"><body><p>Hello Candidate 2,</p><p>${(body.message ?? '').replaceAll('<', '&lt;')}</p></body></html>`,
    recipients: body.entryIds?.length ?? 2,
    alreadyInvited,
  });

  it('invites the selected candidates only after the preview and the confirmation, with the message', async () => {
    seedExams(makeExam({ id: 'exam-2', title: 'Chemistry' }));
    const bodies: unknown[] = [];
    const previews: unknown[] = [];
    server.use(
      http.get('*/api/exams/exam-2/roster', () =>
        HttpResponse.json({ entries: [entry(1), entry(2)], rosterAdmission: 'candidate-id' }),
      ),
      http.post('*/api/exams/exam-2/invitations/preview', async ({ request }) => {
        const body = (await request.json()) as { entryIds?: string[]; message?: string };
        previews.push(body);
        return HttpResponse.json(previewOf(body));
      }),
      http.post('*/api/exams/exam-2/invitations', async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({
          invited: 1,
          entries: [entry(1), entry(2, '2030-01-01T10:00:00.000Z')],
          rosterAdmission: 'invitation-link',
        });
      }),
    );
    signInAs();
    const { user } = renderApp('/creator/exam-roster/exam-2');
    const table = await screen.findByRole('table', { name: 'Roster' });
    expect(within(table).getAllByText('Not invited')).toHaveLength(2);
    await user.click(screen.getByRole('checkbox', { name: 'Select Candidate 2' }));
    await user.click(screen.getByRole('button', { name: 'Invite Selected (1)' }));

    const dialog = await screen.findByRole('dialog', { name: 'Send invitations' });
    expect(await within(dialog).findByText('1 candidate will get this mail.')).toBeInTheDocument();
    expect(within(dialog).getByText('As Candidate 2 (S-2) will see it')).toBeInTheDocument();
    expect(within(dialog).getByTestId('invitation-subject')).toHaveTextContent('Invitation: Chemistry');
    expect(bodies).toEqual([]); // nothing is sent by opening the dialog

    await user.type(within(dialog).getByLabelText('Personal message (optional)'), 'Room <b>4B</b>');
    // The preview follows the message once typing pauses; the HTML part runs in an empty sandbox.
    await waitFor(() => expect(within(dialog).getByTestId('invitation-text')).toHaveTextContent('Room <b>4B</b>'), {
      timeout: 3000,
    });
    const frame = within(dialog).getByTitle('Invitation mail as formatted');
    expect(frame).toHaveAttribute('sandbox', '');
    expect(frame.getAttribute('srcdoc')).toContain('Room &lt;b>4B&lt;/b>');
    expect(previews.at(-1)).toEqual({ entryIds: ['e-2'], message: 'Room <b>4B</b>' });

    await user.click(within(dialog).getByRole('button', { name: 'Send 1 invitation' }));
    expect(await within(table).findByText(/^Invited /)).toBeInTheDocument();
    expect(bodies).toEqual([{ entryIds: ['e-2'], message: 'Room <b>4B</b>' }]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('says how many of "Invite All" were invited before, and Cancel sends nothing', async () => {
    seedExams(makeExam({ id: 'exam-4', title: 'Chemistry' }));
    let sent = 0;
    server.use(
      http.get('*/api/exams/exam-4/roster', () =>
        HttpResponse.json({
          entries: [entry(1, '2030-01-01T10:00:00.000Z'), entry(2)],
          rosterAdmission: 'invitation-link',
        }),
      ),
      http.post('*/api/exams/exam-4/invitations/preview', async ({ request }) =>
        HttpResponse.json(previewOf((await request.json()) as { entryIds?: string[] }, 1)),
      ),
      http.post('*/api/exams/exam-4/invitations', () => {
        sent++;
        return HttpResponse.json({ invited: 2, entries: [], rosterAdmission: 'invitation-link' });
      }),
    );
    signInAs();
    const { user } = renderApp('/creator/exam-roster/exam-4');
    await user.click(await screen.findByRole('button', { name: 'Invite All' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send invitations' });
    expect(await within(dialog).findByText('2 candidates will get this mail.')).toBeInTheDocument();
    expect(
      within(dialog).getByText('1 of them was invited before: their earlier link stops working.'),
    ).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Send 2 invitations' })).toBeEnabled();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(sent).toBe(0);
  });

  it("previews the LMS course's learners and imports them with their LMS user id", async () => {
    seedExams(makeExam({ id: 'exam-3', title: 'Physics' }));
    let imported = 0;
    server.use(
      http.get('*/api/exams/exam-3/roster', () =>
        HttpResponse.json({ entries: [entry(1)], rosterAdmission: 'candidate-id' }),
      ),
      http.get('*/api/exams/exam-3/roster/lms', () =>
        HttpResponse.json({
          linked: true,
          courses: [{ platformName: 'Canvas', contextId: 'c-1', title: 'Physics 101' }],
        }),
      ),
      http.get('*/api/exams/exam-3/roster/lms/preview', () =>
        HttpResponse.json({
          members: [
            { candidateId: 'S-1', name: 'Candidate 1', email: 'c1@example.test', onRoster: true },
            { candidateId: 'lms-42', name: 'Grace Hopper', email: null, onRoster: false },
          ],
          skipped: 1,
        }),
      ),
      http.post('*/api/exams/exam-3/roster/lms/import', () => {
        imported++;
        const grace: RosterEntry = {
          id: 'e-42',
          name: 'Grace Hopper',
          candidateId: 'lms-42',
          email: null,
          invitedAt: null,
        };
        return HttpResponse.json({
          entries: [entry(1), grace],
          rosterAdmission: 'candidate-id',
          imported: 2,
          skipped: 1,
        });
      }),
    );
    signInAs();
    const { user } = renderApp('/creator/exam-roster/exam-3');
    expect(await screen.findByText(/placed in Physics 101/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Preview learners' }));
    const learners = await screen.findByRole('table', { name: 'Learners in the LMS course' });
    expect(within(learners).getByText('lms-42')).toBeInTheDocument();
    expect(within(learners).getByText('On roster')).toBeInTheDocument();
    expect(screen.getByText(/1 not on the roster yet; 1 other members left out/)).toBeInTheDocument();
    expect(imported).toBe(0);
    await user.click(screen.getByRole('button', { name: 'Import 2 learners' }));
    const roster = await screen.findByRole('table', { name: 'Roster' });
    expect(await within(roster).findByText('Grace Hopper')).toBeInTheDocument();
    expect(imported).toBe(1);
  });

  it('says plainly which admission mode the exam is in, and switches it when the creator chooses', async () => {
    seedExams(makeExam({ id: 'exam-4', title: 'Geology', access: 'roster' }));
    const puts: unknown[] = [];
    server.use(
      http.get('*/api/exams/exam-4/roster', () =>
        HttpResponse.json({
          entries: [entry(1, '2030-01-01T10:00:00.000Z'), entry(2)],
          rosterAdmission: 'candidate-id',
        }),
      ),
      http.put('*/api/exams/exam-4/roster/admission', async ({ request }) => {
        const body = (await request.json()) as { rosterAdmission: string };
        puts.push(body);
        return HttpResponse.json({
          entries: [entry(1, '2030-01-01T10:00:00.000Z'), entry(2)],
          rosterAdmission: body.rosterAdmission,
        });
      }),
    );
    signInAs();
    const { user } = renderApp('/creator/exam-roster/exam-4');
    expect(await screen.findByText('Anyone who types a roster candidate ID can start')).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: /Candidate ID is enough/ })).toBeChecked();
    await user.click(screen.getByRole('radio', { name: /Personal invitation link required/ }));
    expect(
      await screen.findByText('Only candidates with their personal invitation link can start'),
    ).toBeInTheDocument();
    expect(screen.queryByText('Anyone who types a roster candidate ID can start')).not.toBeInTheDocument();
    expect(screen.getByRole('radio', { name: /Personal invitation link required/ })).toBeChecked();
    expect(screen.getByText('1 candidate has no invitation yet and cannot start until invited.')).toBeInTheDocument();
    expect(puts).toEqual([{ rosterAdmission: 'invitation-link' }]);
  });
});
