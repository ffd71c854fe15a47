import { candidateReport, RunnerMessages, type RunReport } from '@exam/domain/coding';
import { AppError, ErrorCode } from '@exam/domain/errors';
import type { WorkspaceFile } from '@exam/domain/internal';
import type { FastifyBaseLogger } from 'fastify';
import type { Deps } from '../../deps.ts';
import { candidateRepository, repositoryRun, usesWorkspaceFile, workspaceFileText } from '../../scoring/test-code.ts';
import type { AttemptsRepository } from './attempts.repository.ts';
import { closedReason } from './attempts.service.ts';
import { RetryLaterError } from './retry-later.ts';
import type { StartLimitsRepository } from './start-limits.repository.ts';
import type { TestRunsRepository } from './test-runs.repository.ts';

/** How long "Run tests" holds the request for the run to finish before answering 202 with the run so far. */
export const RUN_WAIT_MS = 20_000;

const finished = (report: RunReport) => report.state !== 'queued' && report.state !== 'running';

/** What a candidate sees of a check run: the visible tests only (candidateReport strips hidden data anyway). */
export function checkView(report: RunReport): { status: 200 | 202; report: RunReport } {
  const view = candidateReport(report);
  const verdicts = view.verdicts.filter((v) => v.visible);
  return {
    status: finished(report) ? 200 : 202,
    report: { ...view, verdicts, ...(report.state === 'unavailable' ? { reason: RunnerMessages.unavailable } : {}) },
  };
}

/**
 * The candidate's "Run tests" (docs/product.md#coding-questions): the code against the question's visible
 * tests only, while the attempt is open, at most `perMinute` runs per attempt counted in PostgreSQL (every
 * replica counts against the same window). Hidden tests never leave results-service for a check run.
 */
export function createTestRunsService(
  repo: TestRunsRepository,
  attempts: AttemptsRepository,
  limits: StartLimitsRepository,
  deps: Pick<Deps, 'clock' | 'codeRunner' | 'workspaceFiles'>,
  log: FastifyBaseLogger,
  opts: { perMinute: number },
) {
  async function takeRun(attemptId: string) {
    const windowMs = 60_000;
    const now = deps.clock.now().getTime();
    const windowStart = Math.floor(now / windowMs) * windowMs;
    if ((await limits.count(`tests:${attemptId}`, new Date(windowStart))) > opts.perMinute)
      throw new RetryLaterError(windowStart + windowMs - now, () => RunnerMessages.rateLimited);
  }

  return {
    async run(attemptId: string, questionIndex: number, inlineCode: string) {
      const attempt = await attempts.findAttempt(attemptId);
      if (!attempt) throw new AppError(ErrorCode.NOT_FOUND, 'Attempt not found');
      const closed = closedReason(attempt, deps.clock.now());
      if (closed) throw new AppError(ErrorCode.ATTEMPT_CLOSED, closed);
      const snapshot = attempt.examSnapshot;
      const q = snapshot.questions[questionIndex];
      if (!q) throw new AppError(ErrorCode.VALIDATION, `This exam has no question ${questionIndex + 1}`);
      const visible = q.tests.filter((t) => t.visible);
      if (q.type !== 'coding' || q.language === undefined || visible.length === 0)
        throw new AppError(ErrorCode.VALIDATION, RunnerMessages.noVisibleTests);
      await takeRun(attemptId);

      let code = inlineCode;
      let workspace: Record<string, WorkspaceFile> = {};
      if (usesWorkspaceFile(snapshot, q) || (q.repository && snapshot.codingWorkspace.enabled)) {
        try {
          workspace = await deps.workspaceFiles.collect(attemptId);
          code = workspaceFileText(q, workspace) ?? inlineCode;
        } catch (err) {
          log.warn({ err, attemptId }, 'workspace not collected for a test run; running the inline code');
        }
      }
      // An agentic task's visible tests run on the workspace's files as they are: the hidden files are for grading.
      const candidate = candidateRepository(snapshot, questionIndex, workspace);
      const repository = candidate ? repositoryRun(q, candidate, { withHidden: false, fallbackCode: code }) : null;
      const answer = await deps.codeRunner.enqueue({
        purpose: 'check',
        language: q.language,
        code: repository?.code ?? code,
        ...(repository ? { files: repository.files } : {}),
        tests: visible,
        limits: q.limits,
        setupScript: q.setupScript,
        attemptId,
        examId: attempt.examId,
        questionIndex,
      });
      if (!answer.ok) {
        log.warn({ attemptId, reason: answer.reason }, 'test run refused: no code sandbox');
        throw new AppError(ErrorCode.UNAVAILABLE, RunnerMessages.unavailable);
      }
      await repo.record({ runId: answer.report.runId, attemptId, questionIndex, now: deps.clock.now() });
      let report = answer.report;
      try {
        report = (await deps.codeRunner.get(report.runId, RUN_WAIT_MS)) ?? report;
      } catch (err) {
        // The run is queued; the page asks again with GET …/test-runs/{runId}.
        log.warn({ err, attemptId, runId: report.runId }, 'test run not read back');
      }
      return checkView(report);
    },

    async get(attemptId: string, runId: string, waitMs: number) {
      if (!(await repo.belongsTo(runId, attemptId))) throw new AppError(ErrorCode.NOT_FOUND, 'Test run not found');
      const report = await deps.codeRunner.get(runId, waitMs);
      if (!report) throw new AppError(ErrorCode.NOT_FOUND, 'Test run not found');
      return checkView(report);
    },
  };
}
export type TestRunsService = ReturnType<typeof createTestRunsService>;
