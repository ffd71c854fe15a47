import { EquivalenceReportSchema } from '@exam/domain/assistant-audit';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { auditKeys } from './run-audit.ts';

/** Whether the configurations of a finished audit give equivalent help; only asked when it compared some. */
export function useEquivalence(examId: string, auditId: string, enabled: boolean) {
  return useQuery({
    queryKey: auditKeys.equivalence(examId, auditId),
    queryFn: () => apiRequest(api.auditEquivalence(examId, auditId), { schema: EquivalenceReportSchema }),
    enabled,
    retry: false,
  });
}
