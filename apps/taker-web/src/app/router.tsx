import { lazy, Suspense, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { BrowserRouter, useRoutes, type RouteObject } from 'react-router';
import { paths } from '../config/paths.ts';
import { AboutRoute, CareersRoute, LandingRoute, NotFoundRoute } from './routes/marketing.tsx';

/**
 * The route table. Only the marketing pages are in the first chunk; the taker pages (with zod and the
 * domain schemas) and the exam page (with CodeMirror behind it) load when a candidate reaches them.
 * The app uses react-router's declarative router (BrowserRouter + useRoutes): it needs no loaders or actions,
 * and the data router would add ~18 kB gzipped to every page's first script (bench/README.md, "Page weight").
 */
function RouteLoading() {
  const { t } = useTranslation('common');
  return <p className="p-6 text-sm text-muted">{t('loading')}</p>;
}

function lazyRoute<Name extends string>(load: () => Promise<Record<Name, ComponentType>>, name: Name) {
  const Page = lazy(async (): Promise<{ default: ComponentType }> => ({ default: (await load())[name] }));
  return (
    <Suspense fallback={<RouteLoading />}>
      <Page />
    </Suspense>
  );
}

export const routes: RouteObject[] = [
  { path: paths.home, element: <LandingRoute /> },
  { path: paths.about, element: <AboutRoute /> },
  { path: paths.careers, element: <CareersRoute /> },
  { path: paths.start, element: lazyRoute(() => import('./routes/taker/start.tsx'), 'StartRoute') },
  {
    path: paths.credentials,
    element: lazyRoute(() => import('./routes/taker/credentials.tsx'), 'CredentialsRoute'),
  },
  { path: paths.results, element: lazyRoute(() => import('./routes/taker/results.tsx'), 'ResultsRoute') },
  { path: paths.resultPattern, element: lazyRoute(() => import('./routes/taker/result.tsx'), 'ResultRoute') },
  { path: paths.examPattern, element: lazyRoute(() => import('./routes/exam/exam.tsx'), 'ExamRoute') },
  { path: paths.previewPattern, element: lazyRoute(() => import('./routes/exam/exam.tsx'), 'PreviewRoute') },
  { path: '*', element: <NotFoundRoute /> },
];

function AppRoutes() {
  return useRoutes(routes);
}

export function AppRouter() {
  return (
    <BrowserRouter>
      <AppRoutes />
    </BrowserRouter>
  );
}
