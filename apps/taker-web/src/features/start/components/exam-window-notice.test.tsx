import { WindowMessages } from '@exam/domain/cohort';
import { screen, waitFor } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPublicExam } from '../../../testing/factories.ts';
import { createFakeResultsService } from '../../../testing/fake-results-service.ts';
import { renderRoute } from '../../../testing/render.tsx';
import { server } from '../../../testing/server.ts';

// A zone without daylight saving: the candidate's zone the page names.
const savedTz = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'Asia/Tokyo';
});
afterAll(() => {
  if (savedTz === undefined) delete process.env.TZ;
  else process.env.TZ = savedTz;
});

const state = { examId: 'exam-w', examTitle: 'Windowed', fullScreenRequested: false };

function serveExam(window: { opensAt: string | null; closesAt: string | null }) {
  const fake = createFakeResultsService({ exam: buildPublicExam({ id: 'exam-w', title: 'Windowed', ...window }) });
  server.use(...fake.handlers);
  return fake;
}

describe("the exam's window on the way in", () => {
  it("says when a not-yet-open exam opens, in the candidate's zone, and its briefing offers no Start", async () => {
    const fake = serveExam({ opensAt: '2030-03-04T00:30:00.000Z', closesAt: null });
    fake.state.briefing = { windowState: 'not-yet-open' };
    const { user } = renderRoute('/taker/credentials', state);
    expect(await screen.findByTestId('exam-window')).toHaveTextContent(
      'This exam opens on Monday, March 4, 2030 at 9:30 AM (Asia/Tokyo, UTC+09:00).',
    );
    await user.type(screen.getByLabelText('Full Name'), 'Grace Hopper');
    await user.type(screen.getByLabelText('Candidate ID'), 'C-1');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    const start = await screen.findByRole('button', { name: 'Start Exam' });
    expect(start).toBeDisabled();
    expect(screen.getByTestId('briefing-refusal')).toHaveTextContent('This exam opens on Monday, March 4, 2030');
    expect(fake.state.startBodies).toHaveLength(0);
  });

  it('says a closed exam has closed', async () => {
    serveExam({ opensAt: '2020-01-01T00:00:00.000Z', closesAt: '2020-01-02T00:00:00.000Z' });
    renderRoute('/taker/credentials', state);
    expect(await screen.findByTestId('exam-window')).toHaveTextContent(WindowMessages.closed);
  });

  it('says when an open exam closes, and nothing for one always open', async () => {
    serveExam({ opensAt: '2020-01-01T00:00:00.000Z', closesAt: '2030-03-04T09:00:00.000Z' });
    const first = renderRoute('/taker/credentials', state);
    expect(await screen.findByTestId('exam-window')).toHaveTextContent(
      'This exam closes on Monday, March 4, 2030 at 6:00 PM (Asia/Tokyo, UTC+09:00).',
    );
    first.unmount();
    serveExam({ opensAt: null, closesAt: null });
    renderRoute('/taker/credentials', state);
    expect(await screen.findByLabelText('Full Name')).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(screen.queryByTestId('exam-window')).not.toBeInTheDocument();
  });

  it('opens by itself at the opening time while the page is open', async () => {
    serveExam({ opensAt: new Date(Date.now() + 1200).toISOString(), closesAt: null });
    renderRoute('/taker/credentials', state);
    expect(await screen.findByTestId('exam-window')).toHaveTextContent('This exam opens on');
    await waitFor(() => expect(screen.queryByTestId('exam-window')).not.toBeInTheDocument(), { timeout: 4000 });
  });
});
