import { createHash } from 'node:crypto';
import type { PrivacyExportFile } from '@exam/domain/privacy';
import { and, eq, inArray, is, or, sql, type Column, type SQL } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from './db.ts';

/**
 * How each table of a service holds a candidate's data, so erasure, export and the test that nothing is left read
 * one declaration (docs/product.md#candidate-data). Every table of the service's drizzle schema must be declared:
 * a table added later without a declaration fails that service's privacy test.
 *
 * - attempt: `column` holds an attempt id; the row is the candidate's.
 * - result: `column` holds a result id (results-service); the row is the candidate's.
 * - candidate: the row belongs to the candidate key within the exam, attempt or not (accommodations, roster, mail):
 *   erased on request only, never by the retention job (which erases attempts).
 * - result-list: `column` is a JSON array of result ids among others' (a suggestion batch): the ids are removed.
 * - subject: an audit log whose `column` may name the candidate, an attempt or a result: replaced by a pseudonym.
 * - exam-cache: figures computed from every candidate of the exam (insights): dropped, so they are recomputed.
 * - none: the table holds nothing of a candidate; `reason` says why.
 */
export type CandidateLink =
  | { by: 'attempt'; column: string }
  | { by: 'result'; column: string }
  | { by: 'candidate'; examColumn: string; keyColumn: string }
  | { by: 'result-list'; column: string }
  | { by: 'subject'; column: string; examColumn: string }
  | { by: 'exam-cache'; examColumn: string }
  | { by: 'none'; reason: string };

/** A table's declaration: its link, and columns left out of an export (secrets' hashes, the exam's keys). */
export type CandidateTable = CandidateLink & { omitFromExport?: readonly string[] };
export type CandidateTables = Record<string, CandidateTable>;

/** Whom an erasure or export is about: attempt and result ids resolved by the service beforehand. */
export type CandidateIds = {
  examId: string;
  /** null for the retention job: only the attempts' rows go. */
  candidateKey: string | null;
  attemptIds: readonly string[];
  resultIds?: readonly string[];
  /** What an audit subject may say about the candidate (ids as typed, keys). */
  subjects?: readonly string[];
};

/** Every table of a drizzle schema module, by its SQL name. */
export function tablesOfSchema(schema: Record<string, unknown>): Map<string, PgTable> {
  const tables = new Map<string, PgTable>();
  for (const value of Object.values(schema)) if (is(value, PgTable)) tables.set(getTableConfig(value).name, value);
  return tables;
}

function column(table: PgTable, name: string): Column {
  const found = getTableConfig(table).columns.find((c) => c.name === name);
  if (!found) throw new Error(`${getTableConfig(table).name} has no column ${name}`);
  return found;
}

/** SHA-256 (hex) of a normalised candidate key: how records name an erased candidate. */
export const candidateKeyHash = (key: string) => createHash('sha256').update(key).digest('hex');

/** The pseudonym an audit subject about an erased candidate becomes. */
export const erasedSubject = (ids: Pick<CandidateIds, 'examId' | 'candidateKey' | 'attemptIds'>) =>
  `erased:${candidateKeyHash(ids.candidateKey ?? `${ids.examId}:${[...ids.attemptIds].sort().join(',')}`).slice(0, 16)}`;

/** The condition selecting the candidate's rows of a table, or undefined when the table holds none of them. */
export function candidateRows(table: PgTable, link: CandidateLink, ids: CandidateIds): SQL | undefined {
  const some = (values: readonly string[] | undefined) => (values && values.length > 0 ? values : undefined);
  switch (link.by) {
    case 'attempt': {
      const attempts = some(ids.attemptIds);
      return attempts && inArray(column(table, link.column), [...attempts]);
    }
    case 'result': {
      const results = some(ids.resultIds);
      return results && inArray(column(table, link.column), [...results]);
    }
    case 'candidate':
      return ids.candidateKey === null
        ? undefined
        : and(eq(column(table, link.examColumn), ids.examId), eq(column(table, link.keyColumn), ids.candidateKey));
    case 'result-list': {
      const results = some(ids.resultIds);
      if (!results) return undefined;
      const list = column(table, link.column);
      return or(...results.map((id) => sql`${list} @> ${JSON.stringify([id])}::jsonb`));
    }
    case 'subject': {
      const subjects = some([...ids.attemptIds, ...(ids.resultIds ?? []), ...(ids.subjects ?? [])]);
      return (
        subjects && and(eq(column(table, link.examColumn), ids.examId), inArray(column(table, link.column), subjects))
      );
    }
    case 'exam-cache':
      return eq(column(table, link.examColumn), ids.examId);
    case 'none':
      return undefined;
  }
}

/**
 * Erases the candidate's rows in every declared table, in declaration order (children before parents): deletes
 * them, strips result ids out of lists, pseudonymises audit subjects and drops the exam's caches. Answers the
 * rows changed per table. Run it in a transaction (`db` may be one).
 */
export async function eraseCandidateRows(
  db: Db,
  tables: Map<string, PgTable>,
  declared: CandidateTables,
  ids: CandidateIds,
): Promise<Record<string, number>> {
  const changed: Record<string, number> = {};
  for (const [name, link] of Object.entries(declared)) {
    const table = tables.get(name);
    if (!table) throw new Error(`declared table ${name} is not in the schema`);
    const where = candidateRows(table, link, ids);
    if (!where) continue;
    let count: number;
    if (link.by === 'result-list') {
      const list = column(table, link.column);
      const removed = sql.join(
        (ids.resultIds ?? []).map((id) => sql`${id}::text`),
        sql`, `,
      );
      const rows = await db
        .update(table)
        .set({ [keyOf(table, link.column)]: sql`${list} - array[${removed}]` } as never)
        .where(where)
        .returning({ one: sql<number>`1` });
      count = rows.length;
    } else if (link.by === 'subject') {
      const rows = await db
        .update(table)
        .set({ [keyOf(table, link.column)]: erasedSubject(ids) } as never)
        .where(where)
        .returning({ one: sql<number>`1` });
      count = rows.length;
    } else {
      count = (
        await db
          .delete(table)
          .where(where)
          .returning({ one: sql<number>`1` })
      ).length;
    }
    if (count > 0) changed[name] = count;
  }
  return changed;
}

/** The property name drizzle gives a column (set() takes those, not SQL names). */
function keyOf(table: PgTable, sqlName: string): string {
  const target = column(table, sqlName);
  const entry = Object.entries(table as unknown as Record<string, unknown>).find(([, value]) => value === target);
  if (!entry) throw new Error(`no property for ${sqlName}`);
  return entry[0];
}

/**
 * The candidate's rows of every declared table as JSON (declared columns left out); bytes become files under
 * `files/<service>/<table>/…` and the row names the file instead.
 */
export async function exportCandidateRows(
  db: Db,
  service: string,
  tables: Map<string, PgTable>,
  declared: CandidateTables,
  ids: CandidateIds,
): Promise<{ tables: Record<string, Record<string, unknown>[]>; files: PrivacyExportFile[] }> {
  const out: Record<string, Record<string, unknown>[]> = {};
  const files: PrivacyExportFile[] = [];
  for (const [name, link] of Object.entries(declared)) {
    if (link.by === 'exam-cache' || link.by === 'none') continue;
    const table = tables.get(name);
    if (!table) throw new Error(`declared table ${name} is not in the schema`);
    const where = candidateRows(table, link, ids);
    if (!where) continue;
    const omit = new Set(link.omitFromExport ?? []);
    const fields = Object.fromEntries(
      getTableConfig(table)
        .columns.filter((c) => !omit.has(c.name))
        .map((c) => [c.name, c]),
    );
    const rows = (await db
      .select(fields)
      .from(table as never)
      .where(where)) as Record<string, unknown>[];
    out[name] = rows.map((row, n) =>
      Object.fromEntries(
        Object.entries(row).map(([key, value]) => {
          if (!(value instanceof Uint8Array)) return [key, value];
          const label = typeof row.file_name === 'string' ? row.file_name.replace(/[/\\]/g, '_') : key;
          const path = `files/${service}/${name}/${n + 1}-${label}`;
          files.push({ path, base64: Buffer.from(value).toString('base64') });
          return [key, { file: path }];
        }),
      ),
    );
  }
  return { tables: out, files };
}
