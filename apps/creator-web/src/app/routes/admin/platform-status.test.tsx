import { AdminMessages, type PlatformStatus } from '@exam/domain/service-status';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { signInAs } from '../../../testing/factories.ts';
import { errorBody, seedExams } from '../../../testing/handlers.ts';
import { renderApp } from '../../../testing/render.tsx';
import { server } from '../../../testing/server.ts';

const STATUS: PlatformStatus = {
  checkedAt: '2026-11-29T17:30:00.000Z',
  services: [
    {
      service: 'exam-service',
      reachable: true,
      elapsedMs: 12,
      items: [
        { name: 'database', state: 'ok', summary: 'Available' },
        {
          name: 'mail delivery',
          state: 'degraded',
          summary: 'Written to the outbox folder only: nobody receives it',
          detail: 'SMTP_URL is not set; mail is written under DATA_DIR/outbox',
        },
      ],
    },
    {
      service: 'workspace-orchestrator',
      reachable: true,
      elapsedMs: 40,
      items: [
        { name: 'workspace engine: docker', state: 'ok', summary: 'Available' },
        { name: 'code runner: javascript', state: 'degraded', summary: 'Slow' },
        {
          name: 'code runner: python',
          state: 'failing',
          summary: 'Not installed',
          detail: 'runner image exam/runner-python is not built (scripts/build-runner-images.sh python)',
        },
      ],
    },
    {
      service: 'llm-gateway',
      reachable: false,
      elapsedMs: 2003,
      items: [{ name: 'service', state: 'failing', summary: 'Not answering', detail: 'timeout after 2000 ms' }],
    },
  ],
};

const serveStatus = (status: PlatformStatus = STATUS) => {
  let calls = 0;
  server.use(
    http.get('*/api/admin/me', () => HttpResponse.json({ admin: true })),
    http.get('*/api/admin/status', () => {
      calls += 1;
      return HttpResponse.json(status);
    }),
  );
  return { calls: () => calls };
};

describe('/admin/status', () => {
  it("shows each service, its checks' states in words, failing first, with the operator's detail", async () => {
    signInAs('ops@example.com');
    serveStatus();
    renderApp('/admin/status');
    expect(await screen.findByRole('heading', { level: 1, name: 'Platform status' })).toBeInTheDocument();
    const orchestrator = await screen.findByRole('region', { name: 'workspace-orchestrator' });
    const rows = within(orchestrator).getAllByRole('row').slice(1);
    // Failing, then degraded, then OK, whatever the service's own order.
    expect(rows.map((row) => within(row).getAllByRole('cell')[0]!.textContent)).toEqual([
      'code runner: python',
      'code runner: javascript',
      'workspace engine: docker',
    ]);
    expect(within(rows[0]!).getByText('Failing')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Degraded')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('OK')).toBeInTheDocument();
    const detail = within(rows[0]!).getByText(/scripts\/build-runner-images\.sh python/);
    expect(detail.tagName).toBe('CODE');

    const exam = screen.getByRole('region', { name: 'exam-service' });
    expect(within(exam).getByText('Answered in 12 ms')).toBeInTheDocument();
    expect(within(exam).getByText('Degraded')).toBeInTheDocument();
    const gateway = screen.getByRole('region', { name: 'llm-gateway' });
    expect(within(gateway).getByText('Not answering (after 2003 ms)')).toBeInTheDocument();
    expect(screen.getByText(/^Checked at /)).toBeInTheDocument();
  });

  it('asks again when the administrator presses Refresh', async () => {
    signInAs('ops@example.com');
    const { calls } = serveStatus();
    const { user } = renderApp('/admin/status');
    await screen.findByRole('region', { name: 'exam-service' });
    expect(calls()).toBe(1);
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(calls()).toBe(2));
  });

  it('tells a creator who is not an administrator (403) that only administrators see it, with no table', async () => {
    signInAs('grace@example.com');
    server.use(
      http.get('*/api/admin/status', () =>
        HttpResponse.json(errorBody('FORBIDDEN', AdminMessages.forbidden), { status: 403 }),
      ),
    );
    renderApp('/admin/status');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Only platform administrators can see the platform status',
    );
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Refresh' })).not.toBeInTheDocument();
  });
});

describe('the Platform status link', () => {
  it('is in the header for a platform administrator and opens the page', async () => {
    seedExams();
    signInAs('ops@example.com');
    serveStatus();
    const { user, router } = renderApp('/creator/dashboard');
    await user.click(await screen.findByRole('link', { name: 'Platform status' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/status'));
    expect(await screen.findByRole('region', { name: 'llm-gateway' })).toBeInTheDocument();
  });

  it('is not shown to a creator who is not an administrator', async () => {
    seedExams();
    signInAs('grace@example.com');
    let asked = false;
    server.use(
      http.get('*/api/admin/me', () => {
        asked = true;
        return HttpResponse.json({ admin: false });
      }),
    );
    renderApp('/creator/dashboard');
    expect(await screen.findByText('Welcome, grace@example.com')).toBeInTheDocument();
    await waitFor(() => expect(asked).toBe(true));
    expect(screen.queryByRole('link', { name: 'Platform status' })).not.toBeInTheDocument();
  });
});
