import type { ExamMembersResponse } from '@exam/domain/sharing';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { makeExam, signInAs } from '../../../testing/factories.ts';
import { seedExams } from '../../../testing/handlers.ts';
import { renderApp } from '../../../testing/render.tsx';
import { server } from '../../../testing/server.ts';

const members = (overrides: Partial<ExamMembersResponse> = {}): ExamMembersResponse => ({
  owner: { creatorId: 'me', email: 'owner@example.test' },
  members: [
    {
      creatorId: 'u-2',
      email: 'grader@example.test',
      role: 'grader',
      mayRelease: false,
      addedAt: '2026-01-05T10:00:00.000Z',
    },
  ],
  invites: [{ email: 'later@example.test', role: 'proctor', mayRelease: false, invitedAt: '2026-01-06T10:00:00.000Z' }],
  ...overrides,
});

describe('the sharing page of an exam', () => {
  it('lists the owner, members and pending invites, and shares with a grader who may release results', async () => {
    seedExams(makeExam({ id: 'exam-1', title: 'Biology', role: 'owner' }));
    const sent: unknown[] = [];
    server.use(
      http.get('*/api/exams/exam-1/members', () => HttpResponse.json(members())),
      http.post('*/api/exams/exam-1/members', async ({ request }) => {
        sent.push(await request.json());
        return HttpResponse.json(
          {
            kind: 'member',
            member: {
              creatorId: 'u-3',
              email: 'ta@example.test',
              role: 'grader',
              mayRelease: true,
              addedAt: '2026-01-07T10:00:00.000Z',
            },
          },
          { status: 201 },
        );
      }),
    );
    signInAs();
    const { user } = renderApp('/creator/exam-sharing/exam-1');
    const people = await screen.findByRole('table', { name: 'People with access' });
    expect(within(people).getByText('owner@example.test (you)')).toBeInTheDocument();
    expect(within(people).getByText('grader@example.test')).toBeInTheDocument();
    expect(
      within(screen.getByRole('table', { name: 'Pending invites' })).getByText('later@example.test'),
    ).toBeInTheDocument();

    await user.type(screen.getByLabelText('E-mail address'), 'ta@example.test');
    await user.click(screen.getByLabelText('May release results'));
    await user.click(screen.getByRole('button', { name: 'Share' }));
    await waitFor(() => expect(sent).toEqual([{ email: 'ta@example.test', role: 'grader', mayRelease: true }]));
  });

  it("shows the server's reason beside the field it names", async () => {
    seedExams(makeExam({ id: 'exam-1', title: 'Biology', role: 'owner' }));
    server.use(
      http.get('*/api/exams/exam-1/members', () => HttpResponse.json(members({ members: [], invites: [] }))),
      http.post('*/api/exams/exam-1/members', () =>
        HttpResponse.json(
          {
            error: {
              code: 'VALIDATION',
              message: 'You own this exam: share it with someone else',
              issues: [{ path: 'email', message: 'You own this exam: share it with someone else' }],
            },
          },
          { status: 400 },
        ),
      ),
    );
    signInAs();
    const { user } = renderApp('/creator/exam-sharing/exam-1');
    await user.type(await screen.findByLabelText('E-mail address'), 'owner@example.test');
    await user.click(screen.getByRole('button', { name: 'Share' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('You own this exam: share it with someone else');
    expect(screen.getByLabelText('E-mail address')).toHaveAttribute('aria-invalid', 'true');
  });

  it('tells a member opening the page by its URL that sharing is not part of their role', async () => {
    seedExams(
      makeExam({
        id: 'exam-1',
        title: 'Biology',
        isDraft: false,
        role: 'grader',
        capabilities: ['exam:view', 'exam:read-content', 'results:read', 'results:grade'],
      }),
    );
    signInAs();
    renderApp('/creator/exam-sharing/exam-1');
    expect(await screen.findByRole('heading', { name: 'This page is not part of your role' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Only the owner can share this exam.');
    const nav = screen.getByRole('navigation', { name: 'Exam pages' });
    expect(within(nav).getByRole('link', { name: 'Results' })).toBeInTheDocument();
    for (const hidden of ['Edit', 'Live', 'Sharing', 'Audit log', 'Insights'])
      expect(within(nav).queryByRole('link', { name: hidden })).not.toBeInTheDocument();
  });
});

describe('the exam list with exams shared with me', () => {
  it('shows my role on a shared exam and only the actions the role includes', async () => {
    seedExams(
      makeExam({
        id: 'exam-2',
        title: 'Chemistry',
        isDraft: false,
        role: 'proctor',
        capabilities: ['exam:view', 'live:view', 'live:control'],
      }),
    );
    signInAs();
    const { user } = renderApp('/creator/dashboard');
    const table = await screen.findByRole('table', { name: 'Published Exams' });
    expect(within(table).getByText('Your role: Proctor')).toBeInTheDocument();
    expect(within(table).queryByRole('link', { name: 'Edit' })).not.toBeInTheDocument();
    expect(within(table).queryByRole('link', { name: 'Results' })).not.toBeInTheDocument();
    expect(within(table).queryByRole('switch')).not.toBeInTheDocument();
    await user.click(within(table).getByRole('button', { name: 'More actions' }));
    const menu = await screen.findByRole('menu');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent?.trim()),
    ).toEqual(['Live view', 'Accommodations']);
  });
});
