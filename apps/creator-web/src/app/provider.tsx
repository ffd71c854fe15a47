import { Toaster } from '@exam/ui/toaster';
import { TooltipProvider } from '@exam/ui/tooltip';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { RuntimeConfigContext, type RuntimeConfig } from '../config/runtime-config.ts';
import { ApiError } from '../lib/api-client.ts';

/**
 * Toasts sit bottom right, clear of the page headers' actions (Save Grading, Create New Exam…, top right) and of
 * the form's labels (left); 80px from the bottom keeps a toast above the exam editor's sticky Save and Publish bar
 * (64px tall), whose buttons sit left of a toast's 356px column at the editor's widths.
 */
const TOAST_OFFSET = { bottom: 80, right: 24 };

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      // A 4xx will not change on retry; network blips and 5xx get one more try.
      queries: {
        retry: (count, error) => count < 1 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  });
}

export function AppProvider({
  children,
  queryClient,
  runtimeConfig,
}: {
  children: ReactNode;
  queryClient: QueryClient;
  runtimeConfig: RuntimeConfig;
}) {
  return (
    <RuntimeConfigContext value={runtimeConfig}>
      <QueryClientProvider client={queryClient}>
        <TooltipProvider delayDuration={300}>
          {children}
          <Toaster position="bottom-right" offset={TOAST_OFFSET} mobileOffset={TOAST_OFFSET} />
        </TooltipProvider>
      </QueryClientProvider>
    </RuntimeConfigContext>
  );
}
