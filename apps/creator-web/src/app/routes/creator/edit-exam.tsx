import { PageSpinner } from '@exam/ui/spinner';
import { toast } from '@exam/ui/toaster';
import { AuditConfigurationSchema } from '@exam/domain/assistant-audit';
import { useEffect, useState } from 'react';
import { Navigate, useParams } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { AssistantAuditPanel } from '../../../features/assistant-audit/components/assistant-audit-panel.tsx';
import { AuditStatusNote } from '../../../features/assistant-audit/components/audit-status-note.tsx';
import {
  toConfigurations,
  type ConfigurationDraft,
} from '../../../features/assistant-audit/components/compare-configurations.tsx';
import { TestAssistant } from '../../../features/assistant-test/components/test-assistant.tsx';
import { useExam } from '../../../features/exams/api/get-exams.ts';
import { ExamAccessGate } from '../../../features/exams/components/exam-access-gate.tsx';
import { SolvabilityPanel } from '../../../features/solvability/components/solvability-panel.tsx';
import type { TestAssistantSlotProps } from '../../../features/exams/components/exam-form/ai-settings-card.tsx';
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
  // The slot is shown only while the exam has the assistant on: the Test Assistant, the solvability check and the
  // assistant audit. The audit's headline also shows in the page's header and beside the publish button.
  // A role that does not edit (a grader, a proctor) opening this page by its URL is told so, not shown a form.
  return (
    <ExamAccessGate examId={examId} capability="exam:edit">
      <ExamForm
        key={exam.data.id}
        exam={exam.data}
        renderTestAssistant={(props) => <AssistantChecks {...props} />}
        renderAuditStatus={({ examId: id, placement }) => (
          <AuditStatusNote examId={id} showAdvice={placement === 'publish'} />
        )}
      />
    </ExamAccessGate>
  );
}

/**
 * The assistant's tools beside its settings. The configurations compared in the audit are offered to the
 * solvability check too, so both report on the same ones (provider equivalence, docs/product.md).
 */
function AssistantChecks(props: TestAssistantSlotProps) {
  const [compareWith, setCompareWith] = useState<ConfigurationDraft[]>([]);
  // Only rows complete enough for the gateway to accept; a half-typed one is not offered to the check.
  const configurations = toConfigurations(compareWith).flatMap((row) => {
    const checked = AuditConfigurationSchema.safeParse(row);
    return checked.success ? [checked.data] : [];
  });
  return (
    <>
      <TestAssistant {...props} />
      <SolvabilityPanel
        examId={props.examId}
        hasUnsavedChanges={props.hasUnsavedChanges}
        compareWith={configurations}
      />
      <AssistantAuditPanel
        examId={props.examId}
        hasUnsavedChanges={props.hasUnsavedChanges}
        compareWith={compareWith}
        onCompareWithChange={setCompareWith}
      />
    </>
  );
}
