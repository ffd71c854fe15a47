import { useMemo } from 'react';
import { createBrowserRouter, RouterProvider, type RouteObject } from 'react-router';
import { paths } from '../config/paths.ts';
import { AboutRoute, CareersRoute, LandingRoute, NotFoundRoute } from './routes/marketing.tsx';
import { CredentialsRoute } from './routes/taker/credentials.tsx';
import { ResultsRoute } from './routes/taker/results.tsx';
import { StartRoute } from './routes/taker/start.tsx';

/** The route table; the exam page (and CodeMirror with it) is loaded only when a candidate opens one. */
export const routes: RouteObject[] = [
  { path: paths.home, element: <LandingRoute /> },
  { path: paths.about, element: <AboutRoute /> },
  { path: paths.careers, element: <CareersRoute /> },
  { path: paths.start, element: <StartRoute /> },
  { path: paths.credentials, element: <CredentialsRoute /> },
  { path: paths.results, element: <ResultsRoute /> },
  { path: '/exam/:examId', lazy: async () => ({ Component: (await import('./routes/exam/exam.tsx')).ExamRoute }) },
  { path: '*', element: <NotFoundRoute /> },
];

export function AppRouter() {
  const router = useMemo(() => createBrowserRouter(routes), []);
  return <RouterProvider router={router} />;
}
