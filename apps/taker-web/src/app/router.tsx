import { useTranslation } from 'react-i18next';
import type { RouteObject } from 'react-router';
import { paths } from '../config/paths.ts';
import { AboutRoute, CareersRoute, LandingRoute, NotFoundRoute } from './routes/marketing.tsx';

/**
 * The route table. Only the marketing pages are in the first chunk; the taker pages (with zod and the
 * domain schemas) and the exam page (with CodeMirror behind it) load when a candidate reaches them.
 */
function RouteLoading() {
  const { t } = useTranslation('common');
  return <p className="p-6 text-sm text-muted">{t('loading')}</p>;
}
const loading = <RouteLoading />;

export const routes: RouteObject[] = [
  { path: paths.home, element: <LandingRoute /> },
  { path: paths.about, element: <AboutRoute /> },
  { path: paths.careers, element: <CareersRoute /> },
  {
    path: paths.start,
    lazy: async () => ({ Component: (await import('./routes/taker/start.tsx')).StartRoute }),
    hydrateFallbackElement: loading,
  },
  {
    path: paths.credentials,
    lazy: async () => ({ Component: (await import('./routes/taker/credentials.tsx')).CredentialsRoute }),
    hydrateFallbackElement: loading,
  },
  {
    path: paths.results,
    lazy: async () => ({ Component: (await import('./routes/taker/results.tsx')).ResultsRoute }),
    hydrateFallbackElement: loading,
  },
  {
    path: paths.resultPattern,
    lazy: async () => ({ Component: (await import('./routes/taker/result.tsx')).ResultRoute }),
    hydrateFallbackElement: loading,
  },
  {
    path: paths.reviewPattern,
    lazy: async () => ({ Component: (await import('./routes/taker/review.tsx')).ReviewRoute }),
    hydrateFallbackElement: loading,
  },
  {
    path: paths.examPattern,
    lazy: async () => ({ Component: (await import('./routes/exam/exam.tsx')).ExamRoute }),
    hydrateFallbackElement: loading,
  },
  {
    path: paths.followUpPattern,
    lazy: async () => ({ Component: (await import('./routes/exam/exam.tsx')).FollowUpRoute }),
    hydrateFallbackElement: loading,
  },
  {
    path: paths.previewPattern,
    lazy: async () => ({ Component: (await import('./routes/exam/exam.tsx')).PreviewRoute }),
    hydrateFallbackElement: loading,
  },
  { path: '*', element: <NotFoundRoute /> },
];
