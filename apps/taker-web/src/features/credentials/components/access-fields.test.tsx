import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '../../../testing/render.tsx';
import { server } from '../../../testing/server.ts';

const base = { examId: 'exam-9', examTitle: 'Chemistry', fullScreenRequested: false };
const refusal = (message: string, path?: string) =>
  HttpResponse.json(
    { error: { code: 'FORBIDDEN', message, ...(path && { issues: [{ path, message }] }) } },
    { status: 403 },
  );

describe('/taker/credentials and the exam’s access', () => {
  it('asks for the access code, sends it with the briefing, and shows a refusal back on its field', async () => {
    const bodies: Record<string, unknown>[] = [];
    server.use(
      http.post('/api/attempts/briefing', async ({ request }) => {
        bodies.push((await request.json()) as Record<string, unknown>);
        return refusal('The access code is not right', 'accessCode');
      }),
    );
    const { user } = renderRoute('/taker/credentials', { ...base, access: 'code' });
    await user.type(await screen.findByLabelText('Full Name'), 'Ada');
    await user.type(screen.getByLabelText('Candidate ID'), 'S-1');
    await user.type(screen.getByLabelText('Access Code'), 'guess');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    // The briefing's refusal takes the form back; on a busy machine that is more than findBy's default second.
    expect(await screen.findByText('The access code is not right', undefined, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByLabelText('Access Code')).toHaveAttribute('aria-invalid', 'true');
    expect(bodies).toEqual([expect.objectContaining({ examId: 'exam-9', accessCode: 'guess' })]);
  });

  it('does not ask for a code on an open-link exam', async () => {
    renderRoute('/taker/credentials', base);
    expect(await screen.findByLabelText('Full Name')).toBeInTheDocument();
    expect(screen.queryByLabelText('Access Code')).not.toBeInTheDocument();
  });

  it('fills and locks the identity from an invitation link, and sends its token', async () => {
    const bodies: Record<string, unknown>[] = [];
    server.use(
      http.get('/api/public/exams/exam-9/invitations/tok-1', () =>
        HttpResponse.json({ name: 'Grace Hopper', studentId: 'S-2' }),
      ),
      http.post('/api/attempts/briefing', async ({ request }) => {
        bodies.push((await request.json()) as Record<string, unknown>);
        return refusal('stop here');
      }),
    );
    const { user } = renderRoute('/taker/credentials', { ...base, access: 'roster', inviteToken: 'tok-1' });
    await waitFor(() => expect(screen.getByLabelText('Full Name')).toHaveValue('Grace Hopper'));
    expect(screen.getByLabelText('Candidate ID')).toHaveValue('S-2');
    expect(screen.getByLabelText('Full Name')).toHaveAttribute('readonly');
    expect(screen.getByTestId('roster-notice')).toHaveTextContent('Your invitation filled in your name');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() =>
      expect(bodies).toEqual([
        expect.objectContaining({ name: 'Grace Hopper', studentId: 'S-2', inviteToken: 'tok-1' }),
      ]),
    );
  });

  it('does not ask an invited candidate of a code exam for the code: their personal link stands for it', async () => {
    const bodies: Record<string, unknown>[] = [];
    server.use(
      http.get('/api/public/exams/exam-9/invitations/tok-2', () =>
        HttpResponse.json({ name: 'Ada Lovelace', studentId: 'S-1' }),
      ),
      http.post('/api/attempts/briefing', async ({ request }) => {
        bodies.push((await request.json()) as Record<string, unknown>);
        return refusal('stop here');
      }),
    );
    const { user } = renderRoute('/taker/credentials', { ...base, access: 'code', inviteToken: 'tok-2' });
    await waitFor(() => expect(screen.getByLabelText('Full Name')).toHaveValue('Ada Lovelace'));
    expect(screen.queryByLabelText('Access Code')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(bodies).toEqual([expect.objectContaining({ studentId: 'S-1', inviteToken: 'tok-2' })]));
    expect(bodies[0]).not.toHaveProperty('accessCode');
  });

  it('tells a roster exam’s visitor that only invited candidates may start, and that a bad link is not valid', async () => {
    server.use(
      http.get('/api/public/exams/exam-9/invitations/bad', () =>
        HttpResponse.json({ error: { code: 'NOT_FOUND', message: 'x' } }, { status: 404 }),
      ),
    );
    renderRoute('/taker/credentials', { ...base, access: 'roster', inviteToken: 'bad' });
    expect(await screen.findByText('This invitation link is not valid for this exam')).toBeInTheDocument();
    expect(screen.getByTestId('roster-notice')).toHaveTextContent('Only invited candidates may start this exam');
    expect(screen.getByLabelText('Full Name')).not.toHaveAttribute('readonly');
  });
});
