import { Spinner } from '@exam/ui/spinner';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useReport } from '../../../features/reports/api/get-report.ts';
import { CandidateReport } from '../../../features/reports/components/candidate-report.tsx';
import { userMessageOf } from '../../../lib/api-client.ts';

/**
 * Adds `<meta name>` tags while the page is open: the token in its URL is passed on as no Referer, and search
 * engines leave the page out (the API answers the same in its headers).
 */
function usePrivatePage() {
  useEffect(() => {
    const tags = [
      ['referrer', 'no-referrer'],
      ['robots', 'noindex,nofollow'],
    ].map(([name, content]) => {
      const meta = document.createElement('meta');
      meta.setAttribute('name', name!);
      meta.setAttribute('content', content!);
      document.head.appendChild(meta);
      return meta;
    });
    return () => tags.forEach((tag) => tag.remove());
  }, []);
}

/** The candidate report a share link opens: no sign-in, no app chrome, one printable page. */
export function ReportRoute() {
  const { token = '' } = useParams();
  const { t } = useTranslation('reports');
  const report = useReport(token);
  usePrivatePage();
  const name = report.data?.candidate.name;
  useEffect(() => {
    document.title = name ? t('report.documentTitle', { name }) : t('report.title');
  }, [name, t]);

  return (
    <main className="min-h-screen bg-canvas py-6 print:bg-surface print:py-0">
      {report.data ? (
        <CandidateReport report={report.data} />
      ) : report.isError ? (
        <div className="mx-auto max-w-xl rounded-lg border border-line bg-surface p-6">
          <h1 className="text-xl font-semibold text-ink">{t('report.notFoundTitle')}</h1>
          <p className="mt-2 text-sm text-muted" role="alert">
            {userMessageOf(report.error)}
          </p>
        </div>
      ) : (
        <div className="flex items-center justify-center gap-2 p-10 text-sm text-muted" role="status">
          <Spinner />
          {t('report.loading')}
        </div>
      )}
    </main>
  );
}
