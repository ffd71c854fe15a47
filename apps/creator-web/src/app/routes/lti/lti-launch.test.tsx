import { LtiMessages } from '@exam/domain/lti';
import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeExam, makeToken, makeUser } from '../../../testing/factories.ts';
import { seedExams } from '../../../testing/handlers.ts';
import { renderApp } from '../../../testing/render.tsx';
import { server } from '../../../testing/server.ts';

/** exam-service's launch endpoints as msw handlers, recording what the page sends. */
function serveLaunch(opts: { linked: boolean; next: { kind: 'exam'; examId: string } | { kind: 'deep-link' } }) {
  const calls = {
    session: [] as unknown[],
    link: [] as Array<{ body: unknown; auth: string | null }>,
    deepLinks: [] as unknown[],
  };
  server.use(
    http.post('*/api/lti/launches/session', async ({ request }) => {
      calls.session.push(await request.json());
      return HttpResponse.json(
        opts.linked
          ? {
              status: 'signed-in',
              token: makeToken({ email: 'linked@example.com' }),
              user: makeUser({ email: 'linked@example.com' }),
              next: opts.next,
            }
          : { status: 'link-required', platformName: 'Canvas' },
      );
    }),
    http.post('*/api/lti/launches/link', async ({ request }) => {
      calls.link.push({ body: await request.json(), auth: request.headers.get('authorization') });
      return HttpResponse.json({ next: opts.next });
    }),
    http.post('*/api/lti/deep-links', async ({ request }) => {
      calls.deepLinks.push(await request.json());
      return HttpResponse.json({ returnUrl: 'https://lms.example/deep-links/return', jwt: 'signed.response.jwt' });
    }),
  );
  return calls;
}

describe('an instructor arriving from an LMS launch', () => {
  afterEach(() => vi.restoreAllMocks());

  it('signs a linked instructor in and opens the exam of the link', async () => {
    const exam = makeExam({ isDraft: false, title: 'Linked exam' });
    seedExams(exam);
    const calls = serveLaunch({ linked: true, next: { kind: 'exam', examId: exam.id } });
    const { router } = renderApp('/lti-launch#ticket=t-1');
    await waitFor(() => expect(router.state.location.pathname).toBe(`/creator/exam-published/${exam.id}`));
    expect(calls.session).toEqual([{ ticket: 't-1' }]);
    expect(localStorage.getItem('user')).toContain('linked@example.com');
  });

  it('asks an unlinked instructor to sign in, links the account, then answers the LMS with the chosen exam', async () => {
    const submit = vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(() => undefined);
    seedExams(makeExam({ title: 'Cell biology', isDraft: false }), makeExam({ title: 'Genetics' }));
    const calls = serveLaunch({ linked: false, next: { kind: 'deep-link' } });
    const { user, router } = renderApp('/lti-launch#ticket=t-2');
    expect(await screen.findByRole('heading', { name: 'Link your LMS account' })).toBeInTheDocument();
    await user.type(screen.getByLabelText('Email Address'), 'owner@example.com');
    await user.type(screen.getByLabelText('Password'), 'long-enough-password');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));

    expect(
      await screen.findByRole('heading', { name: 'Choose an exam for your LMS' }, { timeout: 3000 }),
    ).toBeInTheDocument();
    expect(calls.link).toHaveLength(1);
    expect(calls.link[0]).toMatchObject({ body: { ticket: 't-2' }, auth: expect.stringMatching(/^Bearer /) });
    expect(router.state.location.hash).toBe('#ticket=t-2');

    await user.click(await screen.findByRole('button', { name: 'Choose: Genetics' }));
    await waitFor(() => expect(submit).toHaveBeenCalledTimes(1));
    expect(calls.deepLinks).toEqual([{ ticket: 't-2', examId: expect.any(String) }]);
    const form = document.querySelector<HTMLFormElement>('form[action="https://lms.example/deep-links/return"]');
    expect(form?.method).toBe('post');
    expect(form?.querySelector<HTMLInputElement>('input[name="JWT"]')?.value).toBe('signed.response.jwt');
  });

  it('says why when the ticket is spent or expired', async () => {
    server.use(
      http.post('*/api/lti/launches/session', () =>
        HttpResponse.json(
          {
            error: {
              code: 'VALIDATION',
              message: LtiMessages.ticketInvalid,
              issues: [{ path: 'ticket', message: LtiMessages.ticketInvalid }],
            },
          },
          { status: 400 },
        ),
      ),
    );
    renderApp('/lti-launch#ticket=old');
    expect(await screen.findByRole('alert')).toHaveTextContent(LtiMessages.ticketInvalid);
  });

  it('says to start from the LMS when the page has no ticket', async () => {
    renderApp('/lti-launch');
    expect(await screen.findByRole('alert')).toHaveTextContent('This page opens from your LMS');
  });
});
