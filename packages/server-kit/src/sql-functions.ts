import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { Db } from './db.ts';

/**
 * One home per SQL function (see each service's src/db/functions.test.ts): a service's `src/db/functions/<name>.sql` holds
 * the current `CREATE OR REPLACE FUNCTION` of `<name>`, a migration applies it, and the service's tests check that
 * the database's function is the file's. History stays in the migrations, the truth in one file.
 */
export type SqlFunctionFile = { name: string; text: string };

/** The `<name>.sql` files of a functions folder, by name. */
export function readSqlFunctionFiles(dir: string): SqlFunctionFile[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.sql'))
    .sort()
    .map((file) => ({ name: basename(file, '.sql'), text: readFileSync(join(dir, file), 'utf8') }));
}

/** Whitespace does not make two definitions differ: runs of it count as one space. */
export function normaliseSql(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

type Definitions = Map<string, string>;

/** Every function of the schema: `name(identity arguments)` → its pg_get_functiondef, normalised. */
async function definitionsOf(db: Db, schema: string): Promise<Definitions> {
  const result = (await db.execute(sql`
    select p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')' as signature,
           pg_get_functiondef(p.oid) as definition
    from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname = ${schema} and p.prokind = 'f'`)) as unknown;
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as {
    signature: string;
    definition: string;
  }[];
  return new Map(rows.map((row) => [row.signature, normaliseSql(row.definition)]));
}

const nameOf = (signature: string) => signature.slice(0, signature.indexOf('('));

class Rollback extends Error {}

/** What applying `text` would change in the schema's functions, found inside a transaction that is rolled back. */
async function definitionsAfter(db: Db, schema: string, text: string): Promise<Definitions | Error> {
  let after: Definitions | undefined;
  try {
    await db.transaction(async (tx) => {
      await tx.execute(sql.raw(text));
      after = await definitionsOf(tx as unknown as Db, schema);
      throw new Rollback();
    });
  } catch (error) {
    if (!(error instanceof Rollback)) return error as Error;
  }
  return after!;
}

/** The first line at which two definitions differ, for a message a reader can act on. */
function firstDifference(database: string, file: string): string {
  const words = database.split(' ');
  const other = file.split(' ');
  let i = 0;
  while (i < words.length && words[i] === other[i]) i += 1;
  const context = (list: string[]) => list.slice(Math.max(0, i - 6), i + 10).join(' ');
  return `database: …${context(words)}…\n      file: …${context(other)}…`;
}

/**
 * The differences between the functions of `schema` in the database and their files, one message each; empty
 * when every function has a file and applying each file would change nothing. A file is applied in a rolled-back
 * transaction and the schema's functions compared before and after (pg_get_functiondef, whitespace normalised), so
 * the signature, return type, language and volatility count as well as the body.
 */
export async function sqlFunctionDifferences(db: Db, schema: string, files: SqlFunctionFile[]): Promise<string[]> {
  const problems: string[] = [];
  const before = await definitionsOf(db, schema);
  const homed = new Set(files.map((file) => file.name));
  for (const signature of before.keys()) {
    if (!homed.has(nameOf(signature))) {
      problems.push(`${schema}.${signature} has no file src/db/functions/${nameOf(signature)}.sql`);
    }
  }
  for (const file of files) {
    const declares = new RegExp(`FUNCTION\\s+"?${schema}"?\\."?${file.name}"?\\s*\\(`, 'i');
    if (!declares.test(file.text)) {
      problems.push(`${file.name}.sql does not create the function ${schema}.${file.name}`);
      continue;
    }
    const after = await definitionsAfter(db, schema, file.text);
    if (after instanceof Error) {
      problems.push(`${file.name}.sql cannot replace the database's ${schema}.${file.name}: ${after.message}`);
      continue;
    }
    for (const [signature, definition] of after) {
      const current = before.get(signature);
      if (current === undefined) {
        problems.push(`${file.name}.sql creates ${schema}.${signature}, which the migrations did not`);
      } else if (current !== definition) {
        problems.push(
          `${schema}.${signature} in the database differs from ${file.name}.sql; add a migration that applies the file\n` +
            `      ${firstDifference(current, definition)}`,
        );
      }
    }
  }
  return problems;
}
