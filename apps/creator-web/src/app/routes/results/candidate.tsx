import { useParams } from 'react-router';
import { CandidateHistoryPage } from '../../../features/candidates/components/candidate-history.tsx';

export function CandidateRoute() {
  const { candidateId = '' } = useParams();
  // A new candidate starts from a fresh page rather than the previous one's rows.
  return <CandidateHistoryPage key={candidateId} candidateId={candidateId} />;
}
