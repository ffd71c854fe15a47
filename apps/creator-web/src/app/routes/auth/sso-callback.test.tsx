import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeToken, makeUser } from '../../../testing/factories.ts';
import { errorBody } from '../../../testing/handlers.ts';
import { renderApp } from '../../../testing/render.tsx';
import { server } from '../../../testing/server.ts';

describe('sign-in through the organization (SSO)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('asks for the work e-mail and sends the browser to the provider the service names', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    const sent: unknown[] = [];
    server.use(
      http.post('*/api/auth/sso/start', async ({ request }) => {
        sent.push(await request.json());
        return HttpResponse.json({ authorizationUrl: 'https://idp.example.edu/auth?state=abc' });
      }),
    );
    const { user } = renderApp('/creator/auth');
    await user.click(screen.getByRole('button', { name: 'Sign in with your organization (SSO)' }));
    await user.type(screen.getByLabelText('Work e-mail'), 'ada@example.edu');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://idp.example.edu/auth?state=abc'));
    expect(sent).toEqual([{ email: 'ada@example.edu' }]);
  });

  it("shows the service's answer when no organization signs in the e-mail's domain", async () => {
    server.use(
      http.post('*/api/auth/sso/start', () =>
        HttpResponse.json(errorBody('NOT_FOUND', 'No organization signs in that e-mail domain.'), { status: 404 }),
      ),
    );
    const { user } = renderApp('/creator/auth');
    await user.click(screen.getByRole('button', { name: 'Sign in with your organization (SSO)' }));
    await user.type(screen.getByLabelText('Work e-mail'), 'ada@nowhere.example');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('No organization signs in that e-mail domain.');
  });

  it('exchanges the ticket from the fragment for a session, once, and opens the dashboard', async () => {
    const tickets: unknown[] = [];
    server.use(
      http.post('*/api/auth/sso/session', async ({ request }) => {
        tickets.push(await request.json());
        return HttpResponse.json({
          token: makeToken({ email: 'ada@example.edu' }),
          user: makeUser({ email: 'ada@example.edu' }),
        });
      }),
    );
    const { router } = renderApp('/sso-callback#ticket=one-time');
    await waitFor(() => expect(router.state.location.pathname).toBe('/creator/dashboard'));
    expect(tickets).toEqual([{ ticket: 'one-time' }]);
    expect(localStorage.getItem('authToken')).toBeTruthy();
  });

  it('names why the sign-in failed when the callback sends an error', async () => {
    renderApp('/sso-callback#error=not-linked');
    expect(await screen.findByRole('alert')).toHaveTextContent('cannot be linked to an account here');
    expect(screen.getByRole('link', { name: 'Back to Sign In' })).toBeInTheDocument();
  });
});
