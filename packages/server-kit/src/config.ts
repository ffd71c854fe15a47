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
  HOST: z.string().default('127.0.0.1'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** PostgreSQL; when unset the service keeps its data in PGlite under DATA_DIR/<service>. */
  DATABASE_URL: z.url().optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  DATA_DIR: z.string().default(DEFAULT_DATA_DIR),
  /** Signs creator and attempt tokens; shared by all services. Generated under DATA_DIR when unset. */
  JWT_SECRET: z.string().min(32).optional(),
  /** Authenticates service-to-service calls. Generated under DATA_DIR when unset. */
  INTERNAL_TOKEN: z.string().min(32).optional(),
  /** Refuse to start with generated secrets; implied by NODE_ENV=production (see resolveServiceSecrets). */
  REQUIRE_EXPLICIT_SECRETS: bool.default(false),
  /**
   * Read only to make production refuse generated secrets: a deployment that forgets
   * REQUIRE_EXPLICIT_SECRETS but says it is production must not sign tokens with a per-volume secret.
   */
  NODE_ENV: z.string().optional(),
  /**
   * Redis for state every replica must share and read fast (attempt-start limits, live-view presence in
   * results-service). Unset, that state lives in the service's database (ARCHITECTURE.md, "Shared fast state").
   */
  REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
  /**
   * Apply the service's pending migrations before listening (the default, so `pnpm start` needs nothing
   * else). Deployments set false and run `src/migrate.ts` once first (a Job, a one-shot compose service);
   * a replica whose schema is then behind answers /ready with 503, naming the pending migrations.
   */
  MIGRATE_ON_START: bool.default(true),
  /** Allowed browser origins (comma separated) for CORS and WebSocket checks. */
  CREATOR_ORIGIN: z.url().default('http://localhost:5173'),
  TAKER_ORIGIN: z.url().default('http://localhost:5174'),
  EXAM_SERVICE_URL: z.url().default('http://127.0.0.1:4001'),
  RESULTS_SERVICE_URL: z.url().default('http://127.0.0.1:4002'),
  LLM_GATEWAY_URL: z.url().default('http://127.0.0.1:4003'),
  WORKSPACE_ORCHESTRATOR_URL: z.url().default('http://127.0.0.1:4004'),
  /**
   * Proxies whose X-Forwarded-For gives the client address (sign-in throttling, logs). The default is
   * the local web servers that proxy /api in `pnpm start`; list a load balancer's address or CIDR here.
   */
  TRUSTED_PROXIES: trustedProxiesSchema.prefault(DEFAULT_TRUSTED_PROXIES),
  /**
   * Who is served the service's OpenAPI document and its UI at /api/<service>/docs (both web origins proxy it):
   * `public` (anyone; the default, for `pnpm start` and development), `signed-in` (a creator's bearer token), or
   * `off` (no docs routes). Internal service-to-service routes are never in the document, whatever this says.
   */
  API_DOCS: z.enum(API_DOCS_MODES).default('public'),
  /** When set, GET /metrics answers only a scrape that sends it as `Authorization: Bearer <token>`. */
  METRICS_TOKEN: z.string().min(16).optional(),
  /** How long a database-backed gauge (queue depths, workspace counts) is reused between scrapes. */
  METRICS_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(5000),
  /** OpenTelemetry: traces are exported to this OTLP/HTTP endpoint; unset, tracing is off (src/tracing.ts). */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional(),
  /** Graceful shutdown (src/run.ts): how long /ready answers 503 before the listener closes. */
  SHUTDOWN_DELAY_MS: z.coerce.number().int().min(0).max(120_000).default(0),
  /** Graceful shutdown: how long requests and streams in flight may run once the listener is closed. */
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
