import { PGlite } from '@electric-sql/pglite';
import { openDatabase, type Database } from './db.ts';

/**
 * Test databases. `TEST_DB_URL` (set by scripts/run-if-pg.ts to a fresh PostgreSQL database) selects
 * PostgreSQL; otherwise one in-memory PGlite per test process is shared by every test file, because a
 * PGlite instance costs seconds and about a gigabyte to start. Tests build their own data, so sharing is safe.
 */
let sharedPglite: Promise<PGlite> | undefined;
const opened = new Map<string, Promise<Database<Record<string, unknown>>>>();

export function testDatabaseKind(): 'postgres' | 'pglite' {
  return process.env.TEST_DB_URL ? 'postgres' : 'pglite';
}

export function openTestDatabase<S extends Record<string, unknown>>(opts: {
  schema: S;
  migrationsFolder: string;
  migrationsSchema: string;
}): Promise<Database<S>> {
  const key = opts.migrationsSchema;
  let db = opened.get(key);
  if (!db) {
    const url = process.env.TEST_DB_URL;
    if (url) {
      db = openDatabase({ ...opts, databaseUrl: url, poolSize: 5 });
    } else {
      sharedPglite ??= PGlite.create();
      db = sharedPglite.then((pglite) => openDatabase({ ...opts, pglite }));
    }
    opened.set(key, db as Promise<Database<Record<string, unknown>>>);
  }
  return db as Promise<Database<S>>;
}

export const TEST_SECRETS = {
  JWT_SECRET: 'test-jwt-secret-that-is-long-enough-0123456789',
  INTERNAL_TOKEN: 'test-internal-token-that-is-long-enough-0123456789',
} as const;

/**
 * Creator sessions for a service's own tests, where exam-service does not run: every session is open
 * until the test revokes it. The real check (creator-sessions.ts) is tested against exam-service itself.
 */
export function testCreatorSessions() {
  const revoked = new Set<string>();
  const check = async (claims: { sid: string }) => !revoked.has(claims.sid);
  return Object.assign(check, { revoke: (sid: string) => void revoked.add(sid) });
}

/** The claims of a creator token for tests: a session id is required by every creator guard. */
export const TEST_CREATOR_SESSION = 'test-session';
