import { AuthMessages } from '@exam/domain/auth';
import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { signInAs } from '../../../testing/factories.ts';
import { errorBody, seedExams } from '../../../testing/handlers.ts';
import { renderApp } from '../../../testing/render.tsx';
import { server } from '../../../testing/server.ts';

/** Records each call to an account endpoint: its body and bearer header. */
function recordCalls(path: string, answer: () => Response) {
  const calls: Array<{ body: unknown; authorization: string | null }> = [];
  server.use(
    http.post(`*${path}`, async ({ request }) => {
      const text = await request.text();
      calls.push({ body: text ? JSON.parse(text) : undefined, authorization: request.headers.get('authorization') });
      return answer();
    }),
  );
  return calls;
}

describe('sign-out', () => {
  it('ends the session on the server with its token, then clears the browser and leaves', async () => {
    seedExams();
    const token = signInAs('ada@example.com');
    const calls = recordCalls('/api/auth/logout', () => HttpResponse.json({ message: AuthMessages.signedOut }));
    const { user, router } = renderApp('/creator/dashboard');
    await user.click(await screen.findByRole('button', { name: 'Sign Out' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(calls).toEqual([{ body: undefined, authorization: `Bearer ${token}` }]);
    expect(localStorage.getItem('authToken')).toBeNull();
  });
});

describe('account page', () => {
  it('changes the password with the current one and confirms', async () => {
    signInAs();
    const calls = recordCalls('/api/auth/password', () => HttpResponse.json({ message: AuthMessages.passwordChanged }));
    const { user } = renderApp('/creator/account');
    await user.type(await screen.findByLabelText('Current Password'), 'old-password-1');
    await user.type(screen.getByLabelText('New Password'), 'brand-new-password-2');
    await user.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText(AuthMessages.passwordChanged)).toBeInTheDocument();
    expect(calls.map((c) => c.body)).toEqual([
      { currentPassword: 'old-password-1', newPassword: 'brand-new-password-2' },
    ]);
  });

  it('shows the server’s reasons under the fields they name', async () => {
    signInAs();
    recordCalls('/api/auth/password', () =>
      HttpResponse.json(
        errorBody('VALIDATION', AuthMessages.wrongCurrentPassword, [
          { path: 'currentPassword', message: AuthMessages.wrongCurrentPassword },
        ]),
        { status: 400 },
      ),
    );
    const { user } = renderApp('/creator/account');
    await user.type(await screen.findByLabelText('Current Password'), 'not-it-at-all');
    await user.type(screen.getByLabelText('New Password'), 'brand-new-password-2');
    await user.click(screen.getByRole('button', { name: 'Change Password' }));
    await waitFor(() =>
      expect(screen.getByLabelText('Current Password')).toHaveAccessibleDescription(AuthMessages.wrongCurrentPassword),
    );
  });

  it('refuses a new password under 10 characters without calling the server', async () => {
    signInAs();
    const calls = recordCalls('/api/auth/password', () => HttpResponse.json({ message: 'x' }));
    const { user } = renderApp('/creator/account');
    await user.type(await screen.findByLabelText('Current Password'), 'old-password-1');
    await user.type(screen.getByLabelText('New Password'), 'short');
    await user.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText('Password must be at least 10 characters')).toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it('signs out everywhere, then clears the browser and returns to sign-in', async () => {
    const token = signInAs();
    const calls = recordCalls('/api/auth/logout-all', () =>
      HttpResponse.json({ message: AuthMessages.signedOutEverywhere }),
    );
    const { user, router } = renderApp('/creator/account');
    await user.click(await screen.findByRole('button', { name: 'Sign Out Everywhere' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/creator/auth'));
    expect(calls).toEqual([{ body: undefined, authorization: `Bearer ${token}` }]);
    expect(localStorage.getItem('authToken')).toBeNull();
  });
});

describe('forgotten password', () => {
  it('asks for a link and shows the same answer the server gives for any address', async () => {
    const calls = recordCalls('/api/auth/password-reset', () =>
      HttpResponse.json({ message: AuthMessages.resetAccepted }, { status: 202 }),
    );
    const { user } = renderApp('/forgot-password');
    await user.type(screen.getByLabelText('Email Address'), 'Ada@Example.com');
    await user.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(await screen.findByText(AuthMessages.resetAccepted)).toBeInTheDocument();
    expect(calls.map((c) => c.body)).toEqual([{ email: 'ada@example.com' }]);
    expect(calls[0]?.authorization).toBeNull();
  });

  it('asks for the email when the field is empty, without calling the server', async () => {
    const calls = recordCalls('/api/auth/password-reset', () =>
      HttpResponse.json({ message: AuthMessages.resetAccepted }, { status: 202 }),
    );
    const { user } = renderApp('/forgot-password');
    await user.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(await screen.findByText('Enter your email')).toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it('shows the server’s message when it refuses too many requests', async () => {
    recordCalls('/api/auth/password-reset', () =>
      HttpResponse.json(errorBody('RATE_LIMITED', AuthMessages.resetThrottled), { status: 429 }),
    );
    const { user } = renderApp('/forgot-password');
    await user.type(screen.getByLabelText('Email Address'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(await screen.findByText(AuthMessages.resetThrottled)).toBeInTheDocument();
  });
});

describe('reset page', () => {
  it('sets the new password with the token from the link and offers to sign in', async () => {
    const calls = recordCalls('/api/auth/password-reset/confirm', () =>
      HttpResponse.json({ message: AuthMessages.passwordReset }),
    );
    const { user } = renderApp('/reset-password#token=tok-123');
    await user.type(screen.getByLabelText('New Password'), 'brand-new-password-2');
    await user.type(screen.getByLabelText('Repeat New Password'), 'brand-new-password-2');
    await user.click(screen.getByRole('button', { name: 'Set New Password' }));
    expect(await screen.findByText(AuthMessages.passwordReset)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to Sign In' })).toHaveAttribute('href', '/creator/auth');
    expect(calls.map((c) => c.body)).toEqual([{ token: 'tok-123', password: 'brand-new-password-2' }]);
  });

  it('refuses differing passwords on the page, and shows the server’s reason under the field', async () => {
    recordCalls('/api/auth/password-reset/confirm', () =>
      HttpResponse.json(
        errorBody('VALIDATION', AuthMessages.commonPassword, [
          { path: 'password', message: AuthMessages.commonPassword },
        ]),
        { status: 400 },
      ),
    );
    const { user } = renderApp('/reset-password#token=tok-123');
    await user.type(screen.getByLabelText('New Password'), 'password1234');
    await user.type(screen.getByLabelText('Repeat New Password'), 'password12345');
    await user.click(screen.getByRole('button', { name: 'Set New Password' }));
    expect(await screen.findByText('The passwords do not match')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Repeat New Password'));
    await user.type(screen.getByLabelText('Repeat New Password'), 'password1234');
    await user.click(screen.getByRole('button', { name: 'Set New Password' }));
    await waitFor(() =>
      expect(screen.getByLabelText('New Password')).toHaveAccessibleDescription(AuthMessages.commonPassword),
    );
  });

  it('shows an expired link’s message from the server', async () => {
    recordCalls('/api/auth/password-reset/confirm', () =>
      HttpResponse.json(
        errorBody('VALIDATION', AuthMessages.resetInvalid, [{ path: 'token', message: AuthMessages.resetInvalid }]),
        { status: 400 },
      ),
    );
    const { user } = renderApp('/reset-password#token=old');
    await user.type(screen.getByLabelText('New Password'), 'brand-new-password-2');
    await user.type(screen.getByLabelText('Repeat New Password'), 'brand-new-password-2');
    await user.click(screen.getByRole('button', { name: 'Set New Password' }));
    expect(await screen.findByText(AuthMessages.resetInvalid)).toBeInTheDocument();
  });

  it('says the link is incomplete when it has no token', async () => {
    renderApp('/reset-password');
    expect(await screen.findByText(/This reset link is incomplete/)).toBeInTheDocument();
    expect(screen.queryByLabelText('New Password')).toBeNull();
  });
});
