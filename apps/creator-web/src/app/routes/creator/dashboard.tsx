import { Button } from '@exam/ui/button';
import { Card } from '@exam/ui/card';
import { EmptyState } from '@exam/ui/empty-state';
import { PageHeader } from '@exam/ui/page-header';
import { Skeleton } from '@exam/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@exam/ui/tabs';
import { AlertTriangle, FileUp, Plus } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { useMyExams } from '../../../features/exams/api/get-exams.ts';
import { useResultsSummary } from '../../../features/exams/api/get-results-summary.ts';
import { DraftExamsTable } from '../../../features/exams/components/draft-exams-table.tsx';
import { ImportQuestionsDialog } from '../../../features/exams/components/import-questions-dialog.tsx';
import { ExamStats } from '../../../features/exams/components/exam-stats.tsx';
import { PublishedExamsTable } from '../../../features/exams/components/published-exams-table.tsx';
import { ResultsTab } from '../../../features/results/components/results-tab.tsx';
import { useInvitationCounts } from '../../../features/roster/api/manage-roster.ts';
import { userMessageOf } from '../../../lib/api-client.ts';
import { useTranslation } from 'react-i18next';

function ExamsLoading() {
  const { t } = useTranslation('dashboard');
  return (
    <div className="flex flex-col gap-4" aria-busy="true" aria-label={t('dashboard.loadingExams')}>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} className="h-24" />
        ))}
      </div>
      <Skeleton className="h-48" />
    </div>
  );
}

export function DashboardRoute() {
  const { t } = useTranslation('dashboard');
  const { t: tExams } = useTranslation('exams');
  const exams = useMyExams();
  const summary = useResultsSummary();
  // Invitations sent (exam-service), beside the attempt counts (results-service).
  const invitations = useInvitationCounts();
  const all = exams.data ?? [];
  const published = all.filter((e) => !e.isDraft);
  const drafts = all.filter((e) => e.isDraft);
  const [importing, setImporting] = useState(false);

  return (
    <>
      <PageHeader
        title={t('dashboard.dashboard')}
        description={t('dashboard.buildExamsPublishThem')}
        actions={
          <div className="flex gap-2">
            <Button variant="secondary" onClick={() => setImporting(true)}>
              <FileUp aria-hidden className="h-4 w-4" /> {tExams('interchange.importQuestions')}
            </Button>
            <Button asChild>
              <Link to={paths.newExam}>
                <Plus aria-hidden className="h-4 w-4" /> {t('dashboard.createNewExam')}
              </Link>
            </Button>
          </div>
        }
      />
      <ImportQuestionsDialog open={importing} onClose={() => setImporting(false)} />
      {exams.isPending ? (
        <ExamsLoading />
      ) : exams.isError ? (
        <Card>
          <EmptyState
            icon={<AlertTriangle aria-hidden />}
            title={t('dashboard.couldNotLoadYour')}
            description={userMessageOf(exams.error)}
            action={
              <Button variant="secondary" onClick={() => void exams.refetch()}>
                {t('dashboard.tryAgain')}
              </Button>
            }
          />
        </Card>
      ) : (
        <div className="flex flex-col gap-6">
          <ExamStats exams={all} summary={summary.data} />
          <Tabs defaultValue="exams">
            <TabsList aria-label={t('dashboard.dashboardSections')}>
              <TabsTrigger value="exams">{t('dashboard.exams')}</TabsTrigger>
              <TabsTrigger value="results">{t('dashboard.results')}</TabsTrigger>
            </TabsList>
            <TabsContent value="exams" className="flex flex-col gap-6">
              <PublishedExamsTable exams={published} summary={summary.data} invitations={invitations.data} />
              <DraftExamsTable exams={drafts} />
            </TabsContent>
            <TabsContent value="results">
              <ResultsTab invitations={invitations.data} />
            </TabsContent>
          </Tabs>
        </div>
      )}
    </>
  );
}
