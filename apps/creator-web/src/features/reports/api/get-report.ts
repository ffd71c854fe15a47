import { CandidateReportSchema } from '@exam/domain/candidate-report';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';

/** GET /api/reports/{token}: the report behind a share link, read without a session. */
export const reportQuery = (token: string) =>
  queryOptions({
    queryKey: ['report', token] as const,
    queryFn: ({ signal }) => apiRequest(api.report(token), { schema: CandidateReportSchema, anonymous: true, signal }),
    // A dead link stays dead: asking again only spends the reader's allowance.
    retry: false,
    staleTime: Infinity,
  });

export function useReport(token: string) {
  return useQuery(reportQuery(token));
}
