import type { RosterEntry } from '@exam/domain/roster';
import { screen, within } from '@testing-library/react';
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

  it('invites the selected candidates and shows who was invited', async () => {
    seedExams(makeExam({ id: 'exam-2', title: 'Chemistry' }));
    const bodies: unknown[] = [];
    server.use(
      http.get('*/api/exams/exam-2/roster', () =>
        HttpResponse.json({ entries: [entry(1), entry(2)], rosterAdmission: 'candidate-id' }),
      ),
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
    expect(await within(table).findByText(/^Invited /)).toBeInTheDocument();
    expect(bodies).toEqual([{ entryIds: ['e-2'] }]);
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
