import { CandidateHistorySchema, type CandidateHistory } from '@exam/domain/candidate-history';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';

/** GET /api/results/candidates/{candidateId} (results-service): the candidate's attempts at the creator's exams. */
export function getCandidateHistory(candidateId: string): Promise<CandidateHistory> {
  return apiRequest(api.candidateHistory(candidateId), { schema: CandidateHistorySchema });
}

export function useCandidateHistory(candidateId: string) {
  return useQuery({
    // Under 'results', so a grading save refreshes this page's scores with every other result view.
    queryKey: ['results', 'candidate', candidateId],
    queryFn: () => getCandidateHistory(candidateId),
  });
}
