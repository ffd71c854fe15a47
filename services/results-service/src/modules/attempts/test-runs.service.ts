import {
  allowedLanguages,
  candidateReport,
  CONSOLE_TEST_ID,
  consoleView,
  RunnerMessages,
  workspaceFileFor,
  type ConsoleRun,
  type ConsoleRunBody,
  type RunAnswer,
  type RunLanguage,
  type RunReport,
  type RunRequest,
  type TestCase,
} from '@exam/domain/coding';
import type { Question } from '@exam/domain/question';
import { AppError, ErrorCode } from '@exam/domain/errors';
import type { WorkspaceFile } from '@exam/domain/internal';
import type { FastifyBaseLogger } from 'fastify';
import type { Deps } from '../../deps.ts';
import type { ExamSnapshot } from '../../scoring/snapshot.ts';
import { candidateRepository, repositoryRun, usesWorkspaceFile, workspaceText } from '../../scoring/test-code.ts';
import type { AttemptsRepository } from './attempts.repository.ts';
import type { ChosenLanguagesRepository } from './chosen-languages.repository.ts';
import { closedReason } from './attempts.service.ts';
import { RetryLaterError } from './retry-later.ts';
import type { StartLimitsRepository } from './start-limits.repository.ts';
import type { TestRunsRepository } from './test-runs.repository.ts';

/** How long "Run tests" holds the request for the run to finish before answering 202 with the run so far. */
export const RUN_WAIT_MS = 20_000;

const finished = (report: RunReport) => report.state !== 'queued' && report.state !== 'running';

/** A console run's one test: the candidate's input, compared with nothing (its outcome only says it ran). */
function consoleTest(stdin: string): TestCase {
  return {
    id: CONSOLE_TEST_ID,
    name: 'Console',
    stdin,
    args: [],
    expected: '',
    comparison: 'exact',
    tolerance: 0,
    points: 1,
    visible: true,
  };
}

/** A console run as the candidate sees it; a run no sandbox could take says so in the candidate's words. */
function consoleRunOf(report: RunReport): ConsoleRun {
  const view = consoleView(report);
  return report.state === 'unavailable' ? { ...view, reason: RunnerMessages.unavailable } : view;
}

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
  chosen: ChosenLanguagesRepository,
) {
  async function takeRun(bucket: string) {
    const windowMs = 60_000;
    const now = deps.clock.now().getTime();
    const windowStart = Math.floor(now / windowMs) * windowMs;
    if ((await limits.count(bucket, new Date(windowStart))) > opts.perMinute)
      throw new RetryLaterError(windowStart + windowMs - now, () => RunnerMessages.rateLimited);
  }

  /** The open attempt's question at the candidate's index, a coding question with a language. */
  async function codingQuestion(attemptId: string, questionIndex: number) {
    const attempt = await attempts.findAttempt(attemptId);
    if (!attempt) throw new AppError(ErrorCode.NOT_FOUND, 'Attempt not found');
    const closed = closedReason(attempt, deps.clock.now());
    if (closed) throw new AppError(ErrorCode.ATTEMPT_CLOSED, closed);
    const snapshot = attempt.examSnapshot;
    const q = snapshot.questions[questionIndex];
    if (!q) throw new AppError(ErrorCode.VALIDATION, `This exam has no question ${questionIndex + 1}`);
    return { attempt, snapshot, q };
  }

  /** The language asked for, one the question allows (400 naming `language` otherwise); the primary one by default. */
  function languageOf(q: Question, asked: RunLanguage | undefined): RunLanguage {
    const allowed = allowedLanguages(q);
    const language = asked ?? q.language;
    if (!language || !allowed.includes(language))
      throw new AppError(ErrorCode.VALIDATION, `This question is answered in ${allowed.join(', ') || 'no language'}`, [
        { path: 'language', message: `Choose one of: ${allowed.join(', ')}` },
      ]);
    return language;
  }

  /**
   * What a run runs: the question's workspace file when it is answered in the workspace (docs/product.md#the-coding-
   * workspace) and the workspace answers, else the code the page sent (its last saved answer). An unreachable
   * workspace never fails the run: it says so, and the page keeps the saved answer.
   */
  async function codeOf(
    attemptId: string,
    snapshot: ExamSnapshot,
    q: Question,
    inlineCode: string,
    language: RunLanguage,
  ): Promise<{ answer: RunAnswer; workspace: Record<string, WorkspaceFile> }> {
    const workspaceFile = usesWorkspaceFile(snapshot, q) ? workspaceFileFor(q, language) : null;
    let workspace: Record<string, WorkspaceFile> = {};
    let unreachable = false;
    if (workspaceFile || (q.repository && snapshot.codingWorkspace.enabled)) {
      try {
        workspace = await deps.workspaceFiles.collect(
          attemptId,
          workspaceFile ? { priorityFiles: [workspaceFile] } : undefined,
        );
      } catch (err) {
        unreachable = true;
        log.warn({ err, attemptId }, 'workspace not collected for a run; running the saved answer');
      }
    }
    const fromWorkspace = workspaceFile ? workspaceText(workspaceFile, workspace) : undefined;
    return {
      workspace,
      answer: {
        code: fromWorkspace ?? inlineCode,
        from: fromWorkspace !== undefined ? 'workspace' : 'inline',
        workspaceFile,
        workspaceUnreachable: unreachable,
        language,
      },
    };
  }

  async function enqueue(request: RunRequest, attemptId: string, questionIndex: number) {
    const answer = await deps.codeRunner.enqueue(request);
    if (!answer.ok) {
      log.warn({ attemptId, reason: answer.reason }, 'run refused: no code sandbox');
      throw new AppError(ErrorCode.UNAVAILABLE, RunnerMessages.unavailable);
    }
    await repo.record({ runId: answer.report.runId, attemptId, questionIndex, now: deps.clock.now() });
    let report = answer.report;
    try {
      report = (await deps.codeRunner.get(report.runId, RUN_WAIT_MS)) ?? report;
    } catch (err) {
      // The run is queued; the page asks again with GET …/test-runs/{runId}.
      log.warn({ err, attemptId, runId: report.runId }, 'run not read back');
    }
    return report;
  }

  return {
    async run(attemptId: string, questionIndex: number, inlineCode: string, asked?: RunLanguage) {
      const { attempt, snapshot, q } = await codingQuestion(attemptId, questionIndex);
      const visible = q.tests.filter((t) => t.visible);
      if (q.type !== 'coding' || q.language === undefined || visible.length === 0)
        throw new AppError(ErrorCode.VALIDATION, RunnerMessages.noVisibleTests);
      const language = languageOf(q, asked);
      await takeRun(`tests:${attemptId}`);

      const { answer, workspace } = await codeOf(attemptId, snapshot, q, inlineCode, language);
      // An agentic task's visible tests run on the workspace's files as they are: the hidden files are for grading.
      const candidate = candidateRepository(snapshot, questionIndex, workspace);
      const repository = candidate
        ? repositoryRun(q, candidate, { withHidden: false, fallbackCode: answer.code })
        : null;
      const report = await enqueue(
        {
          purpose: 'check',
          language,
          code: repository?.code ?? answer.code,
          ...(repository ? { files: repository.files } : {}),
          tests: visible,
          limits: q.limits,
          setupScript: q.setupScript,
          attemptId,
          examId: attempt.examId,
          questionIndex,
        },
        attemptId,
        questionIndex,
      );
      const view = checkView(report);
      return { status: view.status, report: { ...view.report, answer } };
    },

    /**
     * The candidate's console (docs/product.md#coding-questions): the code on their own input, in the same sandbox
     * as the tests (limits, no network), counted against its own runs per minute. Nothing of the tests is involved:
     * the run is one test of the candidate's input that expects nothing.
     */
    async console(attemptId: string, questionIndex: number, body: ConsoleRunBody) {
      const { attempt, snapshot, q } = await codingQuestion(attemptId, questionIndex);
      if (q.type !== 'coding' || q.language === undefined)
        throw new AppError(ErrorCode.VALIDATION, 'Only a coding question with a language has a console');
      const language = languageOf(q, body.language);
      await takeRun(`console:${attemptId}`);
      const { answer, workspace } = await codeOf(attemptId, snapshot, q, body.code, language);
      const candidate = candidateRepository(snapshot, questionIndex, workspace);
      const repository = candidate
        ? repositoryRun(q, candidate, { withHidden: false, fallbackCode: answer.code })
        : null;
      const report = await enqueue(
        {
          purpose: 'check',
          language,
          code: repository?.code ?? answer.code,
          ...(repository ? { files: repository.files } : {}),
          tests: [consoleTest(body.stdin)],
          limits: q.limits,
          setupScript: q.setupScript,
          attemptId,
          examId: attempt.examId,
          questionIndex,
        },
        attemptId,
        questionIndex,
      );
      return { status: finished(report) ? (200 as const) : (202 as const), run: { ...consoleRunOf(report), answer } };
    },

    /** The candidate's choice of language for a question that offers several; runs and grading use it. */
    async chooseLanguage(attemptId: string, questionIndex: number, asked: RunLanguage) {
      const { q } = await codingQuestion(attemptId, questionIndex);
      if (allowedLanguages(q).length < 2)
        throw new AppError(ErrorCode.VALIDATION, 'This question is answered in one language', [
          { path: 'language', message: `This question is answered in ${q.language ?? 'no language'}` },
        ]);
      const language = languageOf(q, asked);
      await chosen.choose({ attemptId, questionIndex, language, now: deps.clock.now() });
      return { questionIndex, language };
    },

    /** The attempt's choices of language, by question index. */
    async languages(attemptId: string) {
      return { languages: Object.fromEntries([...(await chosen.of(attemptId))].map(([i, l]) => [String(i), l])) };
    },

    async consoleRun(attemptId: string, runId: string, waitMs: number) {
      if (!(await repo.belongsTo(runId, attemptId))) throw new AppError(ErrorCode.NOT_FOUND, 'Run not found');
      const report = await deps.codeRunner.get(runId, waitMs);
      if (!report) throw new AppError(ErrorCode.NOT_FOUND, 'Run not found');
      return { status: finished(report) ? (200 as const) : (202 as const), run: consoleRunOf(report) };
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
