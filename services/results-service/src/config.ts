import { DEFAULT_EVENTS_PER_ATTEMPT_MAX, DEFAULT_UPLOAD_MAX_BYTES } from '@exam/domain/attempt';
import { SERVER_KEY_ENV, type AiProvider } from '@exam/domain/ai-catalogue';
import { baseConfigShape, booleanFlag, ConfigError, parseConfig, resolveServiceSecrets } from '@exam/server-kit/config';
import { join } from 'node:path';
import { DEFAULT_OPERATIONS_CAP_BYTES } from './modules/attempts/answer-batch.ts';
import { parseNetworks } from './modules/attempts/start-limits.service.ts';
import { z } from 'zod';

const ConfigSchema = z.object({
  ...baseConfigShape,
  /** results-service's port (`pnpm start` sets it from RESULTS_SERVICE_PORT). */
  PORT: z.coerce.number().int().min(0).max(65535).default(4002),
  /** Largest file a candidate may upload as an answer. */
  UPLOAD_MAX_BYTES: z.coerce.number().int().min(1024).default(DEFAULT_UPLOAD_MAX_BYTES),
  /**
   * What an uploaded answer file (PDF or .docx) may unpack to when its text is read for grading by question: its
   * FlateDecode streams or ZIP entries in total, counted before the parser inflates them. Past it the grader sees
   * the file without its text.
   */
  ANSWER_FILE_MAX_DECOMPRESSED_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(50 * 1024 * 1024),
  /**
   * Wall-clock limit for reading one uploaded answer file's text in its worker thread (server-kit
   * isolated-worker.ts); past it the worker is stopped and the grader sees the file without its text.
   */
  PARSE_TIMEOUT_SECONDS: z.coerce.number().positive().max(600).default(20),
  /** The JavaScript heap (V8 old generation) one such worker may use. */
  PARSE_MAX_HEAP_MB: z.coerce.number().int().min(32).default(512),
  /** Answer files read at once per replica (one worker thread each); further files wait their turn. */
  PARSE_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  /**
   * Proctoring events stored per attempt (at most 200 per request; events after submit are refused with 409). Past
   * it a request is still answered 202, reporting how many were `dropped`: taker-web retries a 429 for ever, and a
   * candidate must never be stopped by events.
   */
  EVENTS_PER_ATTEMPT_MAX: z.coerce.number().int().min(1).default(DEFAULT_EVENTS_PER_ATTEMPT_MAX),
  /**
   * Bytes of answer edit operations (how each answer came to be: the timeline and replay) stored per attempt, as
   * the page sent them. The default, 4 MiB, is about 40 hours of continuous typing at the measured ≤ 100 KB per
   * hour, far beyond any exam. A save whose new operations would pass it stores its answer but not those
   * operations, the attempt is marked capped (once; the timeline shows when) and the save's response says
   * `operationsCapped: true`, so the page stops sending them; the grading page reconciles the replay with the
   * stored answers from there.
   */
  OPERATIONS_PER_ATTEMPT_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(1_000_000_000)
    .default(DEFAULT_OPERATIONS_CAP_BYTES),
  /**
   * Attempt starts per client address (as TRUSTED_PROXIES resolves it; an IPv6 client by its /64) per window,
   * for any exam, checked before the exam is looked up: the ceiling that stops a flood from one address. An
   * address is often a whole building (a school or exam-hall NAT), so it is sized for two 300-seat halls with
   * retries; the per-exam buckets below do the finer work. Resumes with the browser's resume secret do not count,
   * and addresses in START_LIMIT_TRUSTED_NETWORKS are not counted.
   */
  START_LIMIT_PER_CLIENT: z.coerce.number().int().min(1).default(1000),
  /** The window of START_LIMIT_PER_CLIENT. */
  START_LIMIT_PER_CLIENT_WINDOW_SECONDS: z.coerce.number().int().min(1).default(600),
  /**
   * New attempts per exam per window, from all addresses together: enough for a large exam whose candidates all
   * start in the same minute, low enough that a spread-out flood cannot create rows without bound. An exam whose
   * creator expects more candidates (the coding workspace's expected candidates) gets 1.25 times that.
   */
  START_LIMIT_PER_EXAM: z.coerce.number().int().min(1).default(1000),
  /** The window of START_LIMIT_PER_EXAM. */
  START_LIMIT_PER_EXAM_WINDOW_SECONDS: z.coerce.number().int().min(1).default(60),
  /**
   * New attempts of one exam from one address per window: a 300-seat hall behind one NAT starts together
   * (400 leaves room for retries and late-comers), one address cannot spend the exam's whole allowance (keep it
   * below START_LIMIT_PER_EXAM), and an exam expecting more candidates gets 1.25 times its expected count.
   * Roster exams are not counted here (the roster already bounds who starts), nor trusted networks.
   */
  START_LIMIT_PER_EXAM_CLIENT: z.coerce.number().int().min(1).default(400),
  /** The window of START_LIMIT_PER_EXAM_CLIENT. */
  START_LIMIT_PER_EXAM_CLIENT_WINDOW_SECONDS: z.coerce.number().int().min(1).default(600),
  /**
   * Comma-separated networks (CIDR, e.g. "192.0.2.0/24,2001:db8:5::/48", or single addresses) of exam halls and
   * testing centres whose addresses skip the per-address start limits (START_LIMIT_PER_CLIENT and
   * START_LIMIT_PER_EXAM_CLIENT). Per-exam limits and code-guessing limits still apply. Empty by default.
   */
  START_LIMIT_TRUSTED_NETWORKS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((n) => n.trim())
        .filter(Boolean),
    )
    .superRefine((networks, ctx) => {
      try {
        parseNetworks(networks);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
      }
    }),
  /**
   * Wrong resume or unlock codes from one client address per window (any attempt); past it that address gets 429
   * until the window ends. Never counted per attempt, so a storm from elsewhere cannot lock out the right code.
   */
  RESUME_CODE_FAILURES_PER_CLIENT: z.coerce.number().int().min(1).default(10),
  /** The window of RESUME_CODE_FAILURES_PER_CLIENT. */
  RESUME_CODE_FAILURES_WINDOW_SECONDS: z.coerce.number().int().min(1).default(600),
  /** Wrong access codes from one client address per window (any exam), past which it gets 429 with Retry-After. */
  ACCESS_CODE_FAILURES_PER_CLIENT: z.coerce.number().int().min(1).default(20),
  /**
   * Wrong access codes for one exam per window from everywhere: the bound on a distributed guess. High enough that
   * a hall mistyping does not reach it; a 6-character code (36^6) then takes centuries to find by guessing.
   */
  ACCESS_CODE_FAILURES_PER_EXAM: z.coerce.number().int().min(1).default(300),
  /** The window of both access-code limits (per client and per exam). */
  ACCESS_CODE_FAILURES_WINDOW_SECONDS: z.coerce.number().int().min(1).default(600),
  /** How long the examiner's one-time unlock code works. */
  RESUME_UNLOCK_MINUTES: z.coerce.number().int().min(1).max(1440).default(10),
  /** How often the finalizer submits attempts whose deadline (plus grace) has passed. */
  FINALIZER_INTERVAL_SECONDS: z.coerce.number().int().min(1).default(15),
  /** A candidate's "Run tests" runs per attempt per minute, counted in PostgreSQL across replicas (429 past it). */
  TEST_RUNS_PER_MINUTE: z.coerce.number().int().min(1).default(6),
  /**
   * How often the process-records job computes the process (sources, typing signals, the candidate's summary) of
   * submissions that wait for it. A submission also wakes the job of the replica that stored it, so this is only
   * the interval at which another replica's submissions, or a run that failed, are picked up.
   */
  PROCESS_RECORDS_INTERVAL_SECONDS: z.coerce.number().int().min(1).default(5),
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
  /**
   * Time allowed to one AI-suggested mark from llm-gateway (POST /internal/exams/{id}/grading-suggestions): the
   * gateway asks the provider for every sample of the answer at once and answers when all are back, so this is one
   * provider reply's worst case, not UPSTREAM_TIMEOUT_MS.
   */
  SUGGESTION_TIMEOUT_MS: z.coerce.number().int().min(100).default(120_000),
  /**
   * How often the suggestion-batch job (jobs/suggestion-batches.ts) looks for running batches no replica holds: new
   * ones (a start on this replica also wakes it at once) and those whose replica stopped or lost the gateway, whose
   * lease has lapsed.
   */
  SUGGESTION_BATCH_INTERVAL_SECONDS: z.coerce.number().int().min(1).default(5),
  /**
   * A suggestion batch's lease: the replica running it renews it every SUGGESTION_BATCH_HEARTBEAT_MS; a batch not
   * renewed for this long (its replica died, or stopped when llm-gateway could not be reached) is taken over by the
   * next pass of any replica and goes on with the answers that have no current suggestion yet.
   */
  SUGGESTION_BATCH_LEASE_MS: z.coerce.number().int().min(100).default(30_000),
  /**
   * How often a running batch renews its lease, which is also how soon it sees a cancel asked on any replica. It must be
   * less than SUGGESTION_BATCH_LEASE_MS (checked at start); keep it well under, so a slow renewal never lets another
   * replica take a live batch.
   */
  SUGGESTION_BATCH_HEARTBEAT_MS: z.coerce.number().int().min(10).default(2_000),
  /**
   * Time allowed to llm-gateway's follow-up questions after submit (POST /internal/attempts/{id}/follow-up-questions):
   * one structured provider reply. Past it (or with the gateway down) the follow-up is skipped with a note; the
   * submission never waits for it. Also how long a replica's claim on generating an attempt's questions lasts, plus
   * a few seconds, before another replica may try again.
   */
  FOLLOW_UP_TIMEOUT_MS: z.coerce.number().int().min(100).default(60_000),
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
  if (parsed.SUGGESTION_BATCH_HEARTBEAT_MS >= parsed.SUGGESTION_BATCH_LEASE_MS)
    throw new ConfigError(
      'Invalid configuration:\n  SUGGESTION_BATCH_HEARTBEAT_MS: must be less than SUGGESTION_BATCH_LEASE_MS, or batches are taken over while they run',
    );
  return {
    ...parsed,
    ...resolveServiceSecrets(parsed),
    serverKeys: Object.fromEntries(
      Object.entries(SERVER_KEY_ENV).map(([provider, variable]) => [provider, Boolean(env[variable])]),
    ),
    pgliteDir: join(parsed.DATA_DIR, 'results-service'),
  };
}
