import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { signInAs } from '../../../testing/factories.ts';
import { fakeResultList } from '../../../testing/fake-results-list.ts';
import { renderApp } from '../../../testing/render.tsx';
import { server } from '../../../testing/server.ts';

describe("unlocking a candidate's attempt from the submissions page", () => {
  it('sends the candidate ID and shows the one-time unlock code to hand the candidate, and until when it works', async () => {
    const bodies: unknown[] = [];
    server.use(
      fakeResultList([]).handler,
      http.post('/api/attempts/unlock', async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({
          attemptId: 'attempt-1',
          name: 'Ada Lovelace',
          studentId: 'S-42',
          unlockCode: '7KQ2M9XD',
          unlockedUntil: '2030-01-01T10:10:00.000Z',
        });
      }),
    );
    signInAs();
    const { user } = renderApp('/creator/exam-insights/exam-1/submissions');
    await user.type(await screen.findByLabelText('Candidate ID'), 's-42');
    await user.click(screen.getByRole('button', { name: 'Unlock resume' }));
    expect(await screen.findByTestId('unlock-status')).toHaveTextContent(
      /^Give Ada Lovelace \(S-42\) the unlock code 7KQ2-M9XD\. It works once, until /,
    );
    expect(bodies).toEqual([{ examId: 'exam-1', studentId: 's-42' }]);
  });

  it("shows the server's refusal on the field when no attempt of this candidate is in progress", async () => {
    const message = 'No attempt in progress with this candidate ID in your exam';
    server.use(
      fakeResultList([]).handler,
      http.post('/api/attempts/unlock', () =>
        HttpResponse.json({ error: { code: 'NOT_FOUND', message } }, { status: 404 }),
      ),
    );
    signInAs();
    const { user } = renderApp('/creator/exam-insights/exam-1/submissions');
    await user.type(await screen.findByLabelText('Candidate ID'), 'S-404');
    await user.click(screen.getByRole('button', { name: 'Unlock resume' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(screen.queryByTestId('unlock-status')).not.toBeInTheDocument();
  });

  it('asks for a candidate ID before sending anything', async () => {
    let sent = 0;
    server.use(
      fakeResultList([]).handler,
      http.post('/api/attempts/unlock', () => (sent++, HttpResponse.json({}))),
    );
    signInAs();
    const { user } = renderApp('/creator/exam-insights/exam-1/submissions');
    await user.click(await screen.findByRole('button', { name: 'Unlock resume' }));
    expect(await screen.findByText('Candidate ID is required')).toBeInTheDocument();
    expect(sent).toBe(0);
  });
});
