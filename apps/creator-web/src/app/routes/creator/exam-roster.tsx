import { Button } from '@exam/ui/button';
import { PageHeader } from '@exam/ui/page-header';
import { ArrowLeft } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { useExam } from '../../../features/exams/api/get-exams.ts';
import { ExamAccessGate } from '../../../features/exams/components/exam-access-gate.tsx';
import { RosterPage } from '../../../features/roster/components/roster-page.tsx';
import { examName } from '../../../lib/display-names.ts';
import { useTranslation } from 'react-i18next';

export function ExamRosterRoute() {
  const { t } = useTranslation('dashboard');
  const { examId = '' } = useParams();
  const exam = useExam(examId);
  return (
    <ExamAccessGate examId={examId} capability="exam:edit">
      <PageHeader
        title={exam.data ? t('examRoster.titleOf', { name: examName(exam.data.title) }) : t('examRoster.title')}
        description={exam.data ? t(`examRoster.accessNote.${exam.data.access}`) : undefined}
        back={
          <Button asChild variant="ghost" size="sm" className="-ml-3">
            <Link to={paths.dashboard}>
              <ArrowLeft aria-hidden className="h-4 w-4" /> {t('examRoster.backToDashboard')}
            </Link>
          </Button>
        }
      />
      <RosterPage examId={examId} />
    </ExamAccessGate>
  );
}
