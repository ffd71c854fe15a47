import { Button } from '@exam/ui/button';
import { Card } from '@exam/ui/card';
import { EmptyState } from '@exam/ui/empty-state';
import { PageHeader } from '@exam/ui/page-header';
import { PageSpinner } from '@exam/ui/spinner';
import { AlertTriangle, ArrowLeft, FileQuestion, ListChecks } from 'lucide-react';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { userMessageOf } from '../../../lib/api-client.ts';
import { formatDate } from '../../../lib/format-date.ts';
import { useInsights, useInsightsExam } from '../api/get-insights.ts';
import { AssessmentBreakdown, itemRowId } from './assessment-breakdown.tsx';
import { AssistantSpend } from './assistant-spend.tsx';
import { CandidateRanking } from './candidate-ranking.tsx';
import { CodeSimilarity } from './code-similarity.tsx';
import { CohortBreakdown } from './cohort-breakdown.tsx';
import { CollaborationBreakdown } from './collaboration-breakdown.tsx';
import { IntegrityBreakdown } from './integrity-breakdown.tsx';
import { ItemModels } from './item-models.tsx';
import { ReliancePanel } from './reliance-panel.tsx';
import { SummaryCards } from './summary-cards.tsx';
import { TestStatistics } from './test-statistics.tsx';
import { examName } from '../../../lib/display-names.ts';
import { useTranslation } from 'react-i18next';
import type { InsightsModelRequest } from '@exam/domain/insights';

// Recharts is only fetched when a report is on screen: the rest of the app never downloads it.
const InsightsCharts = lazy(async () => ({ default: (await import('./charts/insights-charts.tsx')).InsightsCharts }));

function BackToDashboard({ variant = 'ghost' }: { variant?: 'ghost' | 'primary' }) {
  const { t } = useTranslation('insights');
  return (
    <Button asChild variant={variant} size={variant === 'ghost' ? 'sm' : 'md'}>
      <Link to={paths.dashboard}>
        <ArrowLeft aria-hidden className="h-4 w-4" /> {t('examInsights.backToDashboard')}
      </Link>
    </Button>
  );
}

/** Brings a question's row of the assessment breakdown into view and moves the focus there. */
function showQuestion(questionIndex: number) {
  const row = document.getElementById(itemRowId(questionIndex));
  row?.scrollIntoView({ block: 'center' });
  row?.focus();
}

/**
 * /creator/exam-insights/{examId}: every figure measured from the submissions, none invented (docs/product.md#insights).
 * `children` are other features' sections the route adds under the report (the AI–human grading agreement).
 */
export function ExamInsights({ examId, children }: { examId: string; children?: ReactNode }) {
  const { t } = useTranslation('insights');
  const exam = useInsightsExam(examId);
  const [model, setModel] = useState<InsightsModelRequest>('auto');
  const insights = useInsights(examId, model);

  if (exam.isPending) return <PageSpinner label={t('examInsights.loadingInsights')} />;
  if (exam.isError) {
    return (
      <Card className="mx-auto max-w-lg">
        <EmptyState
          icon={<FileQuestion aria-hidden />}
          title={t('examInsights.examNotFound')}
          action={<BackToDashboard variant="primary" />}
        />
      </Card>
    );
  }

  return (
    <>
      <PageHeader
        back={<BackToDashboard />}
        title={examName(exam.data.title)}
        description={t('examInsights.publishedPublishedat', { publishedAt: formatDate(exam.data.publishedAt) })}
        actions={
          <Button asChild variant="secondary">
            <Link to={paths.examSubmissions(examId)}>
              <ListChecks aria-hidden className="h-4 w-4" /> {t('examInsights.submissions')}
            </Link>
          </Button>
        }
      />
      <div className="mb-6">
        <AssistantSpend examId={examId} />
      </div>
      {insights.isPending ? (
        <PageSpinner label={t('examInsights.computingInsights')} />
      ) : insights.isError ? (
        <Card>
          <EmptyState
            icon={<AlertTriangle aria-hidden />}
            title={t('examInsights.couldNotLoadThe')}
            description={userMessageOf(insights.error)}
            action={
              <Button variant="secondary" onClick={() => void insights.refetch()}>
                {t('examInsights.tryAgain')}
              </Button>
            }
          />
        </Card>
      ) : (
        <div className="flex flex-col gap-6">
          <SummaryCards examId={examId} report={insights.data} />
          <CohortBreakdown report={insights.data} />
          <CandidateRanking report={insights.data} />
          <AssessmentBreakdown report={insights.data} questions={exam.data.questions} />
          <ItemModels
            report={insights.data}
            model={model}
            onModelChange={setModel}
            isFetching={insights.isPlaceholderData}
          />
          <TestStatistics report={insights.data} />
          <Suspense fallback={<PageSpinner label={t('examInsights.loadingCharts')} />}>
            <InsightsCharts report={insights.data} onSelectQuestion={showQuestion} />
          </Suspense>
          <ReliancePanel report={insights.data} />
          <IntegrityBreakdown report={insights.data} />
          <CollaborationBreakdown report={insights.data} />
          {children}
        </div>
      )}
      {exam.data.questions.some((q) => q.type === 'coding') && (
        <div className="mt-6">
          <CodeSimilarity examId={examId} savedThreshold={exam.data.similarityThreshold} />
        </div>
      )}
    </>
  );
}
