import { RunReportSchema, type ReferenceRunRequest, type RunReport } from '@exam/domain/coding';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';

/** How long each poll asks the runner to hold the request while the run is still on its way. */
const POLL_WAIT_MS = 20_000;
const MAX_POLLS = 15;

const isFinished = (report: RunReport) => report.state !== 'queued' && report.state !== 'running';

/**
 * POST /api/runner/reference: the runner waits up to a minute and answers with the report as it stands;
 * a run still queued or running is then polled with a long wait until it has finished.
 */
export async function runReference(body: ReferenceRunRequest): Promise<RunReport> {
  let report = await apiRequest(api.referenceRun, { method: 'POST', body, schema: RunReportSchema });
  for (let polls = 0; !isFinished(report) && polls < MAX_POLLS; polls++) {
    report = await apiRequest(api.runnerRun(report.runId, POLL_WAIT_MS), { schema: RunReportSchema });
  }
  return report;
}

export function useRunReference() {
  return useMutation({ mutationFn: runReference });
}
