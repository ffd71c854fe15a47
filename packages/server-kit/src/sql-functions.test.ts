import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from './db.ts';
import { sqlFunctionDifferences, type SqlFunctionFile } from './sql-functions.ts';

const ADD_ONE = `CREATE OR REPLACE FUNCTION "fn_fixture"."add_one"(value integer) RETURNS integer
LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  RETURN value + 1;
END
$$;`;

let pglite: PGlite;
let db: Db;

beforeAll(async () => {
  pglite = await PGlite.create();
  await pglite.exec(`CREATE SCHEMA "fn_fixture"; ${ADD_ONE}`);
  db = drizzle(pglite) as unknown as Db;
  // A PGlite instance takes seconds to start, more on a loaded machine.
}, 60_000);

afterAll(async () => {
  await pglite.close();
});

const check = (files: SqlFunctionFile[]) => sqlFunctionDifferences(db, 'fn_fixture', files);

describe('sqlFunctionDifferences', { timeout: 30_000 }, () => {
  it('finds nothing when the database holds the file text, whatever the whitespace', async () => {
    expect(await check([{ name: 'add_one', text: ADD_ONE }])).toEqual([]);
    expect(await check([{ name: 'add_one', text: ADD_ONE.replace('value + 1', 'value   +\n 1') }])).toEqual([]);
  });

  it('names the function whose body in the file differs from the database, and leaves the database as it was', async () => {
    const problems = await check([{ name: 'add_one', text: ADD_ONE.replace('value + 1', 'value + 2') }]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('fn_fixture.add_one(value integer) in the database differs from add_one.sql');
    expect(problems[0]).toContain('value + 2');
    const [row] = (await pglite.query<{ two: number }>('select "fn_fixture"."add_one"(1) as two')).rows;
    expect(row?.two).toBe(2);
  });

  it('counts the volatility, not only the body', async () => {
    const problems = await check([{ name: 'add_one', text: ADD_ONE.replace('IMMUTABLE', 'VOLATILE') }]);
    expect(problems).toEqual([expect.stringContaining('differs from add_one.sql')]);
  });

  it('reports a file whose signature the migrations never created', async () => {
    const problems = await check([{ name: 'add_one', text: ADD_ONE.replace('value integer', 'value bigint') }]);
    expect(problems).toContain('add_one.sql creates fn_fixture.add_one(value bigint), which the migrations did not');
  });

  it('reports a file whose return type cannot replace the database function', async () => {
    const problems = await check([{ name: 'add_one', text: ADD_ONE.replace('RETURNS integer', 'RETURNS bigint') }]);
    expect(problems).toEqual([expect.stringContaining('add_one.sql cannot replace the database')]);
  });

  it('reports a database function without a file and a file that creates another function', async () => {
    expect(await check([])).toEqual(['fn_fixture.add_one(value integer) has no file src/db/functions/add_one.sql']);
    const problems = await check([{ name: 'add_two', text: ADD_ONE }]);
    expect(problems).toContain('add_two.sql does not create the function fn_fixture.add_two');
  });
});
