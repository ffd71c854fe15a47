import { PageSpinner } from '@exam/ui/spinner';
import { toast } from '@exam/ui/toaster';
import { useEffect } from 'react';
import { Navigate, useParams } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { TestAssistant } from '../../../features/assistant-test/components/test-assistant.tsx';
import { useExam } from '../../../features/exams/api/get-exams.ts';
import { SolvabilityPanel } from '../../../features/solvability/components/solvability-panel.tsx';
import { ExamForm } from '../../../features/exams/components/exam-form/exam-form.tsx';
import { userMessageOf } from '../../../lib/api-client.ts';
import { useTranslation } from 'react-i18next';

/** An exam that cannot be loaded sends the creator back to the dashboard, with the reason in a toast. */
export function EditExamRoute() {
  const { t } = useTranslation('dashboard');
  const { examId = '' } = useParams();
  const exam = useExam(examId);
  useEffect(() => {
    if (exam.isError) toast.error(userMessageOf(exam.error));
  }, [exam.isError, exam.error]);
  if (exam.isPending) return <PageSpinner label={t('editExam.loadingExam')} />;
  if (exam.isError) return <Navigate to={paths.dashboard} replace />;
  // Keyed by id so switching exams starts a fresh form.
  // The slot is shown only while the exam has the assistant on: the Test Assistant and the solvability check.
  return (
    <ExamForm
      key={exam.data.id}
      exam={exam.data}
      renderTestAssistant={(props) => (
        <>
          <TestAssistant {...props} />
          <SolvabilityPanel examId={props.examId} hasUnsavedChanges={props.hasUnsavedChanges} />
        </>
      )}
    />
  );
}
