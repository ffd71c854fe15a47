import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';

export function createQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } });
}

// The toaster (sonner and its stylesheet) is fetched after the first render, not with the entry: a toast answers
// something the candidate did, and one raised before the toaster is there shows when it mounts (sonner replays
// the active toasts to a new toaster). Drawn only once mounted, so the prerendered start page has none either.
const Toaster = lazy(async () => ({ default: (await import('@exam/ui/toaster')).Toaster }));

export function AppProvider({ children, queryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return (
    <QueryClientProvider client={client}>
      {children}
      {mounted && (
        <Suspense fallback={null}>
          {/* Top centre, below the header: away from the assistant's box (bottom right of the exam room). */}
          <Toaster position="top-center" />
        </Suspense>
      )}
    </QueryClientProvider>
  );
}
