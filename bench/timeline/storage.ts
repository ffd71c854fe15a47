/**
 * Storage of edit operations for one hour of continuous typing on one answer (goal: ≤ 100 KB an hour). A fast
 * typist (about 300 typed characters a minute, 10% of them revised, pauses at words, sentences and paragraphs as
 * packages/domain/src/typing-sessions.testing.ts models them) is recorded as the candidate page records: one
 * operation per key event folded by `coalesce`, a save whenever the typing pauses 400 ms (the page's autosave
 * debounce), each save's operations one chunk in the compact form. Reports the chunks' JSON text (what a save
 * carries and answer_operations.bytes counts), the same in the first compact form (every operation with its `to`,
 * per-key timing as arrays of numbers) for comparison, and what PostgreSQL stores: the jsonb column's size per chunk and the size of a table laid
 * out like results-service's answer_operations with its primary key.
 *
 *   [BENCH_DATABASE_URL=postgres://…] node bench/timeline/storage.ts [--minutes 60] [--seed 42] [--no-db]
 */
import { parseArgs } from 'node:util';
import postgres from 'postgres';
import {
  replay,
  toCompact,
  type AnswerOperation,
  type CompactOperation,
} from '../../packages/domain/src/answer-operations.ts';
import { createRandom, recordKeys, simulateWriting } from '../../packages/domain/src/typing-sessions.testing.ts';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '60' },
    seed: { type: 'string', default: '42' },
    'no-db': { type: 'boolean', default: false },
  },
});
const minutes = Number(values.minutes);
const GOAL_BYTES_PER_HOUR = 100_000;
const SAVE_AFTER_PAUSE_MS = 400;

// Median within-word interval 75 ms: with the model's word, sentence and paragraph pauses and its revisions this
// gives about 300 typed characters a minute over the hour, pauses included (printed below).
const rng = createRandom(Number(values.seed));
const session = simulateWriting('composition', rng, {
  // Enough text to fill the time at this pace (the generator stops at a length, the filter below at the time).
  chars: minutes * 450,
  typist: { medianIkiMs: 75, sigma: 0.35, revision: 0.1 },
  startMs: 0,
});
const events = session.events.filter((event) => event.t <= minutes * 60_000);
if (events.at(-1)!.t < (minutes - 1) * 60_000) throw new Error('the simulated session ended before the time was up');
const startedAt = Date.parse('2026-11-28T09:00:00.000Z');
const { ops, saves } = recordKeys(events, startedAt, { saveAfterPauseMs: SAVE_AFTER_PAUSE_MS });

const chunks: CompactOperation[][] = [];
let next = 0;
for (const count of saves) {
  chunks.push(ops.slice(next, next + count).map((op) => toCompact(op, startedAt)));
  next += count;
}
const texts = chunks.map((chunk) => JSON.stringify(chunk));
const bytes = (s: string) => Buffer.byteLength(s, 'utf8');
const jsonBytes = texts.reduce((sum, text) => sum + bytes(text), 0);
// The first compact form: every operation with its `to`, per-key intervals as a JSON array of numbers.
const SOURCE_CODES = { typed: 0, pasted: 1, assistant: 2, autocomplete: 3, restored: 4 } as const;
const firstForm = (op: AnswerOperation) => {
  const base = [Date.parse(op.at) - startedAt, op.from, op.to, op.insert, SOURCE_CODES[op.source]];
  return op.keys ? [...base, op.keys] : base;
};
const legacyTexts: string[] = [];
next = 0;
for (const count of saves) {
  legacyTexts.push(JSON.stringify(ops.slice(next, next + count).map(firstForm)));
  next += count;
}
const legacy = legacyTexts.reduce((sum, text) => sum + bytes(text), 0);

const inserted = events.reduce((sum, event) => sum + event.insert.length, 0);
const deleted = events.reduce((sum, event) => sum + event.to - event.from, 0);
const perHour = (n: number) => Math.round((n * 60) / minutes);
if (replay(ops) !== replay(events)) throw new Error('the recorded operations do not replay to the typed text');

type Db =
  | {
      jsonbBytes: number;
      legacyJsonbBytes: number;
      tableBytes: number;
      rows: number;
      compactedTableBytes: number;
      compactedColumnBytes: number;
    }
  | { error: string };
async function measureInPostgres(): Promise<Db> {
  const url = process.env.BENCH_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';
  const sql = postgres(url, { max: 1, onnotice: () => {}, connect_timeout: 5 });
  try {
    // A temporary table laid out like results-service's answer_operations (src/db/schema.ts: `ops` is json, kept
    // as sent), one row per save.
    await sql`create temporary table bench_answer_operations (
      attempt_id text not null, question_index integer not null, start integer not null, "end" integer not null,
      ops json not null, bytes integer not null, created_at timestamptz not null default now(),
      primary key (attempt_id, question_index, start))`;
    const rows = chunks.map((chunk, i) => ({
      attempt_id: 'att_01JDBENCHSTORAGE0000000000',
      question_index: 0,
      start: chunks.slice(0, i).reduce((n, c) => n + c.length, 0),
      end: chunks.slice(0, i + 1).reduce((n, c) => n + c.length, 0),
      ops: texts[i]!,
      bytes: bytes(texts[i]!),
    }));
    for (let i = 0; i < rows.length; i += 500) {
      const part = rows.slice(i, i + 500);
      await sql`insert into bench_answer_operations (attempt_id, question_index, start, "end", ops, bytes)
        select * from unnest(${sql.array(part.map((r) => r.attempt_id))}::text[], ${sql.array(part.map((r) => r.question_index))}::int[],
          ${sql.array(part.map((r) => r.start))}::int[], ${sql.array(part.map((r) => r.end))}::int[],
          ${sql.array(part.map((r) => r.ops))}::json[], ${sql.array(part.map((r) => r.bytes))}::int[])`;
    }
    const [sizes] = await sql<{ jsonb: string; total: string }[]>`
      select sum(pg_column_size(ops::jsonb))::bigint as jsonb,
             pg_total_relation_size('bench_answer_operations')::bigint as total
      from bench_answer_operations`;
    // What the process-records job does once the attempt is recorded (results-service,
    // modules/submissions/process-records.repository.ts COMPACT_OPERATIONS): the question's chunks become one row.
    await sql`
      with old as (delete from bench_answer_operations returning question_index, start, "end", ops, bytes, created_at),
      items as (
        select o.question_index, json_agg(x.value order by o.start, x.ord) as ops
        from old o cross join lateral json_array_elements(o.ops) with ordinality as x(value, ord)
        group by o.question_index
      )
      insert into bench_answer_operations (attempt_id, question_index, start, "end", ops, bytes, created_at)
      select 'att_01JDBENCHSTORAGE0000000000', g.question_index, g.start, g."end", i.ops, g.bytes, g.created_at
      from (select question_index, min(start) as start, max("end") as "end", sum(bytes)::int as bytes,
              min(created_at) as created_at from old group by question_index) g
      join items i using (question_index)`;
    await sql`vacuum full bench_answer_operations`;
    const [compacted] = await sql<{ column: string; total: string }[]>`
      select sum(pg_column_size(ops))::bigint as column,
             pg_total_relation_size('bench_answer_operations')::bigint as total
      from bench_answer_operations`;
    // The first form's chunks as jsonb values (none is large enough for PostgreSQL to compress it in a row).
    const [first] = await sql<{ jsonb: string }[]>`
      select sum(pg_column_size(text::jsonb))::bigint as jsonb from unnest(${sql.array(legacyTexts)}::text[]) as text`;
    return {
      jsonbBytes: Number(sizes!.jsonb),
      legacyJsonbBytes: Number(first!.jsonb),
      tableBytes: Number(sizes!.total),
      rows: rows.length,
      compactedColumnBytes: Number(compacted!.column),
      compactedTableBytes: Number(compacted!.total),
    };
  } catch (error) {
    return { error: (error as Error).message };
  } finally {
    await sql.end({ timeout: 1 });
  }
}

const db: Db = values['no-db'] ? { error: 'skipped (--no-db)' } : await measureInPostgres();
const result = {
  minutes,
  typist: {
    typedPerMinute: Math.round(inserted / minutes),
    keysPerMinute: Math.round(events.length / minutes),
    revisionRatio: Number((deleted / inserted).toFixed(3)),
  },
  operations: ops.length,
  saves: chunks.length,
  jsonBytesPerHour: perHour(jsonBytes),
  legacyJsonBytesPerHour: perHour(legacy),
  bytesPerTypedChar: Number((jsonBytes / inserted).toFixed(2)),
  ...('error' in db
    ? { postgres: db.error }
    : {
        jsonbBytesPerHour: perHour(db.jsonbBytes),
        legacyJsonbBytesPerHour: perHour(db.legacyJsonbBytes),
        tableBytesPerHour: perHour(db.tableBytes),
        rows: db.rows,
        compactedColumnBytesPerHour: perHour(db.compactedColumnBytes),
        compactedTableBytesPerHour: perHour(db.compactedTableBytes),
      }),
  goalBytesPerHour: GOAL_BYTES_PER_HOUR,
  met: perHour(jsonBytes) <= GOAL_BYTES_PER_HOUR,
};

const kb = (n: number) => `${(n / 1000).toFixed(1)} KB`;
console.log(
  `${minutes} min of typing: ${result.typist.typedPerMinute} typed chars/min (${result.typist.keysPerMinute} keys/min), ` +
    `revision ratio ${result.typist.revisionRatio}; ${ops.length} operations in ${chunks.length} saves`,
);
console.log(`| chunks' JSON text (compact form, keys as strings) | ${kb(result.jsonBytesPerHour)} an hour |`);
console.log(
  `| same in the first compact form (every \`to\`, keys as arrays of numbers) | ${kb(result.legacyJsonBytesPerHour)} an hour |`,
);
if ('error' in db) console.log(`| PostgreSQL | not measured: ${db.error} |`);
else {
  console.log(`| jsonb column (pg_column_size), ${db.rows} rows | ${kb(perHour(db.jsonbBytes))} an hour |`);
  console.log(`| same, the first compact form | ${kb(perHour(db.legacyJsonbBytes))} an hour |`);
  console.log(`| whole table with its primary key (pg_total_relation_size) | ${kb(perHour(db.tableBytes))} an hour |`);
  console.log(
    `| after the record: one row, compressed (column / whole table) | ${kb(perHour(db.compactedColumnBytes))} / ${kb(perHour(db.compactedTableBytes))} an hour |`,
  );
}
console.log(`BENCH_RESULT ${JSON.stringify(result)}`);
