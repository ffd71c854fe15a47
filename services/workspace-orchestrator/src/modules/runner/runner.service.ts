import { EventEmitter } from 'node:events';
import {
  reportPoints,
  RUNNER_UNAVAILABLE,
  testPoints,
  type ReferenceRunRequest,
  type RunReport,
  type RunRequest,
} from '@exam/domain/coding';
import { AppError, ErrorCode } from '@exam/domain/errors';
import { plainRunnerUnavailable } from '@exam/domain/service-status';
import type { CodeRunRow, RunJob } from '../../db/schema.ts';
import type { RunnerEngine } from '../../engine/runner-engine.ts';
import type { NewRun, RunnerRepository } from './runner.repository.ts';

/**
 * 503 with code RUNNER_UNAVAILABLE: no engine, or no image for the language. The message says what that means in
 * plain words (plainRunnerUnavailable); the operator's detail went to the log.
 */
export class RunnerUnavailableError extends AppError {
  constructor(reason: string) {
    super(ErrorCode.UNAVAILABLE, reason);
    (this as { code: string }).code = RUNNER_UNAVAILABLE;
  }

  override get statusCode() {
    return 503;
  }
}

export function toReport(row: CodeRunRow): RunReport {
  const verdicts = row.outcome?.verdicts ?? [];
  return {
    runId: row.id,
    state: row.state,
    verdicts,
    ...(row.outcome?.compileOutput !== undefined ? { compileOutput: row.outcome.compileOutput } : {}),
    ...(row.outcome?.reason !== undefined ? { reason: row.outcome.reason } : {}),
    points: row.state === 'done' ? reportPoints(verdicts) : 0,
    maxPoints: testPoints(row.job.tests),
    queuedAt: row.queuedAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

const settled = (row: CodeRunRow) => row.state !== 'queued' && row.state !== 'running';

export type RunnerServiceOptions = { referenceRunsPerMinute: number; referenceInFlight: number; pollMs: number };

/** How soon a creator refused for runs in flight is told to try again: a reference run usually takes seconds. */
export const REFERENCE_RETRY_AFTER_SECONDS = 5;

/** 429: the creator has as many reference runs queued or running as they may; the route sends Retry-After. */
export class ReferenceRunsBusyError extends AppError {
  readonly retryAfterSeconds = REFERENCE_RETRY_AFTER_SECONDS;
  constructor(inFlight: number) {
    super(
      ErrorCode.RATE_LIMITED,
      `At most ${inFlight} of your reference runs can be queued or running at once. Wait for one to finish.`,
    );
  }
}

/**
 * Queues runs and answers for them. Any replica may answer for any run (the rows are the truth); a run
 * finished on this replica also wakes its local waiters at once, so they need not wait for the next poll.
 */
export function createRunnerService(
  repo: RunnerRepository,
  deps: {
    engine: RunnerEngine;
    clock: { now(): Date };
    ids: { next(): string };
    /** Where the operator's detail of an unavailable runner goes (the admin status page shows it too). */
    log?: { warn(details: Record<string, unknown>, message: string): void };
  },
  opts: RunnerServiceOptions,
) {
  const queued = new EventEmitter();
  const finished = new EventEmitter();
  finished.setMaxListeners(0);

  async function ensureAvailable(language: RunJob['language']) {
    const reason = await deps.engine.unavailableReason(language);
    if (!reason) return;
    deps.log?.warn({ language, kind: reason.kind, detail: reason.detail }, 'the code runner is unavailable');
    throw new RunnerUnavailableError(plainRunnerUnavailable(reason.kind, language));
  }

  const jobOf = (
    r: Pick<RunRequest, 'language' | 'code' | 'tests' | 'limits' | 'setupScript'> & Pick<Partial<RunRequest>, 'files'>,
  ): RunJob => ({
    language: r.language,
    code: r.code,
    tests: r.tests,
    limits: r.limits,
    setupScript: r.setupScript,
    ...(r.files?.length ? { files: r.files } : {}),
  });

  async function wait(row: CodeRunRow, waitMs: number): Promise<CodeRunRow> {
    const deadline = Date.now() + waitMs;
    let current = row;
    while (!settled(current) && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          finished.off(current.id, done);
          resolve();
        };
        const timer = setTimeout(done, Math.min(opts.pollMs, Math.max(0, deadline - Date.now())));
        finished.once(current.id, done);
      });
      current = (await repo.find(current.id)) ?? current;
    }
    return current;
  }

  return {
    /** Subscribes the local worker to new runs (the periodic runner's `wake`). */
    onQueued(listener: () => void) {
      queued.on('run', listener);
      return () => void queued.off('run', listener);
    },
    /** Called by the worker when a run it held is finished. */
    notifyFinished(id: string) {
      finished.emit(id);
    },

    async enqueue(request: RunRequest): Promise<RunReport> {
      await ensureAvailable(request.language);
      const run: NewRun = {
        id: deps.ids.next(),
        purpose: request.purpose,
        creatorId: null,
        attemptId: request.attemptId,
        examId: request.examId,
        questionIndex: request.questionIndex,
        language: request.language,
        job: jobOf(request),
      };
      const row = await repo.insert(run, deps.clock.now());
      queued.emit('run');
      return toReport(row);
    },

    /** A creator's reference run; waits up to `waitMs` for its verdicts. */
    async reference(creatorId: string, request: ReferenceRunRequest, waitMs: number): Promise<RunReport> {
      await ensureAvailable(request.language);
      const run: NewRun = {
        id: deps.ids.next(),
        purpose: 'reference',
        creatorId,
        attemptId: null,
        examId: request.examId,
        questionIndex: null,
        language: request.language,
        job: jobOf(request),
      };
      const row = await repo.insertRateLimited(run, deps.clock.now(), {
        perMinute: opts.referenceRunsPerMinute,
        inFlight: opts.referenceInFlight,
      });
      if (row === 'in-flight') throw new ReferenceRunsBusyError(opts.referenceInFlight);
      if (row === 'per-minute')
        throw new AppError(
          ErrorCode.RATE_LIMITED,
          `At most ${opts.referenceRunsPerMinute} reference runs a minute. Wait a moment and try again.`,
        );
      queued.emit('run');
      return toReport(await wait(row, waitMs));
    },

    /** The run's report, held up to `waitMs` while it is queued or running; `creatorId` limits it to their own. */
    async get(id: string, waitMs: number, creatorId?: string): Promise<RunReport> {
      const row = await repo.find(id);
      if (!row || (creatorId !== undefined && row.creatorId !== creatorId))
        throw new AppError(ErrorCode.NOT_FOUND, 'Run not found');
      return toReport(await wait(row, waitMs));
    },

    async lookup(ids: string[]): Promise<RunReport[]> {
      return (await repo.findMany(ids)).map(toReport);
    },
  };
}

export type RunnerService = ReturnType<typeof createRunnerService>;
