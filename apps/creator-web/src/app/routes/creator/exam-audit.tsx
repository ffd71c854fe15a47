import { PageHeader } from '@exam/ui/page-header';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { BackToDashboard } from '../../../components/back-to-dashboard.tsx';
import { ExamAccessGate } from '../../../features/exams/components/exam-access-gate.tsx';
import { AuditLog } from '../../../features/sharing/components/audit-log.tsx';
import { examName } from '../../../lib/display-names.ts';

export function ExamAuditRoute() {
  const { t } = useTranslation('sharing');
  const { examId = '' } = useParams();
  return (
    <ExamAccessGate examId={examId} capability="audit:read">
      {(exam) => (
        <>
          <PageHeader
            back={<BackToDashboard />}
            title={t('auditPage.title', { title: examName(exam.title) })}
            description={t('auditPage.description')}
          />
          <AuditLog examId={examId} />
        </>
      )}
    </ExamAccessGate>
  );
}
