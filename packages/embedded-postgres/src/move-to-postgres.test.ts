import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { moveToPostgres } from './move-to-postgres.ts';
import { withNative } from './native.ts';

const work = mkdtempSync(join(tmpdir(), 'embedded-move-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('moving a PGlite data folder to the embedded PostgreSQL', () => {
  it('carries every schema, row and sequence over, and keeps the PGlite folder aside', async () => {
    const dataDir = join(work, 'data');
    mkdirSync(dataDir);
    const pglite = await PGlite.create(join(dataDir, 'postgres'));
    await pglite.exec(`
      create schema exam_service; create schema drizzle;
      create table drizzle.__exam_service_migrations (id serial primary key, hash text not null, created_at bigint);
      insert into drizzle.__exam_service_migrations (hash, created_at) values ('a1', 1), ('b2', 2);
      create table exam_service.files (id serial primary key, name text not null, body bytea, meta jsonb);
      insert into exam_service.files (name, body, meta) values
        ('it''s', '\\x00ff10'::bytea, '{"k": [1, 2]}'), ('two', null, null);`);
    await pglite.close();

    const moved = await moveToPostgres(dataDir);
    expect(moved).toMatchObject({ tables: 2, rows: 4 });
    expect(existsSync(join(dataDir, 'postgres'))).toBe(false);
    expect(readdirSync(dataDir).some((f) => f.startsWith('postgres.pglite-'))).toBe(true);

    await withNative(join(dataDir, 'postgresql'), async (url) => {
      const sql = postgres(url, { max: 1, onnotice: () => {} });
      try {
        expect(await sql`select id, name, body, meta from exam_service.files order by id`).toEqual([
          { id: 1, name: "it's", body: Buffer.from([0, 255, 16]), meta: { k: [1, 2] } },
          { id: 2, name: 'two', body: null, meta: null },
        ]);
        // The sequence carried on: a new row does not collide with the moved ones.
        expect(await sql`insert into exam_service.files (name) values ('three') returning id`).toEqual([{ id: 3 }]);
        expect(await sql`select hash from drizzle.__exam_service_migrations order by id`).toEqual([
          { hash: 'a1' },
          { hash: 'b2' },
        ]);
      } finally {
        await sql.end();
      }
    });

    // Done once: there is no PGlite database left to move, and nothing is overwritten.
    await expect(moveToPostgres(dataDir)).rejects.toThrow(/No PGlite database/);
  }, 120_000);
});
