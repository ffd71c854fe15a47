import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../testing/app.ts';
import { createFreshDatabase } from '../testing/fresh-database.ts';
import { MIGRATIONS_FOLDER } from './database.ts';

const serviceDir = fileURLToPath(new URL('../..', import.meta.url));
const tags = (
  JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as { entries: { tag: string }[] }
).entries.map((e) => e.tag);
const latest = tags.at(-1)!;
const previous = tags.at(-2)!;

/** A deployment with MIGRATE_ON_START=false: the migrate Job runs src/migrate.ts, then the replicas start. */
describe('MIGRATE_ON_START=false with src/migrate.ts', () => {
  const fresh = createFreshDatabase();
  afterAll(async () => (await fresh).drop());

  async function readyOnSchema() {
    const database = await (await fresh).open(undefined, { migrate: false });
    const app = await buildTestApp({ deps: { database } });
    const response = await app.inject({ method: 'GET', url: '/ready' });
    await app.close();
    await database.close();
    return response;
  }

  const migrate = async () =>
    spawnSync(process.execPath, ['src/migrate.ts'], {
      cwd: serviceDir,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, ...(await fresh).env },
    });

  it('does not serve while the schema is behind: /ready answers 503 naming the pending migration', async () => {
    const db = await fresh;
    await (await db.open(previous)).close();
    const response = await readyOnSchema();
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({
      failing: ['migrations'],
      reasons: { migrations: `pending migrations: ${latest}` },
    });
    // Migrates a fresh database to the migration before the latest: every one of them, slow on a busy machine.
  }, 120_000);

  it('is ready once src/migrate.ts has applied it and exited 0; a second run has nothing to do', async () => {
    const first = await migrate();
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(new RegExp(`^results-service: applied 1 migration\\(s\\) on .*: ${latest}\\n$`));
    expect((await readyOnSchema()).statusCode).toBe(200);
    const second = await migrate();
    expect(second.status).toBe(0);
    expect(second.stdout).toMatch(/^results-service: schema already current on /);
    // Two Node processes that load the service and its database driver: slow on a busy machine.
  }, 120_000);

  it('exits 1 with the reason when the database cannot be reached', { timeout: 60_000 }, () => {
    const failed = spawnSync(process.execPath, ['src/migrate.ts'], {
      cwd: serviceDir,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' },
    });
    expect(failed.status).toBe(1);
    expect(failed.stderr).toMatch(/^results-service: migrations failed: .*ECONNREFUSED/);
  });
});
