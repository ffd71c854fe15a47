import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveOverWire, type WireServer } from './wire.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('one PGlite served over the wire protocol', () => {
  let dir: string;
  let db: PGlite;
  let server: WireServer;
  let url: string;
  const pools: postgres.Sql[] = [];
  const pool = (max: number) => {
    const sql = postgres(url, { max, onnotice: () => {} });
    pools.push(sql);
    return sql;
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'embedded-postgres-'));
    db = await PGlite.create(join(dir, 'postgres'));
    server = await serveOverWire(db, { port: 0, log: () => {} });
    url = `postgres://postgres@127.0.0.1:${server.port}/postgres`;
    await db.exec(`create schema a; create table a.items (id int primary key, owner text not null);`);
  });
  afterAll(async () => {
    await Promise.all(pools.map((sql) => sql.end({ timeout: 1 })));
    await server.close();
    await db.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('answers each of many concurrent parameterised queries from several pools with its own result', async () => {
    const [one, two] = [pool(5), pool(5)];
    // Prepared (named) and unprepared statements, pipelined on every connection of both pools at once.
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_v, i) =>
        (i % 2 ? one : two)
          .unsafe('select $1::int * 2 as doubled, $2::text as tag', [i, `t${i}`], { prepare: i % 3 !== 0 })
          .then((rows) => rows[0]),
      ),
    );
    expect(answers.map((r) => r?.doubled)).toEqual(Array.from({ length: 200 }, (_v, i) => i * 2));
    expect(answers.map((r) => r?.tag)).toEqual(Array.from({ length: 200 }, (_v, i) => `t${i}`));
  });

  it("keeps another connection's statements out of an open transaction: they wait for it to end", async () => {
    const [writer, reader] = [pool(2), pool(2)];
    const rolledBack = writer
      .begin(async (tx) => {
        await tx`insert into a.items values (1, 'writer')`;
        await sleep(150);
        throw new Error('changed my mind');
      })
      .catch((err: Error) => err.message);
    await sleep(30);
    // Run inside the writer's transaction, this would see its row; run after the rollback, it sees none.
    const [seen] = await reader`select count(*)::int as n from a.items`;
    expect(await rolledBack).toBe('changed my mind');
    expect(seen?.n).toBe(0);

    await writer.begin(async (tx) => {
      await tx`insert into a.items values (2, 'writer')`;
      await sleep(50);
    });
    const [after] = await reader`select count(*)::int as n from a.items`;
    expect(after?.n).toBe(1);
  });

  it('rolls back the transaction of a connection that goes away in the middle of it, and serves the others on', async () => {
    const leaving = postgres(url, { max: 1, onnotice: () => {} });
    await leaving`begin`;
    await leaving`insert into a.items values (3, 'left')`;
    const [mine] =
      await leaving`select count(*)::int as n from pg_prepared_statements where statement like ${'%values (3,%'}`;
    expect(mine?.n).toBe(1);
    await leaving.end({ timeout: 0 });

    const other = pool(1);
    const rows = await other`select id from a.items where id = 3`;
    expect(rows).toHaveLength(0);
    // The named statements postgres.js prepared on that connection went with it.
    const statements = await other`select statement from pg_prepared_statements`;
    expect(statements.map((s) => s.statement as string).filter((s) => s.includes('values (3,'))).toEqual([]);
  });

  it('reports an error in one exchange to its client only, and the session goes on', async () => {
    const [one, two] = [pool(1), pool(1)];
    const [failed, fine] = await Promise.all([
      one`select * from a.missing`.then(
        () => 'no error',
        (err: Error) => err.message,
      ),
      two`select 1 as one`,
    ]);
    expect(failed).toMatch(/does not exist/);
    expect(fine[0]?.one).toBe(1);
    expect((await one`select 2 as two`)[0]?.two).toBe(2);
  });

  it('keeps what was written once the database is closed and opened again', async () => {
    const sql = pool(1);
    await sql`insert into a.items values (10, 'durable')`;
    await Promise.all(pools.splice(0).map((s) => s.end({ timeout: 1 })));
    await server.close();
    await db.close();

    db = await PGlite.create(join(dir, 'postgres'));
    server = await serveOverWire(db, { port: 0, log: () => {} });
    url = `postgres://postgres@127.0.0.1:${server.port}/postgres`;
    const rows = await pool(1)`select owner from a.items where id = 10`;
    expect(rows[0]?.owner).toBe('durable');
  });
});
