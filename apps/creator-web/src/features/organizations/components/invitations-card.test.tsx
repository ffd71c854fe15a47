import { OrganizationMessages, type OrganizationInvitation } from '@exam/domain/organizations';
import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { signInAs } from '../../../testing/factories.ts';
import { errorBody } from '../../../testing/handlers.ts';
import { renderApp } from '../../../testing/render.tsx';
import { server } from '../../../testing/server.ts';

const INVITATION: OrganizationInvitation = {
  organizationId: 'org-uni',
  organizationName: 'University of Example',
  role: 'member',
  invitedAt: '2026-01-05T10:00:00.000Z',
};

/** exam-service's invitations to the signed-in creator; accepting answers `answer` and then lists none. */
function serveInvitations(answer: 'moved' | 'last-admin') {
  let pending = [INVITATION];
  const calls: string[] = [];
  server.use(
    http.get('*/api/organization/invitations', () => HttpResponse.json({ invitations: pending })),
    http.get('*/api/organization', () =>
      HttpResponse.json(errorBody('FORBIDDEN', OrganizationMessages.notAdmin), { status: 403 }),
    ),
    http.post('*/api/organization/invitations/:id/accept', ({ params }) => {
      calls.push(`accept ${String(params.id)}`);
      if (answer === 'last-admin')
        return HttpResponse.json(errorBody('CONFLICT', OrganizationMessages.lastAdminLeaving), { status: 409 });
      pending = [];
      return HttpResponse.json({ organizationId: 'org-uni', name: 'University of Example', role: 'member' });
    }),
    http.delete('*/api/organization/invitations/:id', ({ params }) => {
      calls.push(`decline ${String(params.id)}`);
      pending = [];
      return HttpResponse.json({ organizationId: params.id });
    }),
  );
  return calls;
}

describe('invitations to another organization', () => {
  it('shows the invitation to a creator who is not an admin, and moves them when they accept', async () => {
    const calls = serveInvitations('moved');
    signInAs();
    const { user } = renderApp('/creator/organization');
    expect(await screen.findByText('University of Example invited you as Member')).toBeInTheDocument();
    expect(screen.getByText(/Your exams, their shares and results stay yours/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Accept and move' }));
    expect(await screen.findByText('You are now in University of Example')).toBeInTheDocument();
    expect(calls).toEqual(['accept org-uni']);
    await waitFor(() => expect(screen.queryByText(/invited you as/)).not.toBeInTheDocument());
  });

  it('says why the last admin of an organization cannot move yet, and keeps the invitation', async () => {
    serveInvitations('last-admin');
    signInAs();
    const { user } = renderApp('/creator/organization');
    await user.click(await screen.findByRole('button', { name: 'Accept and move' }));
    expect(await screen.findByText(OrganizationMessages.lastAdminLeaving)).toBeInTheDocument();
    expect(screen.getByText('University of Example invited you as Member')).toBeInTheDocument();
  });

  it('declines', async () => {
    const calls = serveInvitations('moved');
    signInAs();
    const { user } = renderApp('/creator/organization');
    await user.click(await screen.findByRole('button', { name: 'Decline' }));
    expect(await screen.findByText('Invitation declined')).toBeInTheDocument();
    expect(calls).toEqual(['decline org-uni']);
    await waitFor(() => expect(screen.queryByText(/invited you as/)).not.toBeInTheDocument());
  });
});
