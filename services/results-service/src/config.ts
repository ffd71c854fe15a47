import { DEFAULT_EVENTS_PER_ATTEMPT_MAX, DEFAULT_UPLOAD_MAX_BYTES } from '@exam/domain/attempt';
import { SERVER_KEY_ENV, type AiProvider } from '@exam/domain/ai-catalogue';
import { baseConfigShape, booleanFlag, parseConfig, resolveServiceSecrets } from '@exam/server-kit/config';
import { join } from 'node:path';
import { z } from 'zod';

const ConfigSchema = z.object({
  ...baseConfigShape,
  /** results-service's port (`pnpm start` sets it from RESULTS_SERVICE_PORT). */
  PORT: z.coerce.number().int().min(0).max(65535).default(4002),
  /** Largest file a candidate may upload as an answer. */
  UPLOAD_MAX_BYTES: z.coerce.number().int().min(1024).default(DEFAULT_UPLOAD_MAX_BYTES),
  /**
   * Proctoring events stored per attempt (at most 200 per request; events after submit are refused with 409). Past
   * it a request is still answered 202, reporting how many were `dropped`: taker-web retries a 429 for ever, and a
   * candidate must never be stopped by events.
   */
  EVENTS_PER_ATTEMPT_MAX: z.coerce.number().int().min(1).default(DEFAULT_EVENTS_PER_ATTEMPT_MAX),
  /**
   * Attempt starts per client address (as TRUSTED_PROXIES resolves it; IPv6 by /64) per window, 429 with
   * `Retry-After` beyond. A whole class behind one school NAT starts within minutes, so this is sized for a large
   * lecture hall (about 100 candidates plus retries) while a flood from one address stops after a few seconds.
   * Resumes with the browser's resume secret do not count.
   */
  START_LIMIT_PER_CLIENT: z.coerce.number().int().min(1).default(150),
  /** The window of START_LIMIT_PER_CLIENT. */
  START_LIMIT_PER_CLIENT_WINDOW_SECONDS: z.coerce.number().int().min(1).default(600),
  /**
   * New attempts per exam per window, from all addresses together: enough for a large exam whose
   * candidates all start in the same minute, low enough that a spread-out flood cannot create rows without bound.
   */
  START_LIMIT_PER_EXAM: z.coerce.number().int().min(1).default(1000),
  /** The window of START_LIMIT_PER_EXAM. */
  START_LIMIT_PER_EXAM_WINDOW_SECONDS: z.coerce.number().int().min(1).default(60),
  /** Wrong resume codes allowed per attempt before each further try waits (30 s, doubling, at most an hour). */
  RESUME_CODE_FREE_TRIES: z.coerce.number().int().min(1).default(5),
  /** How long the examiner's one-time unlock lets the next start resume without a code. */
  RESUME_UNLOCK_MINUTES: z.coerce.number().int().min(1).max(1440).default(10),
  /** How often the finalizer submits attempts whose deadline (plus grace) has passed. */
  FINALIZER_INTERVAL_SECONDS: z.coerce.number().int().min(1).default(15),
  /** A candidate's "Run tests" runs per attempt per minute, counted in PostgreSQL across replicas (429 past it). */
  TEST_RUNS_PER_MINUTE: z.coerce.number().int().min(1).default(6),
  /** How often the test-grading job starts grade runs of submitted coding answers and collects their verdicts. */
  TEST_GRADING_INTERVAL_SECONDS: z.coerce.number().int().min(1).default(3),
  /** LTI score passback (modules/lti): how often the job sends released scores due to the LMS. */
  LTI_SCORE_SYNC_INTERVAL_SECONDS: z.coerce.number().int().min(1).default(5),
  /**
   * The wait after a failed score send, doubled per further failure up to LTI_SCORE_SYNC_BACKOFF_CAP_SECONDS
   * (ARCHITECTURE.md, "LTI Advantage: score passback and course rosters").
   */
  LTI_SCORE_SYNC_BACKOFF_SECONDS: z.coerce.number().int().min(1).default(30),
  /** The longest wait between sends of a failing score. */
  LTI_SCORE_SYNC_BACKOFF_CAP_SECONDS: z.coerce.number().int().min(1).default(3600),
  /** Failed sends before a score is marked failed (the creator can retry it). */
  LTI_SCORE_SYNC_MAX_TRIES: z.coerce.number().int().min(1).max(50).default(8),
  /**
   * Group commit of answer saves (modules/attempts/answer-batch.ts): how long the first save of a batch waits for
   * others, in milliseconds (0: every save is its own statement).
   */
  SAVE_BATCH_WINDOW_MS: z.coerce.number().min(0).max(50).default(1),
  /** Group commit: how many batches of answer saves run at once. */
  SAVE_BATCH_IN_FLIGHT: z.coerce.number().int().min(1).max(64).default(4),
  /** Group commit: the most answer saves in one batch. */
  SAVE_BATCH_MAX_ROWS: z.coerce.number().int().min(1).max(5000).default(200),
  /** Time allowed to calls to exam-service, workspace-orchestrator and llm-gateway. */
  UPSTREAM_TIMEOUT_MS: z.coerce.number().int().min(100).default(5000),
  /** Benchmarks: the insights route reports its phases (database, statistics, Rasch, serialization) in Server-Timing. */
  INSIGHTS_SERVER_TIMING: booleanFlag.default(false),
});

export type Config = z.infer<typeof ConfigSchema> & {
  /**
   * Which providers have a server-wide default key (OPENAI_API_KEY…, which llm-gateway uses), so an
   * attempt's view of the exam can tell whether the assistant works without the creator's own key.
   * Only whether each is set is kept, never the key.
   */
  serverKeys: Partial<Record<AiProvider, boolean>>;
  jwtSecret: string;
  internalToken: string;
  pgliteDir: string;
};

export function loadConfig(env: Record<string, string | undefined>): Config {
  const parsed = parseConfig(ConfigSchema, env);
  return {
    ...parsed,
    ...resolveServiceSecrets(parsed),
    serverKeys: Object.fromEntries(
      Object.entries(SERVER_KEY_ENV).map(([provider, variable]) => [provider, Boolean(env[variable])]),
    ),
    pgliteDir: join(parsed.DATA_DIR, 'results-service'),
  };
}
