import { Dialog } from '@exam/ui/dialog';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ResumeCodeMenu } from './resume-code.tsx';
import { saveResume } from './resume-store.ts';

/** The exam header's resume code beside a Submit that opens its dialog, as in the exam room. */
function Header() {
  const [submitting, setSubmitting] = useState(false);
  return (
    <>
      <ResumeCodeMenu attemptId="attempt-1" />
      <button type="button" onClick={() => setSubmitting(true)}>
        Submit Exam
      </button>
      <Dialog open={submitting} onOpenChange={setSubmitting} title="Submit exam?" />
    </>
  );
}

afterEach(() => {
  Object.defineProperty(document, 'fullscreenElement', { configurable: true, value: null });
  Reflect.deleteProperty(navigator, 'keyboard');
});

describe('the exam menu resume code', () => {
  beforeEach(() => saveResume('exam-1', 'S-1', { attemptId: 'attempt-1', code: '7KQ2M9XD' }));

  it('closes with Escape, focus back on its button', async () => {
    const user = userEvent.setup();
    render(<Header />);
    await user.click(screen.getByRole('button', { name: 'Resume code' }));
    expect(screen.getByRole('dialog', { name: 'Resume code' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Resume code' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Resume code' })).toHaveFocus();
  });

  it('in full screen, asks the browser for Escape (Keyboard Lock) while open and gives it back when closed', async () => {
    const keyboard = { lock: vi.fn(() => Promise.resolve()), unlock: vi.fn() };
    Object.defineProperty(navigator, 'keyboard', { configurable: true, value: keyboard });
    Object.defineProperty(document, 'fullscreenElement', { configurable: true, value: document.documentElement });
    const user = userEvent.setup();
    render(<Header />);
    await user.click(screen.getByRole('button', { name: 'Resume code' }));
    expect(keyboard.lock).toHaveBeenCalledWith(['Escape']);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Resume code' })).not.toBeInTheDocument();
    expect(keyboard.unlock).toHaveBeenCalled();
  });

  it('closes when the submit dialog opens, so it never stays behind it', async () => {
    const user = userEvent.setup();
    render(<Header />);
    await user.click(screen.getByRole('button', { name: 'Resume code' }));
    await user.click(screen.getByRole('button', { name: 'Submit Exam' }));
    expect(await screen.findByRole('dialog', { name: 'Submit exam?' })).toBeInTheDocument();
    // The dialog hides the rest of the page from the accessibility tree: look for the popover itself.
    await waitFor(() => expect(screen.queryByTestId('resume-code')).not.toBeInTheDocument());
  });
});
