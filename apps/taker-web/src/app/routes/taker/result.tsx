import { Card } from '@exam/ui/card';
import { PageSpinner } from '@exam/ui/spinner';
import { useParams } from 'react-router';
import { useCandidateResult } from '../../../features/results/api/get-candidate-result.ts';
import { ReleasedResult } from '../../../features/results/components/released-result.tsx';
import { ApiError } from '../../../lib/api-client.ts';

const NO_CREDENTIALS = 'This result can only be opened on the device that took the exam';

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
  const query = useCandidateResult(attemptId);
  if (query.isPending) return <PageSpinner label="Loading your result…" />;
  if (query.isError)
    return (
      <Notice>{query.error instanceof ApiError ? query.error.userMessage : 'Your result could not be loaded.'}</Notice>
    );
  const view = query.data;
  if (view.status === 'no-credentials') return <Notice>{NO_CREDENTIALS}</Notice>;
  if (view.status === 'withheld') return <Notice>{view.message}</Notice>;
  return <ReleasedResult result={view.result} />;
}

/** /taker/results/{attemptId}: the candidate's released result (docs/product.md#results-and-grading, 'Release'). */
export function ResultRoute() {
  const { attemptId = '' } = useParams();
  return (
    <main className="flex min-h-full items-start justify-center bg-gradient-to-b from-brand-50 to-canvas px-4 py-12">
      <ResultView attemptId={attemptId} />
    </main>
  );
}
