import { useParams } from 'react-router';
import { ExamAccessGate } from '../../../features/exams/components/exam-access-gate.tsx';
import { examCan } from '../../../features/exams/lib/capabilities.ts';
import { SubmissionsList } from '../../../features/results/components/submissions-list.tsx';
import { UnlockAttemptCard } from '../../../features/results/components/unlock-attempt-card.tsx';

export function SubmissionsRoute() {
  const { examId = '' } = useParams();
  return (
    <ExamAccessGate examId={examId} capability="results:read">
      {(exam) => (
        <>
          <SubmissionsList
            examId={examId}
            canRelease={examCan(exam, 'results:release')}
            canOpenInsights={examCan(exam, 'insights:read')}
          />
          {examCan(exam, 'live:control') && <UnlockAttemptCard examId={examId} />}
        </>
      )}
    </ExamAccessGate>
  );
}
