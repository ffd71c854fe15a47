import { Toaster as SonnerToaster } from 'sonner';

/** The spec shows one toast at a time (section 9). */
export function Toaster() {
  return <SonnerToaster visibleToasts={1} position="top-center" richColors closeButton />;
}

export { toast } from 'sonner';
