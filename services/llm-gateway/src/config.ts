import { baseConfigShape, parseConfig, resolveServiceSecrets } from '@exam/server-kit/config';
import { join } from 'node:path';
import { z } from 'zod';

const ConfigSchema = z.object({
  ...baseConfigShape,
  /** llm-gateway's port (`pnpm start` sets it from LLM_GATEWAY_PORT). */
  PORT: z.coerce.number().int().min(0).max(65535).default(4003),
  /**
   * AES-256-GCM key shared with exam-service, which encrypts creators' provider keys. Unset, generated once under
   * DATA_DIR/secrets; set it in production (refused there when unset, as JWT_SECRET).
   */
  ENCRYPTION_KEY: z.string().optional(),
  /** OpenAI's API endpoint (the provider's public API by default). */
  OPENAI_BASE_URL: z.url().default('https://api.openai.com/v1'),
  /** Anthropic's API endpoint. */
  ANTHROPIC_BASE_URL: z.url().default('https://api.anthropic.com'),
  /** Groq's API endpoint. */
  GROQ_BASE_URL: z.url().default('https://api.groq.com/openai/v1'),
  /** Google Gemini's API endpoint. */
  GOOGLE_GEMINI_BASE_URL: z.url().default('https://generativelanguage.googleapis.com'),
  /** Server-wide default key, used for exams whose creator set no key of their own. */
  OPENAI_API_KEY: z.string().optional(),
  /** As OPENAI_API_KEY, for Anthropic. */
  ANTHROPIC_API_KEY: z.string().optional(),
  /** As OPENAI_API_KEY, for Groq. */
  GROQ_API_KEY: z.string().optional(),
  /** As OPENAI_API_KEY, for Google Gemini. */
  GEMINI_API_KEY: z.string().optional(),
  /** The longest a provider's whole reply may take. */
  UPSTREAM_TIMEOUT_MS: z.coerce.number().int().min(1).default(30_000),
  /** The longest wait for a provider reply's first token. */
  UPSTREAM_FIRST_TOKEN_TIMEOUT_MS: z.coerce.number().int().min(1).default(15_000),
  /**
   * A workspace agent's call through the agent endpoint (modules/agent-endpoint): the longest the whole call may
   * take. Agents ask for long replies (a whole file as a tool call), so longer than UPSTREAM_TIMEOUT_MS.
   */
  AGENT_UPSTREAM_TIMEOUT_MS: z.coerce.number().int().min(1).default(600_000),
  /** A workspace agent's call: the longest wait for the provider's response to begin (reasoning models think first). */
  AGENT_FIRST_BYTE_TIMEOUT_MS: z.coerce.number().int().min(1).default(120_000),
  /** Calls to exam-service and results-service. */
  INTERNAL_TIMEOUT_MS: z.coerce.number().int().min(1).default(5_000),
  /**
   * How old this replica's copy of an exam may be when a candidate's message or a workspace agent's call uses it
   * (0: exam-service is asked for every message). The bound within which a creator's change (assistant off, a new
   * key or budget) reaches every message on every replica; creators' own reads always ask exam-service.
   */
  EXAM_MESSAGE_MAX_AGE_MS: z.coerce.number().int().min(0).max(10_000).default(1_000),
  /**
   * host[:port] entries (comma separated) that a creator's openai-compatible base URL may point to. Unset:
   * any public host, and never a loopback, private, link-local or unique-local address (SSRF guard).
   */
  OPENAI_COMPATIBLE_ALLOWED_HOSTS: z.string().optional(),
  /** The creator's Test Assistant: messages per creator per window. */
  TEST_CHAT_MESSAGES_PER_WINDOW: z.coerce.number().int().min(1).default(30),
  /** The window of TEST_CHAT_MESSAGES_PER_WINDOW. */
  TEST_CHAT_WINDOW_MINUTES: z.coerce.number().int().min(1).default(10),
  /** Stored messages sent back to the provider as the conversation so far. */
  HISTORY_MESSAGES: z.coerce.number().int().min(0).max(200).default(20),
  /**
   * Tokens after the first are held up to this long and sent to the browser together (0: each as it arrives). Fewer
   * writes per stream; the first token, the end and errors are never held.
   */
  SSE_COALESCE_MS: z.coerce.number().int().min(0).max(250).default(40),
  /** The AI solvability check: provider calls of one run when the creator sets no cap. */
  SOLVABILITY_MAX_CALLS: z.coerce.number().int().min(1).default(60),
  /** The AI solvability check: tokens in and out of one run when the creator sets no cap. */
  SOLVABILITY_MAX_TOKENS: z.coerce.number().int().min(1000).default(150_000),
  /**
   * A run's lease, renewed every SOLVABILITY_HEARTBEAT_MS (also how soon a cancel is seen): a run not renewed
   * for SOLVABILITY_LEASE_MS is shown as interrupted.
   */
  SOLVABILITY_LEASE_MS: z.coerce.number().int().min(100).default(30_000),
  /** How often a solvability run renews its lease (also how soon a cancel is seen). */
  SOLVABILITY_HEARTBEAT_MS: z.coerce.number().int().min(10).default(2_000),
  /**
   * How long the check waits for the code runner to run one coding reply against the visible tests; a run
   * not finished by then leaves the item not judged (runner-unavailable).
   */
  SOLVABILITY_RUN_WAIT_MS: z.coerce.number().int().min(100).max(60_000).default(20_000),
  /**
   * The pre-publish assistant audit: a run's lease, renewed every AUDIT_HEARTBEAT_MS. A run not renewed for
   * AUDIT_LEASE_MS (its replica died or was stopped) is picked up by the next resume pass of any replica.
   */
  AUDIT_LEASE_MS: z.coerce.number().int().min(100).default(30_000),
  /** How often an audit run renews its lease (also how soon a cancel is seen). */
  AUDIT_HEARTBEAT_MS: z.coerce.number().int().min(10).default(2_000),
  /**
   * How often each replica looks for running audits whose lease lapsed, claims them and goes on with each. 0 turns
   * the pass off on this replica (the test suites do, so one suite's app never claims another's audits).
   */
  AUDIT_RESUME_INTERVAL_MS: z.coerce
    .number()
    .int()
    .refine((ms) => ms === 0 || ms >= 10, 'Either 0 (off) or at least 10 ms')
    .default(10_000),
  /**
   * The audit: tokens in and out of one run when the creator sets no cap. A run never spends more than the exam's
   * grading and audit budget has left, whatever the cap.
   */
  AUDIT_MAX_TOKENS: z.coerce.number().int().min(1000).default(2_000_000),
});

export type Config = z.infer<typeof ConfigSchema> & {
  jwtSecret: string;
  internalToken: string;
  encryptionKey: Buffer;
  pgliteDir: string;
};

export function loadConfig(env: Record<string, string | undefined>): Config {
  const parsed = parseConfig(ConfigSchema, env);
  return {
    ...parsed,
    // The encryption key has the same name and folder as exam-service's, so both resolve the one generated key.
    ...resolveServiceSecrets(parsed, { encryptionKey: true }),
    pgliteDir: join(parsed.DATA_DIR, 'llm-gateway'),
  };
}
