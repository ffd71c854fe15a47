import { StrictMode } from 'react';
import { RouterProvider, type RouteObject } from 'react-router';
import type { createBrowserRouter } from 'react-router';
import { AppProvider } from './provider.tsx';

type Router = ReturnType<typeof createBrowserRouter>;

/**
 * The whole page: the same tree in the browser (main.tsx) and in the build's prerender (prerender.tsx), so
 * hydrating the prerendered start page finds exactly the markup it would have drawn.
 */
export function AppRoot({ router }: { router: Router }) {
  return (
    <StrictMode>
      <AppProvider>
        <RouterProvider router={router} />
      </AppProvider>
    </StrictMode>
  );
}

/** The route table with one lazy route's component already loaded, so the router renders it at once. */
export function withLoaded(routes: RouteObject[], path: string, Component: RouteObject['Component']): RouteObject[] {
  return routes.map((route) => (route.path === path ? { path, Component } : route));
}
