import { Button } from '@exam/ui/button';
import { Card } from '@exam/ui/card';
import { EmptyState } from '@exam/ui/empty-state';
import { Skeleton } from '@exam/ui/spinner';
import { AlertTriangle } from 'lucide-react';
import { userMessageOf } from '../../../lib/api-client.ts';
import { useExamSummaries, useQuestionCounts } from '../api/get-results.ts';
import { ExamSummaryCards } from './exam-summary-cards.tsx';
import { GradingTable } from './grading-table.tsx';
import { useTranslation } from 'react-i18next';

/** The dashboard's Results tab: per-exam summary cards and the grading table (which pages its own list). */
export function ResultsTab({ invitations }: { invitations?: Map<string, number> | undefined }) {
  const { t } = useTranslation('results');
  const summaries = useExamSummaries();
  const questionCounts = useQuestionCounts();

  if (summaries.isPending) {
    return (
      <div className="flex flex-col gap-4" aria-busy="true" aria-label={t('resultsTab.loadingResults')}>
        <Skeleton className="h-40" />
        <Skeleton className="h-64" />
      </div>
    );
  }
  if (summaries.isError) {
    return (
      <Card>
        <EmptyState
          icon={<AlertTriangle aria-hidden />}
          title={t('resultsTab.couldNotLoadResults')}
          description={userMessageOf(summaries.error)}
          action={
            <Button variant="secondary" onClick={() => void summaries.refetch()}>
              {t('resultsTab.tryAgain')}
            </Button>
          }
        />
      </Card>
    );
  }
  return (
    <div className="flex flex-col gap-6">
      {summaries.data.length > 0 && (
        <ExamSummaryCards exams={summaries.data} questionCounts={questionCounts.data} invitations={invitations} />
      )}
      <GradingTable />
    </div>
  );
}
