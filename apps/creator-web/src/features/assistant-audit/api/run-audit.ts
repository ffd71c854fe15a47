import {
  AssistantAuditSchema,
  LatestAuditSchema,
  type AssistantAudit,
  type LatestAudit,
  type StartAudit,
} from '@exam/domain/assistant-audit';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';

/** How often a running audit's progress is read again. */
export const AUDIT_POLL_MS = 1500;

export const auditKeys = {
  all: (examId: string) => ['assistant-audit', examId] as const,
  latest: (examId: string) => ['assistant-audit', examId, 'latest'] as const,
  estimate: (examId: string, body: StartAudit) => ['assistant-audit', examId, 'estimate', body] as const,
  equivalence: (examId: string, auditId: string) => ['assistant-audit', examId, 'equivalence', auditId] as const,
};

export function getLatestAudit(examId: string): Promise<LatestAudit> {
  return apiRequest(api.latestAssistantAudit(examId), { schema: LatestAuditSchema });
}

/**
 * The exam's newest audit and whether it audited the exam as it is now; read again every AUDIT_POLL_MS while it
 * runs (any gateway replica answers, and a restarted one resumes the run).
 */
export function useLatestAudit(examId: string) {
  return useQuery({
    queryKey: auditKeys.latest(examId),
    queryFn: () => getLatestAudit(examId),
    refetchInterval: (query) => (query.state.data?.audit?.status === 'running' ? AUDIT_POLL_MS : false),
  });
}

/** A run the gateway answered with becomes the latest one; it audits the exam as it is now. */
function storeAudit(queryClient: ReturnType<typeof useQueryClient>, examId: string, audit: AssistantAudit) {
  queryClient.setQueryData<LatestAudit>(auditKeys.latest(examId), (previous) => ({
    audit,
    examVersion: previous?.examVersion ?? audit.examVersion,
    current: previous ? previous.examVersion === audit.examVersion : true,
  }));
}

export function useStartAudit(examId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: StartAudit) =>
      apiRequest(api.assistantAudits(examId), { method: 'POST', body, schema: AssistantAuditSchema }),
    onSuccess: (audit) => {
      queryClient.setQueryData<LatestAudit>(auditKeys.latest(examId), {
        audit,
        examVersion: audit.examVersion,
        current: true,
      });
      // The run spends the budget the next estimate reports.
      void queryClient.invalidateQueries({ queryKey: [...auditKeys.all(examId), 'estimate'] });
    },
  });
}

export function useCancelAudit(examId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (auditId: string) =>
      apiRequest(api.cancelAssistantAudit(examId, auditId), { method: 'POST', schema: AssistantAuditSchema }),
    onSuccess: (audit) => storeAudit(queryClient, examId, audit),
  });
}
