import { useParams } from 'react-router';
import { CandidateDataCard } from '../../../features/candidate-data/components/candidate-data-card.tsx';
import { SubmissionsList } from '../../../features/results/components/submissions-list.tsx';
import { UnlockAttemptCard } from '../../../features/results/components/unlock-attempt-card.tsx';

export function SubmissionsRoute() {
  const { examId = '' } = useParams();
  return (
    <>
      <SubmissionsList examId={examId} />
      <UnlockAttemptCard examId={examId} />
      <CandidateDataCard examId={examId} />
    </>
  );
}
