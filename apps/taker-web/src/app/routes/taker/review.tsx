import { Card } from '@exam/ui/card';
import { PageSpinner } from '@exam/ui/spinner';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useReview } from '../../../features/results/api/get-review.ts';
import { AttemptReview } from '../../../features/results/components/attempt-review.tsx';
import { translateServerMessage } from '../../../i18n/server-messages.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { CandidatePage } from '../../../lib/candidate-page.tsx';

function Notice({ children }: { children: string }) {
  return (
    <Card className="w-full max-w-lg p-8 text-center">
      <p role="status" className="text-ink" data-testid="review-notice">
        {children}
      </p>
    </Card>
  );
}

function ReviewView({ attemptId }: { attemptId: string }) {
  const { t } = useTranslation('results');
  const query = useReview(attemptId);
  if (query.isPending) return <PageSpinner label={t('review.loading')} />;
  if (query.isError)
    return (
      <Notice>
        {query.error instanceof ApiError ? translateServerMessage(query.error.userMessage) : t('review.loadFailed')}
      </Notice>
    );
  const view = query.data;
  if (view.status === 'no-credentials') return <Notice>{t('review.noCredentials')}</Notice>;
  if (view.status === 'refused') return <Notice>{translateServerMessage(view.message)}</Notice>;
  return <AttemptReview review={view.review} />;
}

/** /taker/review/{attemptId}: the candidate's review of a submitted attempt (docs/product.md#practice-and-review). */
export function ReviewRoute() {
  const { attemptId = '' } = useParams();
  return (
    <CandidatePage align="start">
      <ReviewView attemptId={attemptId} />
    </CandidatePage>
  );
}
