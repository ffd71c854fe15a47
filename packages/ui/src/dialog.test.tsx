import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { ConfirmDialog, Dialog } from './dialog.tsx';

function WithConfirm({ moveFocus }: { moveFocus?: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button onClick={() => setOpen(true)}>Submit</button>
      <input aria-label="Elsewhere" id="elsewhere" />
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title="Submit exam?"
        description="Sure?"
        onConfirm={() => setOpen(false)}
        onCloseAutoFocus={(event) => {
          if (!moveFocus) return;
          event.preventDefault();
          document.getElementById('elsewhere')?.focus();
        }}
      />
    </>
  );
}

function WithDialog() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button onClick={() => setOpen(true)}>Extend time</button>
      <Dialog open={open} onOpenChange={setOpen} title="Extend time">
        <button onClick={() => setOpen(false)}>Done</button>
      </Dialog>
    </>
  );
}

describe('dialogs opened by state', () => {
  it('return the focus to the control that opened them, after Escape and after a button', async () => {
    const user = userEvent.setup();
    render(<WithConfirm />);
    const opener = screen.getByRole('button', { name: 'Submit' });
    await user.click(opener);
    expect(screen.getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(opener).toHaveFocus();

    await user.keyboard('{Enter}');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(opener).toHaveFocus();
  });

  it('leave the focus where the caller put it when it moved it', async () => {
    const user = userEvent.setup();
    render(<WithConfirm moveFocus />);
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await user.keyboard('{Escape}');
    expect(screen.getByLabelText('Elsewhere')).toHaveFocus();
  });

  it('a plain dialog returns the focus too', async () => {
    const user = userEvent.setup();
    render(<WithDialog />);
    const opener = screen.getByRole('button', { name: 'Extend time' });
    await user.click(opener);
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(opener).toHaveFocus();
  });
});
