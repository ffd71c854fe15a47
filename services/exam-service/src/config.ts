import type { AiProvider } from '@exam/domain/ai-catalogue';
import { baseConfigShape, booleanFlag, parseConfig, resolveServiceSecrets } from '@exam/server-kit/config';
import { mailConfigShape } from '@exam/server-kit/mail';
import { join } from 'node:path';
import { z } from 'zod';

const ConfigSchema = z.object({
  ...baseConfigShape,
  ...mailConfigShape,
  /** exam-service's port (`pnpm start` sets it from EXAM_SERVICE_PORT). */
  PORT: z.coerce.number().int().min(0).max(65535).default(4001),
  /**
   * AES-256-GCM key (32 bytes, base64url) for creators' provider API keys, the same as llm-gateway's. Unset,
   * generated once under DATA_DIR/secrets; set it in production (refused there when unset, as JWT_SECRET).
   */
  ENCRYPTION_KEY: z.string().optional(),
  /** How long a creator's sign-in token lasts (a duration such as `12h`). */
  CREATOR_TOKEN_TTL: z.string().default('12h'),
  /** The largest course-material file a creator may upload. */
  MATERIAL_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(20 * 1024 * 1024),
  /**
   * A course material whose extracted text is longer is refused (413); the assistant reads only a bounded context of
   * it.
   */
  MATERIAL_MAX_TEXT_CHARS: z.coerce.number().int().min(1).default(2_000_000),
  /**
   * What a course material may unpack to: a .docx's ZIP entries, or a PDF's FlateDecode streams in total;
   * checked by inflating and counting (nothing kept) before the document's parser inflates it in memory; refused with 413.
   */
  MATERIAL_MAX_DECOMPRESSED_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(50 * 1024 * 1024),
  /**
   * What a question-import zip (a QTI package) may unpack to in total; entries are inflated one at a time and
   * the import is refused (400) the moment the total, or the sizes the zip declares, pass it.
   */
  IMPORT_MAX_UNZIPPED_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(50 * 1024 * 1024),
  /** Entries (files and folders) a question-import zip may hold; more is refused with 400. */
  IMPORT_MAX_ZIP_ENTRIES: z.coerce.number().int().min(1).default(1000),
  /**
   * Wall-clock limit for reading one uploaded file (a course material's text, a question import) in its worker
   * thread; past it the worker is stopped and the upload refused with 400 ("took too long to read").
   */
  PARSE_TIMEOUT_SECONDS: z.coerce.number().positive().max(600).default(20),
  /** The JavaScript heap (V8 old generation) one such worker may use; past it the upload is refused with 400. */
  PARSE_MAX_HEAP_MB: z.coerce.number().int().min(32).default(512),
  /** Files read at once per replica (one worker thread each); further uploads wait their turn. About the core count. */
  PARSE_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  /** How long a creator's preview link works (a read-only token for one exam); 10–15 minutes is plenty to open it. */
  PREVIEW_TOKEN_TTL_SECONDS: z.coerce.number().int().min(30).max(3600).default(900),
  /**
   * Failed sign-ins allowed per client address in the window. Past it the address is refused, until the window
   * ends, on the accounts it has failed on; a correct password for any other account still signs in, so one
   * guesser behind a campus or office NAT does not lock out everyone else there.
   */
  LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).default(10),
  /** The window of LOGIN_MAX_FAILURES. */
  LOGIN_WINDOW_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .default(15 * 60),
  /**
   * Failed sign-ins on one account (from any address) in the window before each further try waits
   * LOGIN_ACCOUNT_BACKOFF_SECONDS × 2ⁿ (429 with `Retry-After`); never a lockout.
   */
  LOGIN_ACCOUNT_FREE_FAILURES: z.coerce.number().int().min(1).default(5),
  /** The first wait after the free failures; it doubles with every further attempt, up to the max. */
  LOGIN_ACCOUNT_BACKOFF_SECONDS: z.coerce.number().int().min(1).default(1),
  /** The longest wait between sign-in tries on one account. */
  LOGIN_ACCOUNT_BACKOFF_MAX_SECONDS: z.coerce.number().int().min(1).default(300),
  /**
   * The longest a new password's strength check (zxcvbn, in a worker thread) may take before the password is
   * refused as too repetitive to check; a normal password takes tens to hundreds of milliseconds.
   */
  PASSWORD_STRENGTH_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
  /** How long a password-reset link works. */
  PASSWORD_RESET_TTL_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(30),
  /** Reset mails sent to one account per window; further requests get the same answer but no mail. */
  PASSWORD_RESET_MAX_PER_ACCOUNT: z.coerce.number().int().min(1).default(3),
  /** Reset requests from one client address per window before it is answered 429. */
  PASSWORD_RESET_MAX_PER_ADDRESS: z.coerce.number().int().min(1).default(10),
  /** The window of PASSWORD_RESET_MAX_PER_ACCOUNT and PASSWORD_RESET_MAX_PER_ADDRESS. */
  PASSWORD_RESET_WINDOW_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .default(60 * 60),
  /**
   * The origin the LMS is given for the tool's /lti/login, /lti/launch and /lti/jwks (both web servers forward them
   * to exam-service); the creator app's origin when unset. https in production. ARCHITECTURE.md "LTI".
   */
  LTI_TOOL_ORIGIN: z.url().optional(),
  /**
   * How long a retired LTI signing key stays in the published /lti/jwks (platforms cache the set) after `pnpm
   * --filter @exam/exam-service lti:rotate-key`.
   */
  LTI_KEY_GRACE_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .default(7 * 24 * 60 * 60),
  /** How long a started LTI login (state and nonce) may take to come back as a launch. */
  LTI_STATE_TTL_SECONDS: z.coerce.number().int().min(10).max(3600).default(600),
  /** How long an instructor's launch ticket works after the launch (until the creator app spends it). */
  LTI_TICKET_TTL_SECONDS: z.coerce.number().int().min(10).max(3600).default(600),
  /** How long a learner's launch grant may start the attempt: the briefing is read before Start. */
  LTI_GRANT_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(24 * 3600)
    .default(3600),
  /**
   * How far in the future an LTI id_token's `iat` (issued at) may be, in seconds, to allow for the LMS's clock
   * running ahead of this one. A token issued later than that is refused: it was made to be used later, or by a
   * platform whose clock cannot be trusted (LTI Core 1.3 §5.1.3 leaves the tolerance to the tool; keep it small).
   */
  LTI_IAT_SKEW_SECONDS: z.coerce.number().int().min(0).max(600).default(60),
  /**
   * Lets a platform registration use http:// on this machine and lets exam-service call LMS URLs (JWKS, token,
   * grades, roster) over plain http and on loopback or private addresses (an LMS simulator, development, tests);
   * off, only https to public addresses (adapters/lti-egress.ts). `pnpm start` sets it (true); a deployment leaves
   * it off.
   */
  LTI_ALLOW_LOOPBACK_HTTP: booleanFlag.default(false),
  /**
   * Lets an organization's single sign-on issuer (its discovery document, token endpoint and keys) be plain http and
   * on loopback or private addresses (a local identity provider: development, tests); off, only https to public
   * addresses (adapters/oidc-client.ts). `pnpm start` sets it (true); a deployment leaves it off.
   */
  SSO_ALLOW_LOOPBACK_HTTP: booleanFlag.default(false),
  /**
   * The platform administrators: creator accounts' e-mails, comma-separated, who may open the platform status page
   * (GET /api/admin/status: every service's engines, images, providers and mail queue, with the operator's detail).
   * Empty: nobody.
   */
  ADMIN_EMAILS: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((email) => email.trim().toLowerCase())
        .filter(Boolean),
    ),
  /** scrypt's cost parameter N for creators' password hashes. */
  SCRYPT_COST: z.coerce.number().int().min(1024).default(16384),
  /** The mail queue (PostgreSQL): sends tried per queued mail (the first included) before it is marked failed. */
  MAIL_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(8),
  /** The wait after a mail's first failed send; it doubles per further failure, up to MAIL_RETRY_MAX_SECONDS. */
  MAIL_RETRY_BASE_SECONDS: z.coerce.number().int().min(1).default(30),
  /** The longest wait between sends of a failing mail. */
  MAIL_RETRY_MAX_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .default(60 * 60),
  /** How often each replica looks for due mail (a mail queued on a replica is sent at once anyway). */
  MAIL_SEND_INTERVAL_SECONDS: z.coerce.number().int().min(1).default(5),
  /** Roster candidates who have not submitted get one reminder this long before the exam's `closesAt`. */
  REMINDER_HOURS_BEFORE_CLOSE: z.coerce
    .number()
    .min(0)
    .max(24 * 30)
    .default(24),
  /** How often the reminder job looks for exams closing within REMINDER_HOURS_BEFORE_CLOSE. */
  REMINDER_INTERVAL_SECONDS: z.coerce.number().int().min(1).default(300),
  /**
   * Sent or failed mail, ended (expired or revoked) sign-in sessions and expired or used password-reset links are
   * deleted once older than this many days.
   */
  RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  /** How often each replica prunes them. */
  PRUNE_INTERVAL_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .default(60 * 60),
  /**
   * How often each replica deletes candidates' attempts past their exam's retention period and retries erasures a
   * service has not completed (modules/privacy); also how long a replica holds an erasure it runs.
   */
  PRIVACY_JOB_INTERVAL_SECONDS: z.coerce
    .number()
    .int()
    .min(5)
    .default(10 * 60),
  /**
   * Server-wide default provider keys (llm-gateway uses them for exams without their own key). exam-service reads
   * them only to tell candidates whether the assistant works without the creator's own key; the values are dropped.
   */
  OPENAI_API_KEY: z.string().optional(),
  /** As OPENAI_API_KEY, for Anthropic. */
  ANTHROPIC_API_KEY: z.string().optional(),
  /** As OPENAI_API_KEY, for Groq. */
  GROQ_API_KEY: z.string().optional(),
  /** As OPENAI_API_KEY, for Google Gemini. */
  GEMINI_API_KEY: z.string().optional(),
});

type DefaultKeyVar = 'OPENAI_API_KEY' | 'ANTHROPIC_API_KEY' | 'GROQ_API_KEY' | 'GEMINI_API_KEY';

export type Config = Omit<z.infer<typeof ConfigSchema>, DefaultKeyVar> & {
  /** Which providers have a server default key; never the keys themselves. */
  defaultProviderKeys: Record<AiProvider, boolean>;
  jwtSecret: string;
  internalToken: string;
  encryptionKey: Buffer;
  pgliteDir: string;
  /** LTI_TOOL_ORIGIN, or the creator app's origin. */
  ltiToolOrigin: string;
};

export function loadConfig(env: Record<string, string | undefined>): Config {
  const { OPENAI_API_KEY, ANTHROPIC_API_KEY, GROQ_API_KEY, GEMINI_API_KEY, ...parsed } = parseConfig(ConfigSchema, env);
  return {
    ...parsed,
    ...resolveServiceSecrets(parsed, { encryptionKey: true }),
    defaultProviderKeys: {
      openai: Boolean(OPENAI_API_KEY),
      anthropic: Boolean(ANTHROPIC_API_KEY),
      groq: Boolean(GROQ_API_KEY),
      google: Boolean(GEMINI_API_KEY),
      'openai-compatible': false,
    },
    pgliteDir: join(parsed.DATA_DIR, 'exam-service'),
    ltiToolOrigin: new URL(parsed.LTI_TOOL_ORIGIN ?? parsed.CREATOR_ORIGIN).origin,
  };
}
