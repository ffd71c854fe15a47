import { openTestDatabase, TEST_SECRETS } from '@exam/server-kit/testing';
import { buildApp } from './app.ts';
import { loadConfig, type Config } from './config.ts';
import { MIGRATIONS_FOLDER, MIGRATIONS_SCHEMA } from './db/database.ts';
import * as schema from './db/schema.ts';
import { systemClock, uuidIds, type Deps } from './deps.ts';

export const TEST_ENCRYPTION_KEY = Buffer.alloc(32, 7).toString('base64url');

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({ ...TEST_SECRETS, ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, LOG_LEVEL: 'silent', SCRYPT_COST: '1024', DATA_DIR: '/nonexistent', ...overrides });
}

/** An app on the shared test database (PGlite, or PostgreSQL under test:pg). */
export async function buildTestApp(opts: { env?: Record<string, string>; deps?: Partial<Deps> } = {}) {
  const database = await openTestDatabase({ schema, migrationsFolder: MIGRATIONS_FOLDER, migrationsSchema: MIGRATIONS_SCHEMA });
  const app = await buildApp(testConfig(opts.env), { database, clock: systemClock, ids: uuidIds, ...opts.deps });
  await app.ready();
  return app;
}

let counter = 0;
/** A fresh creator account and its bearer header. */
export async function createCreator(app: Awaited<ReturnType<typeof buildTestApp>>) {
  const email = `creator-${Date.now()}-${++counter}-${Math.floor(performance.now())}@example.test`;
  const response = await app.inject({ method: 'POST', url: '/api/auth/register', payload: { email, password: 'secret123' } });
  const body = response.json() as { token: string; user: { id: string; email: string } };
  return { ...body, email, headers: { authorization: `Bearer ${body.token}` } };
}
