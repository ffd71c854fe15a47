import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { buildPublicExam } from '../../../testing/factories.ts';
import { createFakeResultsService } from '../../../testing/fake-results-service.ts';
import { renderRoute } from '../../../testing/render.tsx';
import { seedAttempt } from '../../../testing/seed.ts';
import { server } from '../../../testing/server.ts';
import { createFakeGateway, transcriptMessage } from '../../../testing/fake-gateway.ts';

const REPLY = 'Use the quadratic formula on both roots.';

async function openExamWithAssistant() {
  const exam = buildPublicExam({
    aiSettings: {
      enabled: true,
      provider: 'openai',
      model: 'gpt-4o-mini',
      startMessage: 'Hi!',
      copyLLMResponse: true,
      uploadDocuments: false,
      materialNames: [],
      missing: [],
    },
  });
  const fake = createFakeResultsService({ exam, attemptId: crypto.randomUUID() });
  const gateway = createFakeGateway({
    transcript: [
      transcriptMessage({ role: 'user', content: 'How do I start?' }),
      transcriptMessage({ role: 'assistant', content: REPLY }),
    ],
  });
  server.use(...fake.handlers, ...gateway.handlers);
  await seedAttempt(exam, fake.attemptId);
  const view = renderRoute(`/exam/${exam.id}`);
  const reply = await screen.findByText(REPLY);
  return { ...view, fake, gateway, replyBubble: reply.closest('[data-testid="chat-message"]') as HTMLElement };
}

/** jsdom has no ClipboardEvent; an Event with clipboardData is what the page's paste guard reads. */
function paste(target: Element, text: string): Event {
  const event = new Event('paste', { bubbles: true, cancelable: true });
  Object.defineProperty(event, 'clipboardData', {
    value: { getData: (format: string) => (format === 'text/plain' ? text : '') },
  });
  act(() => void target.dispatchEvent(event));
  return event;
}

describe('the assistant inside the exam page', () => {
  it('lets a reply copied with its Copy button be pasted into an answer, as a copy made inside the exam', async () => {
    const { user, fake, replyBubble } = await openExamWithAssistant();
    const answer = screen.getByLabelText('Answer for Q1');
    expect(paste(answer, REPLY).defaultPrevented).toBe(true);

    await user.click(within(replyBubble).getByRole('button', { name: 'Copy' }));
    expect(await within(replyBubble).findByRole('button', { name: 'Copied' })).toBeInTheDocument();
    await expect(navigator.clipboard.readText()).resolves.toBe(REPLY);
    expect(paste(answer, REPLY).defaultPrevented).toBe(false);
    await waitFor(() =>
      expect(fake.state.events.map((e) => e.type)).toEqual(expect.arrayContaining(['copy', 'paste-allowed'])),
    );
  });

  it('tells the candidate to copy by hand when the clipboard refuses', async () => {
    const { user, replyBubble } = await openExamWithAssistant();
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new DOMException('Denied', 'NotAllowedError'));
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    await user.click(within(replyBubble).getByRole('button', { name: 'Copy' }));
    await waitFor(() => expect(alert).toHaveBeenCalledWith('Copy failed. Please manually select and copy the text.'));
  });
});
