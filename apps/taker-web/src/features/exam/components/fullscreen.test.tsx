import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { buildPublicExam } from '../../../testing/factories.ts';
import { createFakeResultsService } from '../../../testing/fake-results-service.ts';
import { renderRoute } from '../../../testing/render.tsx';
import { seedAttempt } from '../../../testing/seed.ts';
import { server } from '../../../testing/server.ts';

/** The full-screen prompt's English texts, as the candidate reads them. */
const FullscreenMessages = {
  title: 'Full screen required',
  enter: 'This exam must be taken in full screen. Return to full screen to continue.',
  return: 'You left full screen. This has been recorded as a warning. Return to full screen to continue the exam.',
  refused:
    'Your browser did not switch to full screen. Press the button again; if it keeps failing, tell your instructor.',
  button: 'Return to full screen',
} as const;

/**
 * jsdom has no Fullscreen API. This one behaves as browsers do: requestFullscreen succeeds only while a
 * click is being handled (a user gesture), so the page's own try after a reload is refused.
 */
function installFullscreen() {
  let element: Element | null = null;
  const browser = { refuseEvenOnClick: false };
  const changed = () => document.dispatchEvent(new Event('fullscreenchange'));
  Object.defineProperty(document, 'fullscreenElement', { configurable: true, get: () => element });
  Object.defineProperty(document, 'fullscreenEnabled', { configurable: true, get: () => true });
  const request = vi.fn(async () => {
    const gesture = window.event?.type === 'click';
    if (!gesture || browser.refuseEvenOnClick) throw new TypeError('Permissions check failed');
    element = document.documentElement;
    changed();
  });
  document.documentElement.requestFullscreen = request;
  document.exitFullscreen = vi.fn(async () => {
    element = null;
    changed();
  });
  onTestFinished(() => {
    delete (document as { fullscreenElement?: unknown }).fullscreenElement;
    delete (document as { fullscreenEnabled?: unknown }).fullscreenEnabled;
    delete (document.documentElement as { requestFullscreen?: unknown }).requestFullscreen;
    delete (document as { exitFullscreen?: unknown }).exitFullscreen;
  });
  return {
    browser,
    request,
    /** The candidate presses Escape or the browser's own control: full screen ends without the page asking. */
    leave: () =>
      act(() => {
        element = null;
        changed();
      }),
    isFullscreen: () => element !== null,
  };
}

/** An attempt of an exam that requires full screen, opened the way a reload opens it (no click before). */
async function reloadExam() {
  const fullscreen = installFullscreen();
  const exam = buildPublicExam({ fullScreenEnabled: true, title: 'Full Screen Exam' });
  const fake = createFakeResultsService({ exam });
  server.use(...fake.handlers);
  await seedAttempt(exam, fake.attemptId, { fullScreenRequested: true });
  const view = renderRoute(`/exam/${exam.id}`);
  await screen.findByRole('heading', { name: /^Q1:/ });
  return { ...view, fake, fullscreen };
}

const prompt = () => screen.findByRole('dialog', { name: FullscreenMessages.title });
const warnings = () => screen.getByTestId('warnings-count');

describe('an exam that requires full screen', () => {
  it('asks the candidate back into full screen after a reload, and the button re-enters it', async () => {
    const { user, fake, fullscreen } = await reloadExam();
    const dialog = await prompt();
    expect(dialog).toHaveTextContent(FullscreenMessages.enter);
    // The page tried on its own first; without a click the browser refused.
    expect(fullscreen.request).toHaveBeenCalledTimes(1);
    expect(fullscreen.isFullscreen()).toBe(false);
    expect(warnings()).toHaveTextContent('0');

    await user.click(within(dialog).getByRole('button', { name: FullscreenMessages.button }));
    expect(fullscreen.isFullscreen()).toBe(true);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(fake.state.events.map((e) => e.type)).toEqual(['fullscreen-enter']));
  });

  it('counts leaving full screen as a warning, records it, blocks the exam and lets the button go back', async () => {
    const { user, fake, fullscreen } = await reloadExam();
    await user.click(within(await prompt()).getByRole('button', { name: FullscreenMessages.button }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    for (const expected of ['1', '2']) {
      fullscreen.leave();
      const dialog = await prompt();
      expect(dialog).toHaveTextContent(FullscreenMessages.return);
      expect(warnings()).toHaveTextContent(expected);
      // The prompt is the only dialog: Attention Required does not pile up behind it.
      expect(screen.getAllByRole('dialog')).toHaveLength(1);
      await user.keyboard('{Escape}');
      expect(await prompt()).toBeInTheDocument();

      await user.click(within(dialog).getByRole('button', { name: FullscreenMessages.button }));
      expect(fullscreen.isFullscreen()).toBe(true);
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(warnings()).toHaveTextContent(expected);
    }
    await waitFor(() =>
      expect(fake.state.events.map((e) => e.type)).toEqual([
        'fullscreen-enter',
        'fullscreen-exit',
        'fullscreen-enter',
        'fullscreen-exit',
        'fullscreen-enter',
      ]),
    );
  });

  it('says so when the browser refuses full screen even from the button, and keeps the exam blocked', async () => {
    const { user, fullscreen } = await reloadExam();
    fullscreen.browser.refuseEvenOnClick = true;
    const dialog = await prompt();
    await user.click(within(dialog).getByRole('button', { name: FullscreenMessages.button }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(FullscreenMessages.refused);
    expect(await prompt()).toBeInTheDocument();
  });

  it('does not count the exit of a submit, nor ask for full screen again', async () => {
    const { user, fake, fullscreen } = await reloadExam();
    await user.click(within(await prompt()).getByRole('button', { name: FullscreenMessages.button }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Submit exam' }));
    expect(await screen.findByRole('heading', { name: 'Exam Completed' })).toBeInTheDocument();
    expect(fullscreen.isFullscreen()).toBe(false);
    expect(fake.state.events.map((e) => e.type)).not.toContain('fullscreen-exit');
  });
});
