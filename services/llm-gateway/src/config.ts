import { baseConfigShape, parseConfig, resolveServiceSecrets } from '@exam/server-kit/config';
import { join } from 'node:path';
import { z } from 'zod';

const ConfigSchema = z.object({
  ...baseConfigShape,
  PORT: z.coerce.number().int().min(0).max(65535).default(4003),
  /** AES-256-GCM key shared with exam-service, which encrypts creators' provider keys. Generated under DATA_DIR when unset. */
  ENCRYPTION_KEY: z.string().optional(),
  OPENAI_BASE_URL: z.url().default('https://api.openai.com/v1'),
  ANTHROPIC_BASE_URL: z.url().default('https://api.anthropic.com'),
  GROQ_BASE_URL: z.url().default('https://api.groq.com/openai/v1'),
  GOOGLE_GEMINI_BASE_URL: z.url().default('https://generativelanguage.googleapis.com'),
  /** Server-wide keys, used for exams whose creator set no key of their own. */
  OPENAI_API_KEY: z.string().optional(),
  ANTHROPIC_API_KEY: z.string().optional(),
  GROQ_API_KEY: z.string().optional(),
  GEMINI_API_KEY: z.string().optional(),
  /** Whole upstream reply, and the wait for its first token. */
  UPSTREAM_TIMEOUT_MS: z.coerce.number().int().min(1).default(30_000),
  UPSTREAM_FIRST_TOKEN_TIMEOUT_MS: z.coerce.number().int().min(1).default(15_000),
  /** Calls to exam-service and results-service. */
  INTERNAL_TIMEOUT_MS: z.coerce.number().int().min(1).default(5_000),
  /**
   * host[:port] entries (comma separated) that a creator's openai-compatible base URL may point to. Unset:
   * any public host, and never a loopback, private, link-local or unique-local address (SSRF guard).
   */
  OPENAI_COMPATIBLE_ALLOWED_HOSTS: z.string().optional(),
  /** The creator's Test Assistant: messages per creator per window. */
  TEST_CHAT_MESSAGES_PER_WINDOW: z.coerce.number().int().min(1).default(30),
  TEST_CHAT_WINDOW_MINUTES: z.coerce.number().int().min(1).default(10),
  /** Stored messages sent back to the provider as the conversation so far. */
  HISTORY_MESSAGES: z.coerce.number().int().min(0).max(200).default(20),
  /**
   * Tokens after the first are held up to this long and sent to the browser together (0: each as it
   * arrives). Fewer writes per stream; the first token, the end and errors are never held.
   */
  SSE_COALESCE_MS: z.coerce.number().int().min(0).max(250).default(40),
  /** The AI solvability check: caps of one run when the creator sets none (provider calls, tokens in and out). */
  SOLVABILITY_MAX_CALLS: z.coerce.number().int().min(1).default(60),
  SOLVABILITY_MAX_TOKENS: z.coerce.number().int().min(1000).default(150_000),
  /**
   * A run's lease, renewed every SOLVABILITY_HEARTBEAT_MS (also how soon a cancel is seen): a run not renewed
   * for SOLVABILITY_LEASE_MS is shown as interrupted.
   */
  SOLVABILITY_LEASE_MS: z.coerce.number().int().min(100).default(30_000),
  SOLVABILITY_HEARTBEAT_MS: z.coerce.number().int().min(10).default(2_000),
  /**
   * How long the check waits for the code runner to run one coding reply against the visible tests; a run
   * not finished by then leaves the item not judged (runner-unavailable).
   */
  SOLVABILITY_RUN_WAIT_MS: z.coerce.number().int().min(100).max(60_000).default(20_000),
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
