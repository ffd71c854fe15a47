import { DropdownMenu as RadixMenu } from 'radix-ui';
import type { ComponentProps, ReactElement, ReactNode } from 'react';
import { cn } from './lib/cn.ts';

/**
 * A menu button: the trigger child must be a button with an accessible name. Non-modal, so an item
 * may open a dialog without the menu's focus trap and pointer lock fighting the dialog's.
 */
export function DropdownMenu({
  trigger,
  children,
  align = 'end',
}: {
  trigger: ReactElement;
  children: ReactNode;
  align?: 'start' | 'center' | 'end';
}) {
  return (
    <RadixMenu.Root modal={false}>
      <RadixMenu.Trigger asChild>{trigger}</RadixMenu.Trigger>
      <RadixMenu.Portal>
        <RadixMenu.Content
          align={align}
          sideOffset={4}
          className="z-50 min-w-44 rounded-lg border border-line bg-surface p-1 shadow-lg"
        >
          {children}
        </RadixMenu.Content>
      </RadixMenu.Portal>
    </RadixMenu.Root>
  );
}

export function DropdownMenuItem({ className, ...props }: ComponentProps<typeof RadixMenu.Item>) {
  return (
    <RadixMenu.Item
      className={cn(
        'flex cursor-pointer select-none items-center gap-2 rounded-md px-3 py-2 text-sm text-ink outline-none data-[highlighted]:bg-brand-50 data-[highlighted]:outline-2 data-[highlighted]:-outline-offset-2 data-[highlighted]:outline-solid data-[highlighted]:outline-brand-500 data-[disabled]:opacity-50',
        className,
      )}
      {...props}
    />
  );
}

export function DropdownMenuRadioGroup(props: ComponentProps<typeof RadixMenu.RadioGroup>) {
  return <RadixMenu.RadioGroup {...props} />;
}

export function DropdownMenuRadioItem({ className, children, ...props }: ComponentProps<typeof RadixMenu.RadioItem>) {
  return (
    <RadixMenu.RadioItem
      className={cn(
        'relative flex cursor-pointer select-none items-center rounded-md py-2 pl-7 pr-3 text-sm text-ink outline-none data-[highlighted]:bg-brand-50 data-[highlighted]:outline-2 data-[highlighted]:-outline-offset-2 data-[highlighted]:outline-solid data-[highlighted]:outline-brand-500',
        className,
      )}
      {...props}
    >
      <RadixMenu.ItemIndicator className="absolute left-2 h-2 w-2 rounded-full bg-brand-600" />
      {children}
    </RadixMenu.RadioItem>
  );
}

export function DropdownMenuSeparator() {
  return <RadixMenu.Separator className="my-1 h-px bg-line" />;
}

/** A heading inside the menu (a group's visible name); not focusable, not an item. */
export function DropdownMenuLabel({ className, ...props }: ComponentProps<typeof RadixMenu.Label>) {
  return <RadixMenu.Label className={cn('px-3 pb-1 pt-2 text-xs font-semibold text-muted', className)} {...props} />;
}
