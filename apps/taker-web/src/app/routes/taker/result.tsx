import { Card } from '@exam/ui/card';
import { PageSpinner } from '@exam/ui/spinner';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { useCandidateResult } from '../../../features/results/api/get-candidate-result.ts';
import { ReleasedResult } from '../../../features/results/components/released-result.tsx';
import { translateServerMessage } from '../../../i18n/server-messages.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { CandidatePage } from '../../../lib/candidate-page.tsx';

function Notice({ children }: { children: string }) {
  return (
    <Card className="w-full max-w-lg p-8 text-center">
      <p role="status" className="text-ink">
        {children}
      </p>
    </Card>
  );
}

function ResultView({ attemptId }: { attemptId: string }) {
  const { t } = useTranslation('results');
  const query = useCandidateResult(attemptId);
  if (query.isPending) return <PageSpinner label={t('result.loading')} />;
  if (query.isError)
    return (
      <Notice>
        {query.error instanceof ApiError ? translateServerMessage(query.error.userMessage) : t('result.loadFailed')}
      </Notice>
    );
  const view = query.data;
  if (view.status === 'no-credentials') return <Notice>{t('result.noCredentials')}</Notice>;
  if (view.status === 'withheld') return <Notice>{translateServerMessage(view.message)}</Notice>;
  return (
    <div className="flex w-full flex-col items-center gap-4">
      <ReleasedResult result={view.result} />
      {/* The review shows each question again with its feedback, while the exam's review window is open. */}
      <Link className="font-medium text-brand-600 underline" to={paths.review(attemptId)}>
        {t('completion.review')}
      </Link>
    </div>
  );
}

/** /taker/results/{attemptId}: the candidate's released result (docs/product.md#results-and-grading, 'Release'). */
export function ResultRoute() {
  const { attemptId = '' } = useParams();
  return (
    <CandidatePage align="start">
      <ResultView attemptId={attemptId} />
    </CandidatePage>
  );
}
