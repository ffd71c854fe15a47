import { baseConfigShape, booleanFlag, parseConfig, resolveSecret } from '@exam/server-kit/config';
import { join } from 'node:path';
import { z } from 'zod';

const ConfigSchema = z.object({
  ...baseConfigShape,
  PORT: z.coerce.number().int().min(0).max(65535).default(4001),
  /** AES-256-GCM key (32 bytes, base64) for creators' provider API keys. Generated under DATA_DIR when unset. */
  ENCRYPTION_KEY: z.string().optional(),
  CREATOR_TOKEN_TTL: z.string().default('12h'),
  MATERIAL_MAX_BYTES: z.coerce.number().int().min(1024).default(20 * 1024 * 1024),
  /** Failed sign-ins allowed per address in the window before the address is throttled. */
  LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).default(10),
  LOGIN_WINDOW_SECONDS: z.coerce.number().int().min(1).default(15 * 60),
  SCRYPT_COST: z.coerce.number().int().min(1024).default(16384),
  TRUST_PROXY: booleanFlag.default(true),
});

export type Config = z.infer<typeof ConfigSchema> & {
  jwtSecret: string;
  internalToken: string;
  encryptionKey: Buffer;
  pgliteDir: string;
};

export function loadConfig(env: Record<string, string | undefined>): Config {
  const parsed = parseConfig(ConfigSchema, env);
  const secretOpts = { dataDir: parsed.DATA_DIR, requireExplicit: parsed.REQUIRE_EXPLICIT_SECRETS };
  const encryptionKey = Buffer.from(resolveSecret('ENCRYPTION_KEY', parsed.ENCRYPTION_KEY, secretOpts), 'base64url');
  return {
    ...parsed,
    jwtSecret: resolveSecret('JWT_SECRET', parsed.JWT_SECRET, secretOpts),
    internalToken: resolveSecret('INTERNAL_TOKEN', parsed.INTERNAL_TOKEN, secretOpts),
    encryptionKey,
    pgliteDir: join(parsed.DATA_DIR, 'exam-service'),
  };
}
