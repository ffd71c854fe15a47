import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { AppProvider, createQueryClient } from '../app/provider.tsx';
import { routes } from '../app/router.tsx';

/** Renders the real route table at `path`, with navigation state, a fresh query cache and toasts. */
export function renderRoute(path: string, state?: unknown) {
  const router = createMemoryRouter(routes, {
    initialEntries: [
      { pathname: path.split('?')[0], search: path.includes('?') ? `?${path.split('?')[1]}` : '', state },
    ],
  });
  const user = userEvent.setup();
  const view = render(
    <AppProvider queryClient={createQueryClient()}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { ...view, user, router };
}

/** Renders one component with the app's providers (a fresh query cache and toasts) and no router. */
export function renderWithProviders(ui: ReactElement) {
  return render(<AppProvider queryClient={createQueryClient()}>{ui}</AppProvider>);
}
