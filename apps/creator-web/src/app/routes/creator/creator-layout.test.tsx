import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { makeToken, signInAs } from '../../../testing/factories.ts';
import { errorBody, seedExams } from '../../../testing/handlers.ts';
import { renderApp } from '../../../testing/render.tsx';
import { server } from '../../../testing/server.ts';

describe('creator route guard', () => {
  it('sends the creator to sign-in when there is no token', async () => {
    const { router } = renderApp('/creator/dashboard');
    await waitFor(() => expect(router.state.location.pathname).toBe('/creator/auth'));
    expect(await screen.findByRole('heading', { name: 'Sign In' })).toBeInTheDocument();
  });

  it('removes an expired token and sends the creator to sign-in', async () => {
    localStorage.setItem('authToken', makeToken({ expiresInSeconds: -60 }));
    const { router } = renderApp('/creator/new-exam');
    await waitFor(() => expect(router.state.location.pathname).toBe('/creator/auth'));
    expect(localStorage.getItem('authToken')).toBeNull();
  });

  it('removes a token that does not decode and sends the creator to sign-in', async () => {
    localStorage.setItem('authToken', 'not-a-jwt');
    const { router } = renderApp('/creator/dashboard');
    await waitFor(() => expect(router.state.location.pathname).toBe('/creator/auth'));
    expect(localStorage.getItem('authToken')).toBeNull();
  });

  it('lets a creator with a valid token in and greets them by email', async () => {
    seedExams();
    signInAs('grace@example.com');
    renderApp('/creator/dashboard');
    expect(await screen.findByText('Welcome, grace@example.com')).toBeInTheDocument();
  });

  it('drops the token and returns to sign-in when an API call answers 401', async () => {
    signInAs();
    server.use(
      http.get('*/api/exams/auth_exams', () =>
        HttpResponse.json(errorBody('UNAUTHENTICATED', 'Token expired'), { status: 401 }),
      ),
    );
    const { router } = renderApp('/creator/dashboard');
    await waitFor(() => expect(router.state.location.pathname).toBe('/creator/auth'));
    expect(localStorage.getItem('authToken')).toBeNull();
  });

  it('redirects the legacy grader link to exam 1', async () => {
    signInAs();
    const { router } = renderApp('/creator/grade/cand-7');
    await waitFor(() => expect(router.state.location.pathname).toBe('/creator/grade/1/candidate/cand-7'));
  });
});
