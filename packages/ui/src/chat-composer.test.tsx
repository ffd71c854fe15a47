import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ChatComposer } from './chat-composer.tsx';

function Harness({ onSend, canSend = true }: { onSend: (text: string) => void; canSend?: boolean }) {
  const [value, setValue] = useState('');
  return (
    <ChatComposer
      value={value}
      onChange={setValue}
      canSend={canSend && value.trim() !== ''}
      onSend={() => onSend(value)}
    />
  );
}

describe('ChatComposer', () => {
  it('sends on Enter and adds a line on Shift+Enter', async () => {
    const onSend = vi.fn();
    const user = userEvent.setup();
    render(<Harness onSend={onSend} />);
    const box = screen.getByRole('textbox', { name: 'Message' });
    await user.type(box, 'first{Shift>}{Enter}{/Shift}second');
    expect(box).toHaveValue('first\nsecond');
    expect(onSend).not.toHaveBeenCalled();
    await user.type(box, '{Enter}');
    expect(onSend).toHaveBeenCalledWith('first\nsecond');
  });

  it('does not send when sending is not allowed', async () => {
    const onSend = vi.fn();
    const user = userEvent.setup();
    render(<Harness onSend={onSend} canSend={false} />);
    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'hello{Enter}');
    expect(onSend).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Send message' })).toBeDisabled();
  });

  it('caps the text area at 120 px and lets it scroll beyond', () => {
    const scrollHeight = vi.spyOn(HTMLTextAreaElement.prototype, 'scrollHeight', 'get').mockReturnValue(400);
    render(<ChatComposer value={'x\n'.repeat(40)} onChange={() => undefined} onSend={() => undefined} canSend />);
    const box = screen.getByRole('textbox');
    expect(box.style.height).toBe('120px');
    expect(box.style.overflowY).toBe('auto');
    scrollHeight.mockRestore();
  });

  it('describes the input with the keyboard hint, and leaves it out on request', () => {
    const { rerender } = render(<Harness onSend={() => undefined} />);
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveAccessibleDescription(
      'Enter to send · Shift+Enter for a new line',
    );
    rerender(<ChatComposer value="" onChange={() => undefined} onSend={() => undefined} canSend showHint={false} />);
    expect(screen.queryByText(/Shift\+Enter/)).not.toBeInTheDocument();
  });
});
