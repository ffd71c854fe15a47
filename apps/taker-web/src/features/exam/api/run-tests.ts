import { CheckRunSchema, RunReportSchema, type CheckRun, type RunLanguage, type RunReport } from '@exam/domain/coding';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';

type AttemptCredentials = { attemptId: string; token: string };

/** How long each poll asks the server to hold the request while the run is still on its way. */
export const POLL_WAIT_MS = 10_000;
/** A run is given up on after this many polls (the server's own run limit is far below this). */
const MAX_POLLS = 30;

const isFinished = (report: RunReport) => report.state !== 'queued' && report.state !== 'running';

/**
 * POST …/questions/{index}/test-runs with the editor's code: the server waits up to 20 s and answers 200 with
 * the visible tests' verdicts, or 202 with the run still queued or running; then the run is polled with a
 * long wait until it has finished.
 */
export async function runVisibleTests(
  attempt: AttemptCredentials,
  questionIndex: number,
  code: string,
  signal?: AbortSignal,
  language?: RunLanguage,
): Promise<CheckRun> {
  const first = await apiRequest(api.testRuns(attempt.attemptId, questionIndex), {
    method: 'POST',
    token: attempt.token,
    body: { code, ...(language ? { language } : {}) },
    schema: CheckRunSchema,
    signal,
  });
  let report: RunReport = first;
  for (let polls = 0; !isFinished(report) && polls < MAX_POLLS; polls++) {
    report = await apiRequest(api.testRun(attempt.attemptId, report.runId, POLL_WAIT_MS), {
      token: attempt.token,
      schema: RunReportSchema,
      signal,
    });
  }
  // What ran (the workspace file or the page's code) comes with the first reply only.
  return first.answer ? { ...report, answer: first.answer } : report;
}

export function useRunVisibleTests(attempt: AttemptCredentials | null, questionIndex: number) {
  return useMutation({
    mutationFn: ({ code, language }: { code: string; language?: RunLanguage | undefined }) => {
      if (!attempt) throw new Error('Tests run during the exam only.');
      return runVisibleTests(attempt, questionIndex, code, undefined, language);
    },
  });
}
