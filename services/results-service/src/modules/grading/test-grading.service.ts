import {
  allowedLanguages,
  isTestGraded,
  type RunLanguage,
  type RunReport,
  type RunRequest,
  type TestGrading,
} from '@exam/domain/coding';
import { AppError, ErrorCode } from '@exam/domain/errors';
import type { FastifyBaseLogger } from 'fastify';
import { UNREACHABLE_REASON } from '../../adapters/code-runner.ts';
import type { Deps } from '../../deps.ts';
import { repositoryRun } from '../../scoring/test-code.ts';
import type { ChosenLanguagesRepository } from '../attempts/chosen-languages.repository.ts';
import type { Grader } from './grading.service.ts';
import { resultNotFound } from '../results/results.service.ts';
import type { ClaimedGrading, GradingStep, TestGradingRepository } from './test-grading.repository.ts';

/** Failed tries to reach the runner before a question is left to a grader. */
export const MAX_TRIES = 6;
/** Back-off after the n-th failed try: 2ⁿ seconds, at most five minutes. */
export const backoffMs = (tries: number) => Math.min(300_000, 1000 * 2 ** tries);

const FINAL_STATES = new Set(['done', 'unavailable', 'error']);

/** A finished report as the result keeps it. */
function gradingOf(report: RunReport): TestGrading {
  return {
    state: report.state,
    runId: report.runId,
    verdicts: report.verdicts,
    ...(report.compileOutput !== undefined ? { compileOutput: report.compileOutput } : {}),
    ...(report.reason !== undefined ? { reason: report.reason } : {}),
  };
}

/**
 * Grading by tests at submission (docs/product.md#coding-questions). Submissions queue one outbox row per
 * test-graded question; each pass of the job (jobs/test-grading.ts) starts the runs of queued rows with all
 * the question's tests, then asks the runner about the runs in flight in one lookup and writes the verdicts
 * of finished ones into the result, whose score follows through scoreAttempt. No sandbox, or a runner that
 * keeps failing, leaves the question to a grader with the reason in `tests.reason`.
 */
export function createTestGradingService(
  repo: TestGradingRepository,
  deps: Pick<Deps, 'clock' | 'codeRunner'>,
  log: FastifyBaseLogger,
  chosen?: Pick<ChosenLanguagesRepository, 'ofAttempts'>,
) {
  /** A failed try: later with back-off, or, past the limit, given up with the reason. */
  function failed(claimed: ClaimedGrading, now: Date, message: string, requeue: boolean): GradingStep {
    const tries = claimed.row.tries + 1;
    if (tries >= MAX_TRIES) {
      // The failure's text goes to the log only: a runner's or a driver's message is internal (and can quote the
      // tests' data); graders and candidates read the reason.
      log.warn(
        { resultId: claimed.row.resultId, questionIndex: claimed.row.questionIndex, runId: claimed.row.runId, message },
        'test grading gave up: the code runner kept failing',
      );
      const reason = 'The code runner kept failing. A grader will mark this question.';
      return {
        row: { state: 'error', tries },
        tests: { state: 'error', runId: claimed.row.runId, verdicts: [], reason },
      };
    }
    return {
      row: {
        tries,
        nextAt: new Date(now.getTime() + backoffMs(tries)),
        ...(requeue ? { state: 'queued', runId: null } : {}),
      },
    };
  }

  function runRequest(
    { row, snapshot, examId }: ClaimedGrading,
    languages: ReadonlyMap<string, ReadonlyMap<number, RunLanguage>>,
  ): RunRequest | undefined {
    const q = snapshot.questions[row.questionIndex];
    if (!q || !isTestGraded(q) || q.language === undefined) return undefined;
    // The candidate's choice, when the question offers several languages (and still offers that one).
    const picked = languages.get(row.attemptId)?.get(row.questionIndex);
    const language = picked && allowedLanguages(q).includes(picked) ? picked : q.language;
    // An agentic task runs on the candidate's repository with the hidden files over it (grading only).
    const repository = row.files ? repositoryRun(q, row.files, { withHidden: true, fallbackCode: row.code }) : null;
    return {
      purpose: 'grade',
      language,
      code: repository?.code ?? row.code,
      ...(repository ? { files: repository.files } : {}),
      tests: q.tests,
      limits: q.limits,
      setupScript: q.setupScript,
      attemptId: row.attemptId,
      examId,
      questionIndex: row.questionIndex,
    };
  }

  async function startRuns(claimed: ClaimedGrading[]) {
    const now = deps.clock.now();
    const steps = new Map<ClaimedGrading, GradingStep>();
    const languages = chosen ? await chosen.ofAttempts(claimed.map((c) => c.row.attemptId)) : new Map();
    for (const c of claimed) {
      const request = runRequest(c, languages);
      if (!request) {
        const reason = 'This question is no longer graded by tests. A grader will mark it.';
        steps.set(c, { row: { state: 'error' }, tests: { state: 'error', runId: null, verdicts: [], reason } });
        continue;
      }
      try {
        const answer = await deps.codeRunner.enqueue(request);
        if (answer.ok) {
          steps.set(c, { row: { state: 'running', runId: answer.report.runId, nextAt: now } });
        } else if (answer.reason === UNREACHABLE_REASON) {
          // An orchestrator restarting or busy for a moment is a failed try, not a missing sandbox: it is
          // tried again with back-off before the question is left to a grader.
          steps.set(c, failed(c, now, answer.reason, false));
        } else {
          steps.set(c, {
            row: { state: 'unavailable' },
            tests: { state: 'unavailable', runId: null, verdicts: [], reason: answer.reason },
          });
        }
      } catch (err) {
        log.warn({ err, resultId: c.row.resultId, questionIndex: c.row.questionIndex }, 'test run not started');
        steps.set(c, failed(c, now, (err as Error).message, false));
      }
    }
    return steps;
  }

  async function pollRuns(claimed: ClaimedGrading[]) {
    const now = deps.clock.now();
    const steps = new Map<ClaimedGrading, GradingStep>();
    let reports: Map<string, RunReport>;
    try {
      const ids = claimed.flatMap((c) => c.row.runId ?? []);
      reports = new Map((await deps.codeRunner.lookup(ids)).map((r) => [r.runId, r]));
    } catch (err) {
      log.warn({ err, runs: claimed.length }, 'test runs could not be looked up');
      for (const c of claimed) steps.set(c, failed(c, now, (err as Error).message, false));
      return steps;
    }
    for (const c of claimed) {
      const report = c.row.runId ? reports.get(c.row.runId) : undefined;
      // The runner lost the run (e.g. its database was reset): start it again.
      if (!report) steps.set(c, failed(c, now, 'the runner does not know the run', true));
      else if (FINAL_STATES.has(report.state))
        steps.set(c, { row: { state: report.state as 'done' }, tests: gradingOf(report) });
      else steps.set(c, { row: { nextAt: now } });
    }
    return steps;
  }

  return {
    /** One pass: starts queued runs, then collects finished ones. Returns how many gradings moved on. */
    async gradeTests(batchSize = 50): Promise<number> {
      // Few rows per transaction, since they stay locked while the runner is called for each; batches follow
      // one another until the queue is empty (a burst of submissions) or another replica holds the rest.
      const startBatch = Math.min(batchSize, 10);
      let moved = 0;
      for (let batch = 0; batch < 50; batch++) {
        const started = await repo.process(['queued'], deps.clock.now(), startBatch, startRuns);
        moved += started.moved;
        if (started.claimed < startBatch) break;
      }
      const polled = await repo.process(['running'], deps.clock.now(), batchSize * 4, pollRuns);
      return moved + polled.moved;
    },

    /** A creator asks for a question's tests to run again (after 'unavailable' or 'error', or a runner fix). */
    async rerun(resultId: string, grader: Grader, questionIndex: number): Promise<void> {
      const outcome = await repo.requeue(resultId, grader.sub, questionIndex, deps.clock.now(), grader.email);
      if (outcome === 'not-found') throw resultNotFound();
      if (outcome === 'not-tested')
        throw new AppError(ErrorCode.VALIDATION, 'This question is not graded by tests', [
          { path: 'questionIndex', message: 'This question is not graded by tests' },
        ]);
    },
  };
}
export type TestGradingService = ReturnType<typeof createTestGradingService>;
