// Moves a data folder's PGlite database (DATA_DIR/postgres, the embedded default before PostgreSQL) into the
// embedded PostgreSQL (DATA_DIR/postgresql), so `pnpm start` runs on PostgreSQL with the same data:
//
//   pnpm stop first (Ctrl-C), then: node packages/embedded-postgres/src/move-to-postgres.ts [--data-dir DIR]
//
// PGlite's own pg_dump (@electric-sql/pglite-tools, pg_dump compiled to WebAssembly) writes the database as SQL;
// a new PostgreSQL cluster is created and loads it in one transaction; every table's row count is compared between
// the two. Only then is the PGlite folder renamed to postgres.pglite-<time> (kept, never deleted: remove it once
// satisfied). Any failure leaves the PGlite folder as it was and removes the half-made cluster.
import { existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { pgDump } from '@electric-sql/pglite-tools/pg_dump';
import postgres from 'postgres';
import { ENGINE_FOLDERS } from './engine.ts';
import { withNative } from './native.ts';

type Counts = Record<string, number>;
const TABLES = `select table_schema || '.' || table_name as name from information_schema.tables
  where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema') order by 1`;
const quoted = (name: string) =>
  name
    .split('.')
    .map((part) => `"${part.replace(/"/g, '""')}"`)
    .join('.');

/** Whether a database server still runs on the folder (the pid file start.ts or server.ts leaves). */
function running(dataDir: string): number | undefined {
  const file = join(dataDir, 'embedded-postgres.pid');
  if (!existsSync(file)) return undefined;
  const pid = Number(readFileSync(file, 'utf8').trim());
  try {
    process.kill(pid, 0);
    return pid;
  } catch {
    return undefined;
  }
}

export async function moveToPostgres(dataDir: string): Promise<{ tables: number; rows: number; keptAt: string }> {
  const from = join(dataDir, ENGINE_FOLDERS.pglite);
  const to = join(dataDir, ENGINE_FOLDERS.postgres);
  if (!existsSync(join(from, 'PG_VERSION'))) throw new Error(`No PGlite database in ${from}`);
  if (existsSync(join(to, 'PG_VERSION')))
    throw new Error(`${to} already holds a PostgreSQL cluster: move it away first if it is not needed`);
  const pid = running(dataDir);
  if (pid)
    throw new Error(`The platform's embedded database runs on ${dataDir} (pid ${pid}): stop \`pnpm start\` first`);

  const pglite = await PGlite.create(from);
  let dump: string;
  const counts: Counts = {};
  try {
    for (const { name } of (await pglite.query<{ name: string }>(TABLES)).rows)
      counts[name] = Number(
        (await pglite.query<{ n: number }>(`select count(*)::int as n from ${quoted(name)}`)).rows[0]!.n,
      );
    // Plain SQL with INSERTs (COPY … FROM stdin needs psql); no owners or grants: one superuser owns it all.
    const file = await pgDump({
      pg: pglite,
      args: ['--inserts', '--no-owner', '--no-privileges', '--quote-all-identifiers'],
    });
    dump = await file.text();
  } finally {
    await pglite.close();
  }
  // psql's meta-commands (\restrict, \connect) are not SQL; nothing else in a plain dump needs psql.
  const script = dump
    .split('\n')
    .filter((line) => !line.startsWith('\\'))
    .join('\n');

  try {
    await withNative(to, async (url) => {
      const sql = postgres(url, { max: 1, onnotice: () => {} });
      try {
        await sql.begin((tx) => tx.unsafe(script));
        const moved: Counts = {};
        for (const { name } of await sql.unsafe<{ name: string }[]>(TABLES))
          moved[name] = (await sql.unsafe<{ n: number }[]>(`select count(*)::int as n from ${quoted(name)}`))[0]!.n;
        const differ = Object.keys({ ...counts, ...moved }).filter((t) => counts[t] !== moved[t]);
        if (differ.length)
          throw new Error(
            `Row counts differ after loading: ${differ.map((t) => `${t} ${counts[t]} → ${moved[t]}`).join(', ')}`,
          );
      } finally {
        await sql.end({ timeout: 5 });
      }
    });
  } catch (err) {
    rmSync(to, { recursive: true, force: true });
    throw err;
  }
  const keptAt = `${from}.pglite-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  renameSync(from, keptAt);
  return { tables: Object.keys(counts).length, rows: Object.values(counts).reduce((a, b) => a + b, 0), keptAt };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { 'data-dir': { type: 'string' } } });
  const dataDir = resolve(
    values['data-dir'] ?? process.env.DATA_DIR ?? join(import.meta.dirname, '..', '..', '..', '.data'),
  );
  moveToPostgres(dataDir).then(
    ({ tables, rows, keptAt }) => {
      console.log(`Moved ${tables} tables (${rows} rows) from PGlite into the embedded PostgreSQL in ${dataDir}.`);
      console.log(`The PGlite folder is kept as ${keptAt}: remove it once the platform runs as expected.`);
    },
    (err: unknown) => {
      console.error((err as Error).message);
      process.exit(1);
    },
  );
}
