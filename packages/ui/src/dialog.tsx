import { X } from 'lucide-react';
import { AlertDialog as RadixAlertDialog, Dialog as RadixDialog } from 'radix-ui';
import { useLayoutEffect, useRef, type ReactNode } from 'react';
import { Button } from './button.tsx';
import { cn } from './lib/cn.ts';
import { useTranslation } from 'react-i18next';

const overlay = 'fixed inset-0 z-40 bg-slate-900/40 backdrop-blur-[2px] data-[state=open]:animate-in';
const panel =
  'fixed left-1/2 top-1/2 z-50 w-[min(92vw,32rem)] -translate-x-1/2 -translate-y-1/2 rounded-card border border-line bg-surface p-6 shadow-xl focus:outline-none';

/**
 * Focus back on the control that opened the dialog (WCAG 2.4.3). Radix returns it only to its own Trigger; these
 * dialogs are opened by state, so the element that had the focus when `open` turned true is remembered (a layout
 * effect runs before the dialog's focus scope moves the focus inside) and focused again on close, unless the
 * caller's onCloseAutoFocus moved it elsewhere (event.preventDefault()).
 */
function useReturnFocus(open: boolean, onCloseAutoFocus?: (event: Event) => void) {
  const opener = useRef<HTMLElement | null>(null);
  useLayoutEffect(() => {
    if (open && document.activeElement instanceof HTMLElement && document.activeElement !== document.body)
      opener.current = openerOf(document.activeElement);
  }, [open]);
  return (event: Event) => {
    onCloseAutoFocus?.(event);
    if (event.defaultPrevented) return;
    event.preventDefault();
    if (opener.current?.isConnected) opener.current.focus();
    opener.current = null;
  };
}

/**
 * A menu item goes away with its menu, so a dialog opened from one gives the focus back to the menu's button
 * (dropdown-menu.tsx: the menu is labelled by its button).
 */
function openerOf(element: HTMLElement): HTMLElement {
  const triggerId = element.closest('[role="menu"]')?.getAttribute('aria-labelledby');
  return (triggerId ? document.getElementById(triggerId) : null) ?? element;
}

type DialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
  className?: string;
  /** A labelled close button in the corner, for dialogs with no footer button that closes them. */
  closeButton?: boolean;
};

/** A modal dialog: focus is trapped inside, Escape closes it, focus returns to the opener. */
export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  footer,
  className,
  closeButton,
}: DialogProps) {
  const { t } = useTranslation('ui');
  const returnFocus = useReturnFocus(open);
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className={overlay} />
        <RadixDialog.Content className={cn(panel, className)} onCloseAutoFocus={returnFocus}>
          {closeButton && (
            <RadixDialog.Close asChild>
              <Button
                variant="ghost"
                size="sm"
                className="absolute right-3 top-3 h-8 w-8 p-0"
                aria-label={t('dialog.close')}
                title={t('dialog.close')}
              >
                <X aria-hidden className="h-4 w-4" />
              </Button>
            </RadixDialog.Close>
          )}
          <RadixDialog.Title className={cn('text-lg font-semibold text-ink', closeButton && 'pr-10')}>
            {title}
          </RadixDialog.Title>
          {description ? (
            <RadixDialog.Description className="mt-1 text-sm text-muted">{description}</RadixDialog.Description>
          ) : (
            <RadixDialog.Description className="sr-only">{title}</RadixDialog.Description>
          )}
          {children && <div className="mt-4">{children}</div>}
          {footer && <div className="mt-6 flex justify-end gap-2">{footer}</div>}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

type ConfirmDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  destructive?: boolean;
  isPending?: boolean;
  onConfirm: () => void;
  /** More content between the description and the buttons (a list, a note). */
  children?: ReactNode;
  /** Where focus goes when the dialog closes; call event.preventDefault() to move it yourself. */
  onCloseAutoFocus?: (event: Event) => void;
};

/** An alert dialog asking for confirmation (role="alertdialog"); Cancel has the initial focus. */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  cancelLabel,
  destructive,
  isPending,
  onConfirm,
  children,
  onCloseAutoFocus,
}: ConfirmDialogProps) {
  const { t } = useTranslation('ui');
  const returnFocus = useReturnFocus(open, onCloseAutoFocus);
  return (
    <RadixAlertDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixAlertDialog.Portal>
        <RadixAlertDialog.Overlay className={overlay} />
        <RadixAlertDialog.Content className={panel} onCloseAutoFocus={returnFocus}>
          <RadixAlertDialog.Title className="text-lg font-semibold text-ink">{title}</RadixAlertDialog.Title>
          <RadixAlertDialog.Description className="mt-2 text-sm text-muted">{description}</RadixAlertDialog.Description>
          {children && <div className="mt-3">{children}</div>}
          <div className="mt-6 flex justify-end gap-2">
            <RadixAlertDialog.Cancel asChild>
              <Button variant="secondary">{cancelLabel ?? t('dialog.cancel')}</Button>
            </RadixAlertDialog.Cancel>
            <Button
              variant={destructive ? 'danger' : 'primary'}
              disabled={isPending}
              onClick={(event) => {
                // Keep the dialog open until the caller decides (it closes it on success).
                event.preventDefault();
                onConfirm();
              }}
            >
              {confirmLabel ?? t('dialog.confirm')}
            </Button>
          </div>
        </RadixAlertDialog.Content>
      </RadixAlertDialog.Portal>
    </RadixAlertDialog.Root>
  );
}
