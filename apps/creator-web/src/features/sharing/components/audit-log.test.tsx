import type { AuditLogResponse } from '@exam/domain/sharing';
import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { makeExam, signInAs } from '../../../testing/factories.ts';
import { seedExams } from '../../../testing/handlers.ts';
import { renderApp } from '../../../testing/render.tsx';
import { server } from '../../../testing/server.ts';

const page = (overrides: Partial<AuditLogResponse> = {}): AuditLogResponse => ({
  events: [
    {
      id: 'r-1',
      examId: 'exam-1',
      actorId: 'u-2',
      actorEmail: 'grader@example.test',
      action: 'result.graded',
      subject: 'S-1',
      detail: { points: 4 },
      at: '2026-01-05T10:05:00.000Z',
    },
    {
      id: 'e-1',
      examId: 'exam-1',
      actorId: 'me',
      actorEmail: 'owner@example.test',
      action: 'member.role-changed',
      subject: 'grader@example.test',
      detail: { from: 'viewer', to: 'grader', mayRelease: false },
      at: '2026-01-05T10:00:00.000Z',
    },
  ],
  nextBefore: null,
  nextBeforeId: null,
  incomplete: [],
  ...overrides,
});

describe("an exam's audit log", () => {
  it('lists who did what, when, to whom, with the details in plain words', async () => {
    seedExams(makeExam({ id: 'exam-1', title: 'Biology', role: 'owner' }));
    server.use(http.get('*/api/exams/exam-1/audit', () => HttpResponse.json(page())));
    signInAs();
    renderApp('/creator/exam-audit/exam-1');
    const table = await screen.findByRole('table', { name: 'Audit events' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows[0]).toHaveTextContent('grader@example.test');
    expect(rows[0]).toHaveTextContent('Graded a result');
    expect(rows[0]).toHaveTextContent('points: 4');
    expect(rows[1]).toHaveTextContent('Changed a role');
    expect(rows[1]).toHaveTextContent('Viewer → Grader');
    expect(within(rows[1]!).getByText(/2026/).tagName).toBe('TIME');
    expect(screen.queryByRole('status', { name: /could not be loaded/ })).not.toBeInTheDocument();
  });

  it("says when results-service's half is missing", async () => {
    seedExams(makeExam({ id: 'exam-1', title: 'Biology', role: 'owner' }));
    server.use(
      http.get('*/api/exams/exam-1/audit', () => HttpResponse.json(page({ incomplete: ['results-service'] }))),
    );
    signInAs();
    renderApp('/creator/exam-audit/exam-1');
    expect(await screen.findByText(/could not be loaded just now/)).toBeInTheDocument();
  });
});
