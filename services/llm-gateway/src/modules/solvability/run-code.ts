import type { RunReport } from '@exam/domain/coding';
import type { CodeRunner } from '@exam/server-kit/code-runner-client';
import type { CodeCheck } from './judge.ts';

/** What running a reply's code against the visible tests showed. */
export type CodeRunOutcome = { kind: 'passed' } | { kind: 'failed' } | { kind: 'unavailable'; reason: string };

export type CodeRunOptions = {
  /** The longest the check waits for one run, from the moment it is queued. */
  maxWaitMs: number;
  /** Each held read of the run waits at most this long, so a cancel is seen within it. */
  sliceMs?: number;
  examId: string;
  questionIndex: number;
  signal: AbortSignal;
};

const DEFAULT_SLICE_MS = 2_000;

function outcomeOf(report: RunReport, check: CodeCheck): CodeRunOutcome | undefined {
  if (report.state === 'unavailable' || report.state === 'error')
    return { kind: 'unavailable', reason: report.reason ?? `the run ended as ${report.state}` };
  if (report.state !== 'done') return undefined;
  // Every visible test has a verdict and each passed; a compile error or any failure holds.
  const passed = new Set(report.verdicts.filter((v) => v.outcome === 'passed').map((v) => v.testId));
  return check.tests.every((t) => passed.has(t.id)) ? { kind: 'passed' } : { kind: 'failed' };
}

/**
 * Runs one reply's code on workspace-orchestrator (purpose 'check', the creator's exam, no attempt) against
 * the question's visible tests, and waits for its report in short held reads until maxWaitMs. Anything
 * but a finished run (no sandbox, an error, an unreachable runner, too slow, a cancel) is 'unavailable':
 * the check never guesses what code would have done.
 */
export async function runReplyCode(
  runner: CodeRunner,
  check: CodeCheck,
  code: string,
  opts: CodeRunOptions,
): Promise<CodeRunOutcome> {
  const deadline = Date.now() + opts.maxWaitMs;
  const slice = opts.sliceMs ?? DEFAULT_SLICE_MS;
  try {
    const answer = await runner.enqueue({
      purpose: 'check',
      language: check.language,
      code,
      tests: check.tests,
      limits: check.limits,
      setupScript: check.setupScript,
      attemptId: null,
      examId: opts.examId,
      questionIndex: opts.questionIndex,
    });
    if (!answer.ok) return { kind: 'unavailable', reason: answer.reason };
    let report: RunReport | undefined = answer.report;
    for (;;) {
      const outcome = outcomeOf(report, check);
      if (outcome) return outcome;
      if (opts.signal.aborted) return { kind: 'unavailable', reason: 'the check was stopped' };
      const left = deadline - Date.now();
      if (left <= 0) return { kind: 'unavailable', reason: 'the run did not finish in time' };
      report = await runner.get(report.runId, Math.min(slice, left));
      if (!report) return { kind: 'unavailable', reason: 'the runner lost the run' };
    }
  } catch (err) {
    return { kind: 'unavailable', reason: err instanceof Error ? err.message : 'the code runner failed' };
  }
}
