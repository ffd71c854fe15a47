import { exitOnStartupError, runServer } from '@exam/server-kit/run';
import { buildApp } from './app.ts';
import { cachedExamSource, httpAttemptSource, httpExamSource } from './clients/platform-clients.ts';
import { loadConfig } from './config.ts';
import { openGatewayDatabase } from './db/database.ts';
import { systemClock, uuidIds } from './deps.ts';
import { createLlmClient, realAdapters } from './providers/llm-client.ts';

try {
  const config = loadConfig(process.env);
  const database = await openGatewayDatabase({ databaseUrl: config.DATABASE_URL, pgliteDir: config.pgliteDir, poolSize: config.DATABASE_POOL_SIZE });
  const internal = { timeoutMs: config.INTERNAL_TIMEOUT_MS };
  const llm = createLlmClient(
    realAdapters({ openai: config.OPENAI_BASE_URL, anthropic: config.ANTHROPIC_BASE_URL, groq: config.GROQ_BASE_URL, google: config.GOOGLE_GEMINI_BASE_URL }),
    { totalMs: config.UPSTREAM_TIMEOUT_MS, firstTokenMs: config.UPSTREAM_FIRST_TOKEN_TIMEOUT_MS },
  );
  const app = await buildApp(config, {
    database,
    clock: systemClock,
    ids: uuidIds,
    exams: cachedExamSource(httpExamSource(config.EXAM_SERVICE_URL, config.internalToken, internal), { ttlMs: config.EXAM_CACHE_MS, now: () => Date.now() }),
    attempts: httpAttemptSource(config.RESULTS_SERVICE_URL, config.internalToken, internal),
    llm,
  });
  app.addHook('onClose', () => database.close());
  await runServer(app, { host: config.HOST, port: config.PORT });
} catch (err) {
  exitOnStartupError(err);
}
