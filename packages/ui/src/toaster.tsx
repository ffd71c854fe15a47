import type { ComponentProps } from 'react';
import { Toaster as SonnerToaster } from 'sonner';

type Placement = Pick<ComponentProps<typeof SonnerToaster>, 'position' | 'offset' | 'mobileOffset'>;

/**
 * The spec shows one toast at a time (section 9), so toasts never stack. Where they sit is each app's
 * choice, away from its primary actions; by default top right, below the apps' 56px header, so a toast
 * never covers the header's actions or the exam page's chat input.
 */
export function Toaster({ position = 'top-right', offset = { top: 72, right: 24 }, mobileOffset }: Placement) {
  return (
    <SonnerToaster
      visibleToasts={1}
      position={position}
      offset={offset}
      {...(mobileOffset ? { mobileOffset } : {})}
      richColors
      closeButton
    />
  );
}

export { toast } from 'sonner';
