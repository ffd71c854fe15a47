import { sql } from 'drizzle-orm';
import { getTableConfig, type PgColumn, type PgTable } from 'drizzle-orm/pg-core';
import { candidateRows, type CandidateIds, type CandidateTables } from '../candidate-data.ts';
import type { Db } from '../db.ts';

/**
 * Test helpers for a service's privacy test: one row of a candidate in every table the service declares as holding
 * candidates' data, built from the drizzle schema (required columns get a plain value of their type), and the count
 * of the candidate's rows per table, so the test proves none is left after an erasure whatever tables exist.
 */
let counter = 0;

function plainValue(column: PgColumn, tableName: string): unknown {
  const enumValues = (column as { enumValues?: string[] }).enumValues;
  if (enumValues && enumValues.length > 0) return enumValues[0];
  const type = column.getSQLType();
  if (type.endsWith('[]')) return type.startsWith('integer') ? [0, 0, 0, 0, 0] : [];
  if (type === 'text' || type.startsWith('varchar')) return `${tableName}-${column.name}-${++counter}`;
  if (type === 'boolean') return false;
  if (type.startsWith('timestamp')) return new Date();
  if (type === 'jsonb' || type === 'json') return {};
  if (type === 'bytea') return Buffer.from(`bytes of ${tableName}`);
  return 1;
}

/** Inserts one row of the candidate in every linked table (parents first), with `overrides` per table. */
export async function seedCandidateRows(
  db: Db,
  tables: Map<string, PgTable>,
  declared: CandidateTables,
  ids: CandidateIds & { resultIds: readonly string[] },
  overrides: Record<string, Record<string, unknown>> = {},
): Promise<void> {
  for (const [name, link] of Object.entries(declared).reverse()) {
    if (link.by === 'none') continue;
    const table = tables.get(name);
    if (!table) throw new Error(`declared table ${name} is not in the schema`);
    const row: Record<string, unknown> = {};
    for (const column of getTableConfig(table).columns) {
      if (column.notNull && !column.hasDefault && !column.generatedIdentity)
        row[column.name] = plainValue(column, name);
    }
    switch (link.by) {
      case 'attempt':
        row[link.column] = ids.attemptIds[0];
        break;
      case 'result':
        row[link.column] = ids.resultIds[0];
        break;
      case 'candidate':
        row[link.examColumn] = ids.examId;
        row[link.keyColumn] = ids.candidateKey;
        break;
      case 'result-list':
        row[link.column] = ['another-result', ids.resultIds[0]];
        break;
      case 'subject':
        row[link.examColumn] = ids.examId;
        row[link.column] = ids.attemptIds[0];
        break;
      case 'exam-cache':
        row[link.examColumn] = ids.examId;
        break;
    }
    Object.assign(row, overrides[name]);
    const names = Object.keys(row);
    const typeOf = (key: string) =>
      getTableConfig(table)
        .columns.find((c) => c.name === key)
        ?.getSQLType() ?? '';
    const values = names.map((key) => {
      const value = row[key];
      const type = typeOf(key);
      if (value instanceof Date) return sql`${value.toISOString()}::timestamptz`;
      if (Buffer.isBuffer(value)) return sql`decode(${value.toString('hex')}, 'hex')`;
      if (Array.isArray(value) && type.endsWith('[]')) return sql`${`{${value.join(',')}}`}::${sql.raw(type)}`;
      if (type === 'json' || type === 'jsonb') return sql`${JSON.stringify(value)}::${sql.raw(type)}`;
      return value === null ? sql`null` : sql`${value}::${sql.raw(type)}`;
    });
    await db.execute(
      sql`insert into ${table} (${sql.join(
        names.map((n) => sql.identifier(n)),
        sql`, `,
      )}) values (${sql.join(values, sql`, `)})`,
    );
  }
}

/** The candidate's rows per declared table (tables declared as holding none are left out). */
export async function countCandidateRows(
  db: Db,
  tables: Map<string, PgTable>,
  declared: CandidateTables,
  ids: CandidateIds,
): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const [name, link] of Object.entries(declared)) {
    const table = tables.get(name)!;
    const where = candidateRows(table, link, ids);
    if (!where) continue;
    const rows = await db.execute<{ n: number }>(sql`select count(*)::int as n from ${table} where ${where}`);
    const list = (Array.isArray(rows) ? rows : (rows as unknown as { rows: { n: number }[] }).rows) as { n: number }[];
    counts[name] = Number(list[0]?.n ?? 0);
  }
  return counts;
}

/**
 * The tables where any text, JSON or array column still mentions one of `needles` (ids, keys): a check that reads
 * every table of the schema, declared or not, for what an erasure should have left nowhere.
 */
export async function tablesMentioning(
  db: Db,
  tables: Map<string, PgTable>,
  needles: readonly string[],
): Promise<string[]> {
  const found: string[] = [];
  for (const [name, table] of tables) {
    const columns = getTableConfig(table).columns.filter((c) => /^(text|varchar|jsonb?)|\[\]$/.test(c.getSQLType()));
    if (columns.length === 0) continue;
    const conditions = columns.flatMap((c) =>
      needles.map((needle) => sql`${sql.identifier(c.name)}::text like ${`%${needle}%`}`),
    );
    const result = (await db.execute(
      sql`select count(*)::int as n from ${table} where ${sql.join(conditions, sql` or `)}`,
    )) as unknown;
    const rows = (Array.isArray(result) ? result : (result as { rows: { n: number }[] }).rows) as { n: number }[];
    if (Number(rows[0]?.n ?? 0) > 0) found.push(name);
  }
  return found;
}
