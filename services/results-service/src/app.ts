import { schemaCheck } from '@exam/server-kit/db';
import { createBaseApp } from '@exam/server-kit/base-app';
import type { Config } from './config.ts';
import { createLtiGrants } from './modules/attempts/lti-grant.ts';
import type { Deps, PresenceStore } from './deps.ts';
import { registerServiceMetrics } from './plugins/service-metrics.ts';
import { createAttemptsRepository } from './modules/attempts/attempts.repository.ts';
import { DEFAULT_SAVE_BATCH } from './modules/attempts/answer-batch.ts';
import { attemptsRoutes } from './modules/attempts/attempts.routes.ts';
import { createAttemptsService } from './modules/attempts/attempts.service.ts';
import { resumeCodeKey } from './modules/attempts/resume-credentials.ts';
import { createStartService } from './modules/attempts/start-attempt.service.ts';
import { createStartLimiter } from './modules/attempts/start-limits.service.ts';
import { createStartLimitsRepository } from './modules/attempts/start-limits.repository.ts';
import { redisStartCounters } from './modules/attempts/start-counters.redis.ts';
import { createCandidateResultService } from './modules/attempts/candidate-result.service.ts';
import { createBriefingService } from './modules/attempts/briefing.service.ts';
import { accommodationsRoutes } from './modules/accommodations/accommodations.routes.ts';
import { briefingRoutes } from './modules/attempts/briefing.routes.ts';
import { createCohortRepository } from './modules/accommodations/cohort.repository.ts';
import { keepGradeRefresher } from './modules/accommodations/keep-grade-refresh.ts';
import { createOverridesService } from './modules/accommodations/overrides.service.ts';
import { createInsightsCache } from './modules/insights/insights-cache.ts';
import { createInsightsCacheRepository } from './modules/insights/insights-cache.repository.ts';
import { createInsightsRepository } from './modules/insights/insights.repository.ts';
import { insightsRoutes } from './modules/insights/insights.routes.ts';
import { createInsightsService } from './modules/insights/insights.service.ts';
import { internalRoutes } from './modules/internal/internal.routes.ts';
import { createScoreSyncRepository } from './modules/lti/score-sync.repository.ts';
import { scoreSyncRoutes } from './modules/lti/score-sync.routes.ts';
import { createScoreSyncService } from './modules/lti/score-sync.service.ts';
import { createLiveRepository } from './modules/live/live.repository.ts';
import { liveRoutes, recordPresence } from './modules/live/live.routes.ts';
import { databasePresence, redisPresence } from './modules/live/presence.ts';
import { createLiveService } from './modules/live/live.service.ts';
import { createSubmissionsRepository } from './modules/submissions/submissions.repository.ts';
import { submissionsRoutes } from './modules/submissions/submissions.routes.ts';
import { gradingRoutes } from './modules/grading/grading.routes.ts';
import { createReleaseNotices, type ReleaseNotices } from './modules/grading/release-notices.ts';
import { createGradingService } from './modules/grading/grading.service.ts';
import { createRegradeService } from './modules/grading/regrade.service.ts';
import { createResultWritesRepository } from './modules/grading/result-writes.repository.ts';
import { createResultsRepository } from './modules/results/results.repository.ts';
import { resultsRoutes } from './modules/results/results.routes.ts';
import { createResultsService } from './modules/results/results.service.ts';
import { createTestGradingRepository } from './modules/grading/test-grading.repository.ts';
import { createTestGradingService } from './modules/grading/test-grading.service.ts';
import { createTestRunsRepository } from './modules/attempts/test-runs.repository.ts';
import { testRunsRoutes } from './modules/attempts/test-runs.routes.ts';
import { createTestRunsService } from './modules/attempts/test-runs.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Submits expired attempts once; server.ts runs it on an interval (jobs/finalizer.ts), tests call it directly. */
    finalizeExpired: () => Promise<number>;
    /** One pass of the test-grading job (jobs/test-grading.ts); server.ts runs it on an interval, tests directly. */
    gradeTests: () => Promise<number>;
    /** One pass of the LTI score passback job (jobs/lti-score-sync.ts); server.ts runs it on an interval, tests directly. */
    syncLtiScores: () => Promise<number>;
    /** Release notices still being handed to exam-service (tests wait for them). */
    releaseNotices: ReleaseNotices;
    /** Where the live view reads when candidates were last seen (tests read it whichever store it is). */
    presence: PresenceStore;
  }
}

export async function buildApp(config: Config, deps: Deps) {
  const app = await createBaseApp({
    service: 'results-service',
    logLevel: config.LOG_LEVEL,
    trustedProxies: config.TRUSTED_PROXIES,
    metrics: { token: config.METRICS_TOKEN, cacheMs: config.METRICS_CACHE_MS },
    apiDocs: config.API_DOCS,
    jwtSecret: config.jwtSecret,
    internalToken: config.internalToken,
    creatorSessions: deps.creatorSessions,
    checks: {
      database: () => deps.database.ping(),
      migrations: schemaCheck(deps.database),
    },
    // Redis down, the start limits and presence fall back to PostgreSQL: degraded, still ready.
    ...(deps.redis ? { degradable: { redis: deps.redis.ping } } : {}),
  });
  deps.redis?.useLog(app.log);
  registerServiceMetrics(app, deps.database);

  const attemptsRepository = createAttemptsRepository(deps.database, {
    saveBatch: {
      windowMs: config.SAVE_BATCH_WINDOW_MS,
      maxInFlight: config.SAVE_BATCH_IN_FLIGHT,
      maxRows: config.SAVE_BATCH_MAX_ROWS,
      maxChars: DEFAULT_SAVE_BATCH.maxChars,
    },
  });
  const cohort = createCohortRepository(deps.database);
  const refreshKeepGrade = keepGradeRefresher(cohort, deps);
  const candidateResults = createCandidateResultService(attemptsRepository, deps);
  const attempts = createAttemptsService(attemptsRepository, deps, app.log, {
    serverKeys: config.serverKeys,
    uploadMaxBytes: config.UPLOAD_MAX_BYTES,
    eventsPerAttemptMax: config.EVENTS_PER_ATTEMPT_MAX,
  });
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
  const results = createResultsService(createResultsRepository(deps.database), deps, refreshKeepGrade);
  const resultWrites = createResultWritesRepository(deps.database);
  const grading = createGradingService(resultWrites, deps);
  const testGrading = createTestGradingService(createTestGradingRepository(deps.database), deps, app.log);
  const regrade = createRegradeService(resultWrites, testGrading, deps);
  app.decorate('gradeTests', () => testGrading.gradeTests());
  const scoreSync = createScoreSyncService(createScoreSyncRepository(deps.database), deps, app.log, {
    backoffMs: config.LTI_SCORE_SYNC_BACKOFF_SECONDS * 1000,
    backoffCapMs: config.LTI_SCORE_SYNC_BACKOFF_CAP_SECONDS * 1000,
    maxTries: config.LTI_SCORE_SYNC_MAX_TRIES,
  });
  app.decorate('syncLtiScores', () => scoreSync.syncDue());
  const testRuns = createTestRunsService(
    createTestRunsRepository(deps.database),
    attemptsRepository,
    startLimits,
    deps,
    app.log,
    { perMinute: config.TEST_RUNS_PER_MINUTE },
  );
  const insightsRepository = createInsightsRepository(deps.database);
  const insights = createInsightsService(insightsRepository, deps, app.log, refreshKeepGrade);
  const insightsCache = createInsightsCache({
    repo: createInsightsCacheRepository(deps.database),
    examSource: deps.examSource,
    transcripts: deps.transcripts,
    clock: deps.clock,
    refreshKeepGrade,
    // The cache has refreshed the keepGrade with the exam it read: the report need not read it again.
    reportWith: (sources) => createInsightsService(insightsRepository, sources, app.log, async () => {}),
  });
  // The finalizer's interval also drops start-limit windows that are over.
  app.decorate('finalizeExpired', async () => {
    await starts.prune();
    return attempts.finalizeExpired();
  });

  const liveRepository = createLiveRepository(deps.database);
  const presence = deps.redis
    ? redisPresence(deps.redis, databasePresence(liveRepository), app.log)
    : databasePresence(liveRepository);
  app.decorate('presence', presence);
  const live = createLiveService(liveRepository, presence, deps, (attemptId) => attempts.submit(attemptId));
  // Before the routes, so it applies to every candidate request (modules/live/live.routes.ts).
  app.addHook('onResponse', recordPresence(live, app.log));

  await app.register(
    attemptsRoutes(attempts, starts, candidateResults, deps, { uploadMaxBytes: config.UPLOAD_MAX_BYTES }),
  );
  await app.register(testRunsRoutes(testRuns));
  await app.register(resultsRoutes(results));
  const submissions = createSubmissionsRepository(deps.database);
  const releaseNotices = createReleaseNotices(submissions, deps, app.log);
  app.decorate('releaseNotices', releaseNotices);
  app.addHook('onClose', () => releaseNotices.drain());
  await app.register(gradingRoutes({ results, grading, regrade, releaseNotices, testGrading }));
  await app.register(scoreSyncRoutes(scoreSync, results));
  await app.register(internalRoutes(attempts, deps));
  await app.register(accommodationsRoutes(createOverridesService(cohort, deps)));
  await app.register(briefingRoutes(createBriefingService(cohort, deps, limiter, ltiGrants)));
  await app.register(submissionsRoutes(submissions));
  await app.register(insightsRoutes(insights, insightsCache, { serverTiming: config.INSIGHTS_SERVER_TIMING }));
  await app.register(liveRoutes(live));

  return app;
}
