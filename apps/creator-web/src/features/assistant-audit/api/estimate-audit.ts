import { AuditEstimateSchema, type StartAudit } from '@exam/domain/assistant-audit';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { auditKeys } from './run-audit.ts';

/**
 * What the same start would spend (calls, tokens, list-price cost) and what the exam's grading and audit budget has
 * left. `body` is null while the form holds something the gateway would refuse; the last estimate stays on screen.
 */
export function useAuditEstimate(examId: string, body: StartAudit | null) {
  return useQuery({
    queryKey: auditKeys.estimate(examId, body ?? {}),
    queryFn: () =>
      apiRequest(api.assistantAuditEstimate(examId), { method: 'POST', body, schema: AuditEstimateSchema }),
    enabled: body !== null,
    placeholderData: keepPreviousData,
    retry: false,
  });
}
