import { render, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { signInAs } from '../../../testing/factories.ts';
import { server } from '../../../testing/server.ts';
import { ResultLiveLog } from './result-live-log.tsx';

const renderLog = (resultId: string) =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ResultLiveLog resultId={resultId} />
      <p>rendered</p>
    </QueryClientProvider>,
  );

describe("a result's live log", () => {
  it('lists the announcements made during the attempt and who ended it', async () => {
    server.use(
      http.get('*/api/results/r1/announcements', () =>
        HttpResponse.json({
          announcements: [{ id: 'a1', text: 'Ten minutes left', at: '2030-01-01T10:20:00.000Z' }],
          endedBy: 'proctor@example.com',
          endedAt: '2030-01-01T10:25:00.000Z',
        }),
      ),
    );
    signInAs();
    renderLog('r1');
    const list = await screen.findByRole('list', { name: 'Announcements during the attempt' });
    expect(list).toHaveTextContent('Ten minutes left');
    expect(screen.getByText(/^Ended by proctor@example\.com at /)).toBeInTheDocument();
  });

  it('shows nothing when nothing was announced and nobody ended the attempt', async () => {
    signInAs();
    renderLog('r2');
    await screen.findByText('rendered');
    // Give the (default, empty) answer time to arrive.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(screen.queryByText('During the exam')).not.toBeInTheDocument();
  });
});
