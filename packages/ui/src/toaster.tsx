import { Toaster as SonnerToaster } from 'sonner';

/**
 * The spec shows one toast at a time (section 9). Top right, below the apps' 56px header, so a toast
 * never covers the header's actions or the exam page's chat input.
 */
export function Toaster() {
  return (
    <SonnerToaster visibleToasts={1} position="top-right" offset={{ top: 72, right: 24 }} richColors closeButton />
  );
}

export { toast } from 'sonner';
