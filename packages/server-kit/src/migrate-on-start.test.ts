import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBaseApp } from './base-app.ts';
import { openDatabase, schemaCheck } from './db.ts';
import { runMigrateEntry } from './migrate-entry.ts';

const twoMigrations = fileURLToPath(new URL('./testing/two-migrations', import.meta.url));

/** The fixture as a service's folder looked before its second migration was committed. */
function firstMigrationOnly(): string {
  const dir = mkdtempSync(join(tmpdir(), 'one-migration-'));
  cpSync(join(twoMigrations, '0000_first.sql'), join(dir, '0000_first.sql'));
  cpSync(join(twoMigrations, 'meta'), join(dir, 'meta'), { recursive: true });
  writeFileSync(
    join(dir, 'meta', '_journal.json'),
    JSON.stringify({
      version: '7',
      dialect: 'postgresql',
      entries: [{ idx: 0, version: '7', when: 1790000000000, tag: '0000_first', breakpoints: true }],
    }),
  );
  return dir;
}

const fixture = { schema: {}, migrationsSchema: 'ready_fixture' };

// PGlite takes seconds to start, more on a busy machine.
describe('MIGRATE_ON_START=false', { timeout: 60_000 }, () => {
  let pglite: PGlite;
  beforeAll(async () => {
    pglite = await PGlite.create();
    // The schema as the previous release left it.
    const old = await openDatabase({ ...fixture, pglite, migrationsFolder: firstMigrationOnly() });
    await old.close();
  }, 60_000);
  afterAll(() => pglite.close());

  const openCurrent = () => openDatabase({ ...fixture, pglite, migrationsFolder: twoMigrations, migrate: false });

  async function readyOf(database: Awaited<ReturnType<typeof openCurrent>>) {
    const app = await createBaseApp({
      service: 'fixture-service',
      logLevel: 'silent',
      jwtSecret: 'j'.repeat(40),
      internalToken: 'i'.repeat(40),
      creatorSessions: async () => true,
      checks: { database: () => database.ping(), migrations: schemaCheck(database) },
    });
    const response = await app.inject({ method: 'GET', url: '/ready' });
    await app.close();
    return response;
  }

  it('applies nothing and answers /ready with 503 naming the pending migration', async () => {
    const database = await openCurrent();
    expect(await database.pendingMigrations()).toEqual(['0001_second']);
    const response = await readyOf(database);
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({
      status: 'unavailable',
      service: 'fixture-service',
      failing: ['migrations'],
      reasons: { migrations: 'pending migrations: 0001_second' },
    });
    // Still behind: opening without migrating changed nothing.
    expect(await database.pendingMigrations()).toEqual(['0001_second']);
  });

  it('is ready once the migrate entry has run, which reports what it applied and exits 0', async () => {
    const lines: string[] = [];
    const code = await runMigrateEntry(
      'fixture-service',
      { DATA_DIR: '/nonexistent' },
      (opts) => openDatabase({ ...fixture, pglite, migrationsFolder: twoMigrations, migrate: opts.migrate }),
      { out: (line) => lines.push(line), err: (line) => lines.push(line) },
    );
    expect(code).toBe(0);
    expect(lines).toEqual([
      'fixture-service: applied 1 migration(s) on PGlite in /nonexistent/fixture-service: 0001_second',
    ]);
    const database = await openCurrent();
    expect(await database.pendingMigrations()).toEqual([]);
    const response = await readyOf(database);
    expect(response.statusCode).toBe(200);
    // A second run finds nothing to do.
    const again: string[] = [];
    expect(
      await runMigrateEntry(
        'fixture-service',
        {},
        (opts) => openDatabase({ ...fixture, pglite, migrationsFolder: twoMigrations, migrate: opts.migrate }),
        { out: (line) => again.push(line), err: (line) => again.push(line) },
      ),
    ).toBe(0);
    expect(again[0]).toMatch(/^fixture-service: schema already current on PGlite in /);
  });

  it('lists every migration of a database that has none', async () => {
    const empty = await PGlite.create();
    const database = await openDatabase({ ...fixture, pglite: empty, migrationsFolder: twoMigrations, migrate: false });
    expect(await database.pendingMigrations()).toEqual(['0000_first', '0001_second']);
    await empty.close();
  });
});

describe('runMigrateEntry', () => {
  it('exits 1 with the reason when the database cannot be reached', async () => {
    const errors: string[] = [];
    const code = await runMigrateEntry(
      'fixture-service',
      // Port 1 on loopback: nothing listens, the connection is refused at once.
      { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' },
      (opts) => openDatabase({ ...fixture, ...opts, migrationsFolder: twoMigrations }),
      { out: () => {}, err: (line) => errors.push(line) },
    );
    expect(code).toBe(1);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^fixture-service: migrations failed: .*ECONNREFUSED/);
  });

  it('exits 1 naming a bad DATABASE_URL', async () => {
    const errors: string[] = [];
    const code = await runMigrateEntry(
      'fixture-service',
      { DATABASE_URL: 'not a url' },
      () => Promise.reject(new Error('never opened')),
      { out: () => {}, err: (line) => errors.push(line) },
    );
    expect(code).toBe(1);
    expect(errors[0]).toMatch(/DATABASE_URL/);
  });
});
