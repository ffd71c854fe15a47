import {
  CreatedReportLinkSchema,
  ReportLinkListSchema,
  ReportLinkSchema,
  type CreatedReportLink,
} from '@exam/domain/candidate-report';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';

export const reportLinkKeys = {
  list: (resultId: string) => ['report-links', resultId] as const,
};

/** GET /api/results/{id}/report-links (results-service, the exam's owner): newest first, never a token. */
export const reportLinksQuery = (resultId: string) =>
  queryOptions({
    queryKey: reportLinkKeys.list(resultId),
    queryFn: ({ signal }) => apiRequest(api.resultReportLinks(resultId), { schema: ReportLinkListSchema, signal }),
    enabled: resultId !== '',
  });

export function useReportLinks(resultId: string) {
  return useQuery(reportLinksQuery(resultId));
}

/** POST …/report-links: the new link with its token, which is shown this once. */
export function useCreateReportLink(resultId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (expiresInDays: number): Promise<CreatedReportLink> =>
      apiRequest(api.resultReportLinks(resultId), {
        method: 'POST',
        body: { expiresInDays },
        schema: CreatedReportLinkSchema,
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: reportLinkKeys.list(resultId) }),
  });
}

/** DELETE …/report-links/{linkId}: the link answers "not found" from now on. */
export function useRevokeReportLink(resultId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (linkId: string) =>
      apiRequest(api.resultReportLink(resultId, linkId), { method: 'DELETE', schema: ReportLinkSchema }),
    onSuccess: () => client.invalidateQueries({ queryKey: reportLinkKeys.list(resultId) }),
  });
}
