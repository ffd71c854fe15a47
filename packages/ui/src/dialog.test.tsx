import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { ConfirmDialog, Dialog } from './dialog.tsx';
import { DropdownMenu, DropdownMenuItem } from './dropdown-menu.tsx';

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

/** A row's menu whose item opens a confirmation, as the creator's exam tables do. */
function WithMenu() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <DropdownMenu trigger={<button>More actions</button>}>
        <DropdownMenuItem onSelect={() => setOpen(true)}>Delete</DropdownMenuItem>
      </DropdownMenu>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title="Delete?"
        description="Sure?"
        onConfirm={() => setOpen(false)}
      />
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

  it('opened from a menu item, return the focus to the menu button (the item is gone with its menu)', async () => {
    const user = userEvent.setup();
    render(<WithMenu />);
    const menuButton = screen.getByRole('button', { name: 'More actions' });
    menuButton.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.getByRole('menuitem', { name: 'Delete' })).toHaveFocus());
    await user.keyboard('{Enter}');
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    await waitFor(() => expect(menuButton).toHaveFocus());
  });
});
