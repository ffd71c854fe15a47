import { PageHeader } from '@exam/ui/page-header';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { BackToDashboard } from '../../../components/back-to-dashboard.tsx';
import { ExamAccessGate } from '../../../features/exams/components/exam-access-gate.tsx';
import { SharingPanel } from '../../../features/sharing/components/sharing-panel.tsx';
import { examName } from '../../../lib/display-names.ts';

export function ExamSharingRoute() {
  const { t } = useTranslation('sharing');
  const { examId = '' } = useParams();
  return (
    <ExamAccessGate examId={examId} capability="exam:share">
      {(exam) => (
        <>
          <PageHeader
            back={<BackToDashboard />}
            title={t('sharingPage.title', { title: examName(exam.title) })}
            description={t('sharingPage.description')}
          />
          <SharingPanel examId={examId} />
        </>
      )}
    </ExamAccessGate>
  );
}
