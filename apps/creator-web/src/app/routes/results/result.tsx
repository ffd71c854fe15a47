import { useParams } from 'react-router';
import { ResultDetails } from '../../../features/grading/components/result-details.tsx';

export function ResultRoute() {
  const { resultId = '' } = useParams();
  return <ResultDetails resultId={resultId} />;
}
