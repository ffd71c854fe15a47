import { useParams } from 'react-router';
import { SubmissionsList } from '../../../features/results/components/submissions-list.tsx';

export function SubmissionsRoute() {
  const { examId = '' } = useParams();
  return <SubmissionsList examId={examId} />;
}
