import { AuthMessages } from '@exam/domain/auth';
import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { errorBody } from '../../../testing/handlers.ts';
import { renderApp } from '../../../testing/render.tsx';
import { server } from '../../../testing/server.ts';

describe('creator sign-in and sign-up', () => {
  it('shows the server message when the email is unknown', async () => {
    server.use(
      http.post('*/api/auth/login', () =>
        HttpResponse.json(errorBody('NOT_FOUND', AuthMessages.userNotFound), { status: 404 }),
      ),
    );
    const { user } = renderApp('/creator/auth');
    await user.type(screen.getByLabelText('Email Address'), 'nobody@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret123');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('User not found. Please sign up first.')).toBeInTheDocument();
    expect(localStorage.getItem('authToken')).toBeNull();
  });

  it('shows the wrong-password message without leaving the page when login answers 401', async () => {
    server.use(
      http.post('*/api/auth/login', () =>
        HttpResponse.json(errorBody('UNAUTHENTICATED', AuthMessages.invalidPassword), { status: 401 }),
      ),
    );
    const { user, router } = renderApp('/creator/auth');
    await user.type(screen.getByLabelText('Email Address'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Invalid password.')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/creator/auth');
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
    await user.type(screen.getByLabelText('Password'), 'secret123');
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
                resolve(HttpResponse.json(errorBody('NOT_FOUND', AuthMessages.userNotFound), { status: 404 }))),
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
    expect(await screen.findByText(AuthMessages.userNotFound)).toBeInTheDocument();
    expect(screen.getByLabelText('Email Address')).toBeEnabled();
  });

  it('rejects a bad email and a short password on the client without calling the server', async () => {
    let calls = 0;
    server.use(http.post('*/api/auth/login', () => ((calls += 1), HttpResponse.json({}))));
    const { user } = renderApp('/creator/auth');
    await user.type(screen.getByLabelText('Email Address'), 'not-an-email');
    await user.type(screen.getByLabelText('Password'), '123');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Enter a valid email address')).toBeInTheDocument();
    expect(screen.getByText('Password must be at least 6 characters')).toBeInTheDocument();
    expect(calls).toBe(0);
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
