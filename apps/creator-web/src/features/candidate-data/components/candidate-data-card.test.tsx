import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { DataErasure } from '@exam/domain/privacy';
import { signInAs } from '../../../testing/factories.ts';
import { fakeResultList } from '../../../testing/fake-results-list.ts';
import { renderApp } from '../../../testing/render.tsx';
import { server } from '../../../testing/server.ts';

const erasure = (overrides: Partial<DataErasure> = {}): DataErasure => ({
  id: 'er-1',
  examId: 'exam-1',
  reason: 'request',
  candidateKeyHash: 'ab'.repeat(32),
  attemptCount: 2,
  requestedAt: '2030-01-01T10:00:00.000Z',
  completedAt: null,
  status: 'pending',
  services: {
    'llm-gateway': { status: 'done', deleted: {} },
    'workspace-orchestrator': { status: 'failed', deleted: {}, error: 'down' },
    'exam-service': { status: 'done', deleted: {} },
    'results-service': { status: 'pending', deleted: {} },
  },
  ...overrides,
});

describe("a candidate's data on the submissions page", () => {
  it('erases only after the candidate ID is typed again, and lists the services still pending', async () => {
    const bodies: unknown[] = [];
    let listed: DataErasure[] = [];
    server.use(
      fakeResultList([]).handler,
      http.get('*/api/exams/exam-1/erasures', () => HttpResponse.json({ erasures: listed })),
      http.post('*/api/exams/exam-1/candidates/erase', async ({ request }) => {
        bodies.push(await request.json());
        listed = [erasure()];
        return HttpResponse.json({ erasure: erasure() });
      }),
    );
    signInAs();
    const { user } = renderApp('/creator/exam-insights/exam-1/submissions');
    expect(await screen.findByText("No candidate's data has been erased from this exam.")).toBeInTheDocument();
    await user.type(screen.getByLabelText('Candidate for a data request'), 'S-42');
    await user.click(screen.getByRole('button', { name: 'Erase data' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Erase the data of S-42?' });
    const confirm = within(dialog).getByRole('button', { name: 'Erase data' });
    expect(confirm).toBeDisabled();
    await user.type(within(dialog).getByLabelText('Type S-42 to confirm'), 'S-4');
    expect(confirm).toBeDisabled();
    await user.type(within(dialog).getByLabelText('Type S-42 to confirm'), '2');
    await user.click(confirm);
    expect(await screen.findByRole('status')).toHaveTextContent(/still pending are retried/);
    expect(bodies).toEqual([{ candidateId: 'S-42' }]);
    const list = await screen.findByTestId('erasure-list');
    expect(list).toHaveTextContent('On request, 2 attempts');
    expect(list).toHaveTextContent('Pending: workspace-orchestrator, results-service');
  });

  it('asks for a candidate ID before exporting or erasing', async () => {
    server.use(fakeResultList([]).handler);
    signInAs();
    const { user } = renderApp('/creator/exam-insights/exam-1/submissions');
    await user.click(await screen.findByRole('button', { name: 'Export data' }));
    expect(await screen.findByText('Enter the candidate ID.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Erase data' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });
});
