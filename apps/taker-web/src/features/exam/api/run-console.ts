import { ConsoleRunSchema, type ConsoleRun, type RunLanguage } from '@exam/domain/coding';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { POLL_WAIT_MS } from './run-tests.ts';

type AttemptCredentials = { attemptId: string; token: string };
export type ConsoleInput = { code: string; stdin: string; language?: RunLanguage | undefined };

/** A run is given up on after this many polls (the server's own time limit is far below this). */
const MAX_POLLS = 30;
const isFinished = (run: ConsoleRun) => run.state !== 'queued' && run.state !== 'running';

/**
 * POST …/questions/{index}/console-runs: the code on the candidate's own input in the tests' sandbox. The server
 * waits up to 20 s (200 finished, 202 still running); a run still on its way is polled with a long wait. The
 * answer's `answer` (what ran) comes with the first reply only and is kept.
 */
export async function runConsole(
  attempt: AttemptCredentials,
  questionIndex: number,
  input: ConsoleInput,
  signal?: AbortSignal,
): Promise<ConsoleRun> {
  const first = await apiRequest(api.consoleRuns(attempt.attemptId, questionIndex), {
    method: 'POST',
    token: attempt.token,
    body: input,
    schema: ConsoleRunSchema,
    signal,
  });
  let run = first;
  for (let polls = 0; !isFinished(run) && polls < MAX_POLLS; polls++) {
    run = await apiRequest(api.consoleRun(attempt.attemptId, run.runId, POLL_WAIT_MS), {
      token: attempt.token,
      schema: ConsoleRunSchema,
      signal,
    });
  }
  return first.answer ? { ...run, answer: first.answer } : run;
}

export function useRunConsole(attempt: AttemptCredentials | null, questionIndex: number) {
  return useMutation({
    mutationFn: (input: ConsoleInput) => {
      if (!attempt) throw new Error('The console runs during the exam only.');
      return runConsole(attempt, questionIndex, input);
    },
  });
}
