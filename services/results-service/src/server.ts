import './instrumentation.ts';
import { createRemoteCreatorSessions } from '@exam/server-kit/creator-sessions';
import { connectRedis } from '@exam/server-kit/redis';
import { exitOnStartupError, runServer, shutdownOptions } from '@exam/server-kit/run';
import { createHttpAttemptTranscripts } from './adapters/attempt-transcript.ts';
import { createHttpCodeRunner } from './adapters/code-runner.ts';
import { createHttpExamAccess } from './adapters/exam-access.ts';
import { createHttpExamGrants } from './adapters/exam-grants.ts';
import { createHttpExamSource } from './adapters/exam-source.ts';
import { createHttpFollowUpQuestions } from './adapters/follow-up-questions.ts';
import { createHttpGradingSuggester } from './adapters/grading-suggestions.ts';
import { createHttpLtiScores } from './adapters/lti-scores.ts';
import { createHttpTranscriptSource } from './adapters/transcript-source.ts';
import { createHttpWorkspaceFiles } from './adapters/workspace-files.ts';
import { createHttpWorkspaceHistory } from './adapters/workspace-history.ts';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { openResultsDatabase } from './db/database.ts';
import { systemClock, uuidIds } from './deps.ts';
import { startFinalizer } from './jobs/finalizer.ts';
import { startTestGrading } from './jobs/test-grading.ts';
import { startProcessRecords } from './jobs/process-records.ts';
import { startLtiScoreSync } from './jobs/lti-score-sync.ts';
import { startSuggestionBatches } from './jobs/suggestion-batches.ts';

try {
  const config = loadConfig(process.env);
  const database = await openResultsDatabase({
    databaseUrl: config.DATABASE_URL,
    pgliteDir: config.pgliteDir,
    poolSize: config.DATABASE_POOL_SIZE,
    migrate: config.MIGRATE_ON_START,
  });
  // Waits a moment for Redis so the first starts count there; a Redis that is down does not stop the start
  // (/ready says so, and the stores fall back to the database; ARCHITECTURE.md, "Shared fast state").
  const redis = config.REDIS_URL ? connectRedis(config.REDIS_URL, { keyPrefix: 'exam:results-service:' }) : undefined;
  await redis?.connected();
  const upstream = { timeoutMs: config.UPSTREAM_TIMEOUT_MS };
  const creatorSessions = createRemoteCreatorSessions(config.EXAM_SERVICE_URL, config.internalToken, upstream);
  // exam-service may take a token request and the LMS's answer (10 s each at most) before it answers.
  const ltiScores = createHttpLtiScores(config.EXAM_SERVICE_URL, config.internalToken, {
    timeoutMs: Math.max(config.UPSTREAM_TIMEOUT_MS, 25_000),
  });
  const codeRunner = createHttpCodeRunner(config.WORKSPACE_ORCHESTRATOR_URL, config.internalToken, upstream);
  const attemptTranscripts = createHttpAttemptTranscripts(config.LLM_GATEWAY_URL, config.internalToken, upstream);
  const workspaceHistory = createHttpWorkspaceHistory(
    config.WORKSPACE_ORCHESTRATOR_URL,
    config.internalToken,
    upstream,
  );
  const gradingSuggester = createHttpGradingSuggester(config.LLM_GATEWAY_URL, config.internalToken, {
    timeoutMs: config.SUGGESTION_TIMEOUT_MS,
  });
  const followUpQuestions = createHttpFollowUpQuestions(config.LLM_GATEWAY_URL, config.internalToken, {
    timeoutMs: config.FOLLOW_UP_TIMEOUT_MS,
  });
  const app = await buildApp(config, {
    database,
    clock: systemClock,
    ids: uuidIds,
    examSource: createHttpExamSource(config.EXAM_SERVICE_URL, config.internalToken, upstream),
    examAccess: createHttpExamAccess(config.EXAM_SERVICE_URL, config.internalToken, upstream),
    examGrants: createHttpExamGrants(config.EXAM_SERVICE_URL, config.internalToken, upstream),
    ltiScores,
    workspaceFiles: createHttpWorkspaceFiles(config.WORKSPACE_ORCHESTRATOR_URL, config.internalToken, upstream),
    codeRunner,
    transcripts: createHttpTranscriptSource(config.LLM_GATEWAY_URL, config.internalToken, upstream),
    attemptTranscripts,
    workspaceHistory,
    gradingSuggester,
    followUpQuestions,
    creatorSessions,
    redis,
  });
  app.addHook('onClose', () => creatorSessions.close());
  app.addHook('onClose', () => codeRunner.close());
  app.addHook('onClose', () => attemptTranscripts.close());
  app.addHook('onClose', () => workspaceHistory.close());
  const finalizer = startFinalizer(() => app.finalizeExpired(), {
    intervalMs: config.FINALIZER_INTERVAL_SECONDS * 1000,
    log: app.log,
  });
  app.addHook('onClose', () => finalizer.stop());
  const testGrading = startTestGrading(() => app.gradeTests(), {
    intervalMs: config.TEST_GRADING_INTERVAL_SECONDS * 1000,
    log: app.log,
  });
  app.addHook('onClose', () => testGrading.stop());
  const processRecords = startProcessRecords(() => app.computeProcessRecords(), {
    intervalMs: config.PROCESS_RECORDS_INTERVAL_SECONDS * 1000,
    log: app.log,
    wake: (listener) => app.processRecords.onPending(listener),
  });
  app.addHook('onClose', () => processRecords.stop());
  const ltiScoreSync = startLtiScoreSync(() => app.syncLtiScores(), {
    intervalMs: config.LTI_SCORE_SYNC_INTERVAL_SECONDS * 1000,
    log: app.log,
  });
  app.addHook('onClose', () => ltiScoreSync.stop());
  const suggestionBatches = startSuggestionBatches(() => app.suggestionBatches.pass(), {
    intervalMs: config.SUGGESTION_BATCH_INTERVAL_SECONDS * 1000,
    log: app.log,
    wake: (listener) => app.suggestionBatches.onStarted(listener),
  });
  // The job stops claiming first; the module's own close then hands this replica's batches back.
  app.addHook('onClose', () => suggestionBatches.stop());
  app.addHook('onClose', () => gradingSuggester.close());
  app.addHook('onClose', () => followUpQuestions.close());
  app.addHook('onClose', () => ltiScores.close());
  app.addHook('onClose', () => database.close());
  if (redis) app.addHook('onClose', () => redis.close());
  await runServer(app, { host: config.HOST, port: config.PORT, ...shutdownOptions(config) });
} catch (err) {
  exitOnStartupError(err);
}
