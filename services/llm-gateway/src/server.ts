import { exitOnStartupError, runServer } from '@exam/server-kit/run';
import { buildApp } from './app.ts';
import {
  cachedAttemptSource,
  cachedExamSource,
  httpAttemptSource,
  httpExamSource,
} from './clients/platform-clients.ts';
import { loadConfig } from './config.ts';
import { openGatewayDatabase } from './db/database.ts';
import { systemClock, uuidIds } from './deps.ts';
import { createBaseUrlGuard } from './providers/base-url-guard.ts';
import { createLlmClient, realAdapters } from './providers/llm-client.ts';

const LISTEN_BACKLOG = 4096;

try {
  const config = loadConfig(process.env);
  const database = await openGatewayDatabase({
    databaseUrl: config.DATABASE_URL,
    pgliteDir: config.pgliteDir,
    poolSize: config.DATABASE_POOL_SIZE,
  });
  const internal = { timeoutMs: config.INTERNAL_TIMEOUT_MS };
  const now = () => Date.now();
  const llm = createLlmClient(
    realAdapters(
      {
        openai: config.OPENAI_BASE_URL,
        anthropic: config.ANTHROPIC_BASE_URL,
        groq: config.GROQ_BASE_URL,
        google: config.GOOGLE_GEMINI_BASE_URL,
      },
      createBaseUrlGuard({ allowedHosts: config.OPENAI_COMPATIBLE_ALLOWED_HOSTS }),
    ),
    { totalMs: config.UPSTREAM_TIMEOUT_MS, firstTokenMs: config.UPSTREAM_FIRST_TOKEN_TIMEOUT_MS },
  );
  const app = await buildApp(config, {
    database,
    clock: systemClock,
    ids: uuidIds,
    exams: cachedExamSource(httpExamSource(config.EXAM_SERVICE_URL, config.internalToken, internal), {
      ttlMs: config.EXAM_CACHE_MS,
      now,
    }),
    attempts: cachedAttemptSource(httpAttemptSource(config.RESULTS_SERVICE_URL, config.internalToken, internal), {
      ttlMs: config.ATTEMPT_CACHE_MS,
      now,
    }),
    llm,
  });
  app.addHook('onClose', () => database.close());
  // Replies stream for up to UPSTREAM_TIMEOUT_MS: no server timeout may cut a stream, and a burst of new
  // connections must not be dropped while the event loop is busy. (Node's requestTimeout only covers
  // receiving the request; the reply is bounded by the upstream timeouts.)
  app.server.headersTimeout = 120_000;
  app.server.keepAliveTimeout = 75_000;
  app.server.maxRequestsPerSocket = 0;
  // runServer (server-kit) listens with Node's default backlog of 511: a burst of new streams while the event
  // loop is busy overflowed it, and the kernel reset the connections it had to drop (bench/README.md). The
  // kernel caps the backlog at net.core.somaxconn.
  const listen = app.listen.bind(app) as (opts: { host: string; port: number; backlog?: number }) => Promise<string>;
  app.listen = ((opts: { host: string; port: number }) =>
    listen({ ...opts, backlog: LISTEN_BACKLOG })) as typeof app.listen;
  await runServer(app, { host: config.HOST, port: config.PORT });
} catch (err) {
  exitOnStartupError(err);
}
