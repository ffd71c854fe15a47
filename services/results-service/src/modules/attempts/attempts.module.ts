import type { AppModule } from '../../module-context.ts';
import { DEFAULT_SAVE_BATCH } from './answer-batch.ts';
import { createAttemptsRepository } from './attempts.repository.ts';
import { attemptsRoutes } from './attempts.routes.ts';
import { createAttemptsService, type AttemptsService } from './attempts.service.ts';
import { createAttemptReviewService } from './attempt-review.service.ts';
import { briefingRoutes } from './briefing.routes.ts';
import { createBriefingService } from './briefing.service.ts';
import { createCandidateResultService } from './candidate-result.service.ts';
import { createCheckAnswerService } from './check-answer.service.ts';
import { practiceRoutes } from './practice.routes.ts';
import { createLtiGrants } from './lti-grant.ts';
import { resumeCodeKey } from './resume-credentials.ts';
import { createStartService } from './start-attempt.service.ts';
import { redisStartCounters } from './start-counters.redis.ts';
import { createStartLimitsRepository } from './start-limits.repository.ts';
import { createStartLimiter } from './start-limits.service.ts';
import { sectionProgress } from './section-progress.repository.ts';
import { createSectionsService } from './sections.service.ts';
import { createTestRunsRepository } from './test-runs.repository.ts';
import { testRunsRoutes } from './test-runs.routes.ts';
import { createTestRunsService } from './test-runs.service.ts';
import { createChosenLanguagesRepository } from './chosen-languages.repository.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Submits expired attempts once; server.ts runs it on an interval (jobs/finalizer.ts), tests call it directly. */
    finalizeExpired: () => Promise<number>;
  }
}

declare module '../../module-context.ts' {
  interface Provided {
    /** Attempts: the live view's submit and the internal API use it. */
    attemptsService: AttemptsService;
  }
}

/** Starting an attempt (its briefing, limits and admission), answering, submitting, and test runs. */
export const attemptsModule: AppModule = async (app, { config, deps, provide, use }) => {
  const cohort = use('cohort');
  const processRecords = use('processRecords');
  const attemptsRepository = createAttemptsRepository(deps.database, {
    saveBatch: {
      windowMs: config.SAVE_BATCH_WINDOW_MS,
      maxInFlight: config.SAVE_BATCH_IN_FLIGHT,
      maxRows: config.SAVE_BATCH_MAX_ROWS,
      maxChars: DEFAULT_SAVE_BATCH.maxChars,
      operationsCapBytes: config.OPERATIONS_PER_ATTEMPT_MAX_BYTES,
    },
  });
  const candidateResults = createCandidateResultService(attemptsRepository, deps, app.log);
  const chosenLanguages = createChosenLanguagesRepository(deps.database);
  const attempts = createAttemptsService(attemptsRepository, deps, app.log, {
    chosenLanguages: (attemptId) => chosenLanguages.of(attemptId),
    serverKeys: config.serverKeys,
    uploadMaxBytes: config.UPLOAD_MAX_BYTES,
    eventsPerAttemptMax: config.EVENTS_PER_ATTEMPT_MAX,
    onSubmitted: () => processRecords.wake(),
    sections: createSectionsService(sectionProgress(deps.database.db), deps),
  });
  provide('attemptsService', attempts);
  // Test runs stay counted in the database: an existing limit, and one attempt's at that.
  const startLimits = createStartLimitsRepository(deps.database);
  const startCounters = deps.redis ? redisStartCounters(deps.redis, startLimits, app.log) : startLimits;
  const limiter = createStartLimiter(startCounters, deps, {
    perClient: { max: config.START_LIMIT_PER_CLIENT, windowSeconds: config.START_LIMIT_PER_CLIENT_WINDOW_SECONDS },
    perExam: { max: config.START_LIMIT_PER_EXAM, windowSeconds: config.START_LIMIT_PER_EXAM_WINDOW_SECONDS },
    perExamClient: {
      max: config.START_LIMIT_PER_EXAM_CLIENT,
      windowSeconds: config.START_LIMIT_PER_EXAM_CLIENT_WINDOW_SECONDS,
    },
    trustedNetworks: config.START_LIMIT_TRUSTED_NETWORKS,
    resumeCodeFailuresPerClient: {
      max: config.RESUME_CODE_FAILURES_PER_CLIENT,
      windowSeconds: config.RESUME_CODE_FAILURES_WINDOW_SECONDS,
    },
    accessCodeFailuresPerClient: {
      max: config.ACCESS_CODE_FAILURES_PER_CLIENT,
      windowSeconds: config.ACCESS_CODE_FAILURES_WINDOW_SECONDS,
    },
    accessCodeFailuresPerExam: {
      max: config.ACCESS_CODE_FAILURES_PER_EXAM,
      windowSeconds: config.ACCESS_CODE_FAILURES_WINDOW_SECONDS,
    },
  });
  const ltiGrants = createLtiGrants({ jwtSecret: config.jwtSecret, clock: deps.clock });
  const starts = createStartService(
    attemptsRepository,
    deps,
    limiter,
    {
      codeKey: resumeCodeKey(config.jwtSecret),
      unlockMinutes: config.RESUME_UNLOCK_MINUTES,
    },
    cohort,
    ltiGrants,
  );
  const testRuns = createTestRunsService(
    createTestRunsRepository(deps.database),
    attemptsRepository,
    startLimits,
    deps,
    app.log,
    { perMinute: config.TEST_RUNS_PER_MINUTE },
    chosenLanguages,
  );
  // The finalizer's interval also drops start-limit windows that are over.
  app.decorate('finalizeExpired', async () => {
    await starts.prune();
    return attempts.finalizeExpired();
  });

  await app.register(
    attemptsRoutes(attempts, starts, candidateResults, deps, { uploadMaxBytes: config.UPLOAD_MAX_BYTES }),
  );
  await app.register(testRunsRoutes(testRuns));
  await app.register(
    practiceRoutes(
      createCheckAnswerService(attempts, startLimits, deps),
      createAttemptReviewService(attemptsRepository, deps),
    ),
  );
  await app.register(briefingRoutes(createBriefingService(cohort, deps, limiter, ltiGrants)));
};
