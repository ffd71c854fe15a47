import { useParams } from 'react-router';
import { useExam } from '../../../features/exams/api/get-exams.ts';
import { ExamAccessGate } from '../../../features/exams/components/exam-access-gate.tsx';
import { examCan } from '../../../features/exams/lib/capabilities.ts';
import { CandidateDataCard } from '../../../features/candidate-data/components/candidate-data-card.tsx';
import { SubmissionsList } from '../../../features/results/components/submissions-list.tsx';
import { UnlockAttemptCard } from '../../../features/results/components/unlock-attempt-card.tsx';

export function SubmissionsRoute() {
  const { examId = '' } = useParams();
  const exam = useExam(examId);
  // Until the exam (with the creator's capabilities) is here, the page shows as to its owner; the server decides.
  const can = (capability: Parameters<typeof examCan>[1]) => !exam.data || examCan(exam.data, capability);
  return (
    <ExamAccessGate examId={examId} capability="results:read">
      <SubmissionsList examId={examId} canRelease={can('results:release')} canOpenInsights={can('insights:read')} />
      {can('live:control') && <UnlockAttemptCard examId={examId} />}
      {can('candidates:data') && <CandidateDataCard examId={examId} />}
    </ExamAccessGate>
  );
}
