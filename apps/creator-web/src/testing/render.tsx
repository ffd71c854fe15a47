import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { AppProvider, createQueryClient } from '../app/provider.tsx';
import { redirectToSignInOnUnauthorized, routes } from '../app/router.tsx';
import type { RuntimeConfig } from '../config/runtime-config.ts';

export const testRuntimeConfig: RuntimeConfig = {
  creatorOrigin: 'http://creator.test',
  takerOrigin: 'http://taker.test',
};

/** Renders the whole app (real routes, guard and providers) at a path, against the msw handlers. */
export function renderApp(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  redirectToSignInOnUnauthorized(router);
  const user = userEvent.setup({ delay: null });
  const view = render(
    <AppProvider queryClient={createQueryClient()} runtimeConfig={testRuntimeConfig}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { ...view, router, user };
}
