import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/** The repository's .data folder: the embedded default for PGlite files and generated secrets. */
export const DEFAULT_DATA_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../../.data');

const bool = z.enum(['true', 'false', '1', '0', '']).transform((v) => v === 'true' || v === '1');

/** proxy-addr's named ranges, which Fastify's trustProxy accepts besides addresses and CIDRs. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyEntry(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * Comma-separated addresses/CIDRs whose X-Forwarded-For is believed; `none` trusts no proxy. A request
 * from any other address is identified by its socket address, whatever headers it sends.
 */
export const DEFAULT_TRUSTED_PROXIES = '127.0.0.1,::1';

export const trustedProxiesSchema = z.string().transform((v, ctx) => {
  const entries = v
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
  if (entries.length === 1 && entries[0] === 'none') return [];
  for (const entry of entries) {
    if (!isProxyEntry(entry)) {
      ctx.addIssue({
        code: 'custom',
        message: `"${entry}" is not an IP address, a CIDR, loopback, linklocal, uniquelocal or none`,
      });
    }
  }
  return entries;
});

/** API_DOCS: who may read a service's OpenAPI document and its UI (plugins/openapi.ts). */
export const API_DOCS_MODES = ['public', 'signed-in', 'off'] as const;
export type ApiDocsMode = (typeof API_DOCS_MODES)[number];

/** Variables every service reads. A service extends this with its own. */
export const baseConfigShape = {
  /** The address the service listens on. */
  HOST: z.string().default('127.0.0.1'),
  /** The service's pino log level. */
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * PostgreSQL; each service uses its own schema. Unset, `pnpm start` serves one embedded PostgreSQL (files under
   * DATA_DIR/postgresql; PGlite under DATA_DIR/postgres with EMBEDDED_DB=pglite) to every service
   * (packages/embedded-postgres), and a service started alone opens its own PGlite under DATA_DIR/<service>.
   */
  DATABASE_URL: z.url().optional(),
  /** Connections in the service's PostgreSQL pool. */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  /**
   * The embedded database's files and generated secrets (DATA_DIR/secrets); also the mailbox's and the outbox's mail.
   * @default the repository's `.data`
   */
  DATA_DIR: z.string().default(DEFAULT_DATA_DIR),
  /**
   * Signs creator and attempt tokens; the same on every service and replica. Unset, generated once under
   * DATA_DIR/secrets. Set it in production: with NODE_ENV=production or REQUIRE_EXPLICIT_SECRETS=true a service
   * refuses to start without it, naming each secret missing. Changing it ends every creator session and invalidates
   * every resume code.
   */
  JWT_SECRET: z.string().min(32).optional(),
  /**
   * Authenticates service-to-service calls; the same on every service and replica. Unset, generated once under
   * DATA_DIR/secrets (refused in production, as JWT_SECRET).
   */
  INTERNAL_TOKEN: z.string().min(32).optional(),
  /**
   * Refuse to start with generated secrets (JWT_SECRET, INTERNAL_TOKEN, ENCRYPTION_KEY), naming each one missing;
   * implied by NODE_ENV=production (resolveServiceSecrets). The images and deployment artefacts set it.
   */
  REQUIRE_EXPLICIT_SECRETS: bool.default(false),
  /**
   * Read only to make production refuse generated secrets: a deployment that forgets
   * REQUIRE_EXPLICIT_SECRETS but says it is production must not sign tokens with a per-volume secret.
   */
  NODE_ENV: z.string().optional(),
  /**
   * Redis (`redis://` or `rediss://`) for state every replica must share and read fast: results-service keeps its
   * attempt-start limits and live-view presence there, and /ready then also pings it (Redis down only marks it
   * degraded). Unset, that state lives in the database (ARCHITECTURE.md, "Shared fast state").
   */
  REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
  /**
   * Apply the service's pending migrations before listening, under a PostgreSQL advisory lock (the default, so `pnpm
   * start` needs nothing else). Deployments set false and run `node src/migrate.ts` once first (a Job, a one-shot
   * compose service); a replica whose schema is then behind answers /ready with 503, naming the pending migrations.
   */
  MIGRATE_ON_START: bool.default(true),
  /**
   * The creator app's public origin (CORS and WebSocket checks, reset links). `pnpm start` sets it to its local web
   * server.
   */
  CREATOR_ORIGIN: z.url().default('http://localhost:5173'),
  /** The candidate app's public origin: exam links point to it. `pnpm start` sets it to its local web server. */
  TAKER_ORIGIN: z.url().default('http://localhost:5174'),
  /**
   * Where the other services reach exam-service. `pnpm start` sets each service URL from SERVICE_HOST and the
   * service ports.
   */
  EXAM_SERVICE_URL: z.url().default('http://127.0.0.1:4001'),
  /** Where the other services reach results-service. */
  RESULTS_SERVICE_URL: z.url().default('http://127.0.0.1:4002'),
  /** Where the other services reach llm-gateway. */
  LLM_GATEWAY_URL: z.url().default('http://127.0.0.1:4003'),
  /** Where the other services reach workspace-orchestrator. */
  WORKSPACE_ORCHESTRATOR_URL: z.url().default('http://127.0.0.1:4004'),
  /**
   * Comma-separated addresses or CIDRs (also `loopback`, `linklocal`, `uniquelocal`; `none` trusts no proxy) whose
   * X-Forwarded-For gives the client address (sign-in throttling, attempt-start limits, logs). The default is the
   * local web servers that proxy /api in `pnpm start`; production must list its ingress and proxies, so client
   * addresses cannot be forged.
   */
  TRUSTED_PROXIES: trustedProxiesSchema.prefault(DEFAULT_TRUSTED_PROXIES),
  /**
   * Who is served the service's OpenAPI document and its UI at /api/<service>/docs (both web origins proxy it):
   * `public` (anyone; the default, for `pnpm start` and development), `signed-in` (a creator's bearer token), or
   * `off` (no docs routes). Internal service-to-service routes are never in the document, whatever this says.
   */
  API_DOCS: z.enum(API_DOCS_MODES).default('public'),
  /**
   * When set, GET /metrics (Prometheus text format, per process) answers only a scrape that sends it as
   * `Authorization: Bearer <token>`; unset, anyone who reaches the service's port may scrape it (the web servers
   * never proxy it).
   */
  METRICS_TOKEN: z.string().min(16).optional(),
  /** How long the gauges counted in the database (queue depths, workspace sessions) are reused between scrapes. */
  METRICS_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(5000),
  /**
   * OpenTelemetry: traces are sent over OTLP/HTTP (JSON) to `<endpoint>/v1/traces`; unset, tracing is off
   * (src/tracing.ts). The SDK also reads the other `OTEL_*` variables (OTEL_EXPORTER_OTLP_HEADERS,
   * OTEL_TRACES_SAMPLER, OTEL_SERVICE_NAME…).
   */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional(),
  /**
   * Graceful shutdown (src/run.ts): after SIGTERM, how long /ready answers 503 while the replica still serves,
   * before the listener closes (5000 in Kubernetes). The web servers read it too.
   */
  SHUTDOWN_DELAY_MS: z.coerce.number().int().min(0).max(120_000).default(0),
  /**
   * Graceful shutdown: how long requests and streams in flight may run once the listener is closed; then open
   * streams end (45000 in Kubernetes). The web servers read it too.
   */
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
};

export const booleanFlag = bool;

export class ConfigError extends Error {}

/** Parses env with the schema and lists every bad variable at once. */
export function parseConfig<S extends z.ZodType>(schema: S, env: Record<string, string | undefined>): z.infer<S> {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return result.data;
}

/**
 * Returns the configured secret, or one generated once and kept in DATA_DIR/secrets/<name>.
 * The 'wx' flag makes concurrent first starts of several services agree on one value.
 */
export function resolveSecret(
  name: string,
  configured: string | undefined,
  opts: { dataDir: string; requireExplicit: boolean },
): string {
  if (configured) return configured;
  if (opts.requireExplicit) throw new ConfigError(`Invalid configuration:\n${missingSecretLine(name)}`);
  const file = join(opts.dataDir, 'secrets', name);
  mkdirSync(dirname(file), { recursive: true });
  try {
    writeFileSync(file, randomBytes(32).toString('base64url'), { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return readFileSync(file, 'utf8').trim();
}

const missingSecretLine = (name: string) =>
  `  ${name}: required when REQUIRE_EXPLICIT_SECRETS is true or NODE_ENV is production`;

type SecretVars = {
  DATA_DIR: string;
  REQUIRE_EXPLICIT_SECRETS: boolean;
  NODE_ENV?: string | undefined;
  JWT_SECRET?: string | undefined;
  INTERNAL_TOKEN?: string | undefined;
  ENCRYPTION_KEY?: string | undefined;
};

/**
 * The shared secrets of a service, each configured or generated once under DATA_DIR/secrets (the same
 * file for every service, so they agree). The encryption key is resolved only for services that ask.
 */
export function resolveServiceSecrets(
  parsed: SecretVars,
  opts: { encryptionKey: true },
): ServiceSecrets & { encryptionKey: Buffer };
export function resolveServiceSecrets(parsed: SecretVars, opts?: { encryptionKey?: false }): ServiceSecrets;
export function resolveServiceSecrets(parsed: SecretVars, opts: { encryptionKey?: boolean } = {}) {
  const requireExplicit = parsed.REQUIRE_EXPLICIT_SECRETS || parsed.NODE_ENV === 'production';
  if (requireExplicit) {
    // Every missing secret at once, like parseConfig, so one failed start names all that must be set.
    const names: ('JWT_SECRET' | 'INTERNAL_TOKEN' | 'ENCRYPTION_KEY')[] = ['JWT_SECRET', 'INTERNAL_TOKEN'];
    if (opts.encryptionKey) names.push('ENCRYPTION_KEY');
    const missing = names.filter((name) => !parsed[name]);
    if (missing.length) throw new ConfigError(`Invalid configuration:\n${missing.map(missingSecretLine).join('\n')}`);
  }
  const secretOpts = { dataDir: parsed.DATA_DIR, requireExplicit };
  const secrets: ServiceSecrets & { encryptionKey?: Buffer } = {
    jwtSecret: resolveSecret('JWT_SECRET', parsed.JWT_SECRET, secretOpts),
    internalToken: resolveSecret('INTERNAL_TOKEN', parsed.INTERNAL_TOKEN, secretOpts),
  };
  if (opts.encryptionKey) {
    secrets.encryptionKey = Buffer.from(
      resolveSecret('ENCRYPTION_KEY', parsed.ENCRYPTION_KEY, secretOpts),
      'base64url',
    );
  }
  return secrets;
}
export type ServiceSecrets = { jwtSecret: string; internalToken: string };
