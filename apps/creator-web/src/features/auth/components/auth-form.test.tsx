import { AuthMessages } from '@exam/domain/auth';
import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { errorBody } from '../../../testing/handlers.ts';
import { renderApp } from '../../../testing/render.tsx';

/** What exam-service answers for an unknown email and a wrong password alike. */
const INVALID_CREDENTIALS = 'Invalid email or password.';
import { server } from '../../../testing/server.ts';

describe('creator sign-in and sign-up', () => {
  it('shows the one invalid-credentials message the server answers (401) and stays on the page', async () => {
    server.use(
      http.post('*/api/auth/login', () =>
        HttpResponse.json(errorBody('UNAUTHENTICATED', INVALID_CREDENTIALS), { status: 401 }),
      ),
    );
    const { user, router } = renderApp('/creator/auth');
    await user.type(screen.getByLabelText('Email Address'), 'nobody@example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText(INVALID_CREDENTIALS)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/creator/auth');
    expect(localStorage.getItem('authToken')).toBeNull();
  });

  it('registers through the Create Account mode and shows the duplicate message on 409', async () => {
    let registerCalls = 0;
    server.use(
      http.post('*/api/auth/register', () => {
        registerCalls += 1;
        return HttpResponse.json(errorBody('CONFLICT', AuthMessages.userExists), { status: 409 });
      }),
    );
    const { user } = renderApp('/creator/auth');
    await user.click(screen.getByRole('button', { name: "Don't have an account? Create One" }));
    expect(screen.getByRole('heading', { name: 'Create Account' })).toBeInTheDocument();
    await user.type(screen.getByLabelText('Email Address'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'long-enough-pw');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText('User already exists. Please sign in instead.')).toBeInTheDocument();
    expect(registerCalls).toBe(1);
    expect(screen.getByRole('button', { name: 'Already have an account? Sign In' })).toBeInTheDocument();
  });

  it('shows Processing... and disables the inputs while the request is pending', async () => {
    let release: () => void = () => undefined;
    server.use(
      http.post(
        '*/api/auth/login',
        () =>
          new Promise<Response>(
            (resolve) =>
              (release = () =>
                resolve(HttpResponse.json(errorBody('UNAUTHENTICATED', INVALID_CREDENTIALS), { status: 401 }))),
          ),
      ),
    );
    const { user } = renderApp('/creator/auth');
    await user.type(screen.getByLabelText('Email Address'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret123');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByRole('button', { name: 'Processing...' })).toBeDisabled();
    expect(screen.getByLabelText('Email Address')).toBeDisabled();
    expect(screen.getByLabelText('Password')).toBeDisabled();
    release();
    expect(await screen.findByText(INVALID_CREDENTIALS)).toBeInTheDocument();
    expect(screen.getByLabelText('Email Address')).toBeEnabled();
  });

  it('asks for the email and the password when sign-in is sent with both fields empty', async () => {
    let calls = 0;
    server.use(http.post('*/api/auth/login', () => ((calls += 1), HttpResponse.json({}))));
    const { user } = renderApp('/creator/auth');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Enter your email')).toBeInTheDocument();
    expect(screen.getByLabelText('Email Address')).toHaveAccessibleDescription('Enter your email');
    expect(screen.getByText('Enter your password')).toBeInTheDocument();
    expect(screen.queryByText('Enter a valid email address')).not.toBeInTheDocument();
    expect(calls).toBe(0);
  });

  it('rejects a bad email, and on sign-up a password under 10 characters, without calling the server', async () => {
    let calls = 0;
    server.use(http.post('*/api/auth/register', () => ((calls += 1), HttpResponse.json({}))));
    const { user } = renderApp('/creator/auth');
    await user.click(screen.getByRole('button', { name: "Don't have an account? Create One" }));
    await user.type(screen.getByLabelText('Email Address'), 'not-an-email');
    await user.type(screen.getByLabelText('Password'), '123456789');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText('Enter a valid email address')).toBeInTheDocument();
    expect(screen.getByText('Password must be at least 10 characters')).toBeInTheDocument();
    expect(calls).toBe(0);
  });

  it('shows the server’s reason under the password field when sign-up refuses a common password', async () => {
    server.use(
      http.post('*/api/auth/register', () =>
        HttpResponse.json(
          errorBody('VALIDATION', AuthMessages.commonPassword, [
            { path: 'password', message: AuthMessages.commonPassword },
          ]),
          { status: 400 },
        ),
      ),
    );
    const { user } = renderApp('/creator/auth');
    await user.click(screen.getByRole('button', { name: "Don't have an account? Create One" }));
    await user.type(screen.getByLabelText('Email Address'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'password123');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    const password = screen.getByLabelText('Password');
    await waitFor(() => expect(password).toHaveAccessibleDescription(AuthMessages.commonPassword));
    expect(password).toHaveAttribute('aria-invalid', 'true');
  });

  it('still sends a short password on sign-in, for accounts made before the policy', async () => {
    const { user, router } = renderApp('/creator/auth');
    await user.type(screen.getByLabelText('Email Address'), 'old@example.com');
    await user.type(screen.getByLabelText('Password'), '123456');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/creator/dashboard'), { timeout: 3000 });
  });

  it('links to the forgotten-password page from sign-in', async () => {
    const { user, router } = renderApp('/creator/auth');
    await user.click(screen.getByRole('link', { name: 'Forgot your password?' }));
    expect(router.state.location.pathname).toBe('/forgot-password');
    expect(await screen.findByRole('heading', { name: 'Reset your password' })).toBeInTheDocument();
  });

  it('stores the session and opens the dashboard about a second after signing in', async () => {
    const { user, router } = renderApp('/creator/auth');
    await user.type(screen.getByLabelText('Email Address'), 'Ada@Example.com');
    await user.type(screen.getByLabelText('Password'), 'secret123');
    const started = Date.now();
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/creator/dashboard'), { timeout: 3000 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(localStorage.getItem('authToken')).toBeTruthy();
    expect(JSON.parse(localStorage.getItem('user') ?? '{}')).toMatchObject({ email: 'ada@example.com' });
    expect(await screen.findByText('Welcome, ada@example.com')).toBeInTheDocument();
  });
});
