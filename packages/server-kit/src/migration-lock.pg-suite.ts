import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { afterAll, expect, it } from 'vitest';
import { openDatabase, type Database } from './db.ts';

// Run by `pnpm test:pg` only (vitest.pg.config.ts): replicas share one PostgreSQL server, PGlite never is shared.
const url = process.env.TEST_DB_URL;
if (!url) throw new Error('migration-lock.pg-suite.ts needs TEST_DB_URL (run it through pnpm test:pg)');
const migrationsFolder = fileURLToPath(new URL('./testing/two-migrations', import.meta.url));
const opened: Database<Record<string, never>>[] = [];
afterAll(async () => {
  await Promise.all(opened.map((d) => d.close()));
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  await sql`drop schema if exists lock_fixture cascade`;
  await sql`drop table if exists drizzle.__lock_fixture_migrations`;
  await sql.end();
});

it('lets replicas that start together migrate one at a time, each migration applied once', async () => {
  const replicas = await Promise.all(
    Array.from({ length: 4 }, () =>
      openDatabase({ databaseUrl: url, schema: {}, migrationsFolder, migrationsSchema: 'lock_fixture', poolSize: 2 }),
    ),
  );
  opened.push(...replicas);
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const applied = await sql`select hash from drizzle.__lock_fixture_migrations`;
  const columns = await sql`
    select column_name from information_schema.columns where table_schema = 'lock_fixture' and table_name = 'things'`;
  const locks = await sql`select count(*)::int as n from pg_locks where locktype = 'advisory'`;
  await sql.end();
  expect(applied).toHaveLength(2);
  expect(columns.map((c) => c.column_name as string).sort()).toEqual(['id', 'name']);
  // Every replica's lock session has ended.
  expect(locks[0]!.n).toBe(0);
  expect(await replicas[0]!.pendingMigrations()).toEqual([]);
});

it('reports every migration as pending, and applies none, for a journal the database does not have', async () => {
  const behind = await openDatabase({
    databaseUrl: url,
    schema: {},
    migrationsFolder,
    migrationsSchema: 'never_migrated_fixture',
    poolSize: 1,
    migrate: false,
  });
  opened.push(behind);
  expect(await behind.pendingMigrations()).toEqual(['0000_first', '0001_second']);
});

it("makes every service's migrations wait for any other's, since all journals share the drizzle schema", async () => {
  // Another service (any journal) migrating: it holds the one migration lock.
  const other = postgres(url, { max: 1, onnotice: () => {} });
  await other`select pg_advisory_lock(hashtext('exam.migrations'))`;
  let settled = false;
  const opening = openDatabase({
    databaseUrl: url,
    schema: {},
    migrationsFolder,
    migrationsSchema: 'lock_fixture',
    poolSize: 1,
  }).then((d) => {
    settled = true;
    opened.push(d);
    return d;
  });
  await new Promise((resolve) => setTimeout(resolve, 750));
  expect(settled).toBe(false);
  await other.end();
  const database = await opening;
  expect(await database.pendingMigrations()).toEqual([]);
});
