// The anchor for the answer-save benchmark: the least a server can do per save, a bare Fastify with postgres.js
// writing the save's payload in one statement per request: the answer upserted (only a newer seq replaces the
// stored one) and, when the save carries edit operations, its chunk appended as one row, as results-service
// stores them (answer_operations: start, end, the JSON text as sent, its size). No authentication, no attempt
// checks, no batching, no cap. The bench runs it as its own process next to results-service, on the same
// PostgreSQL and with the same pool size, so the two are measured alike.
// Usage: DATABASE_URL=… PORT=… [DATABASE_POOL_SIZE=10] node bench/results-service/anchor.ts
import Fastify from 'fastify';
import postgres from 'postgres';

const sql = postgres(process.env.DATABASE_URL!, {
  max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
  onnotice: () => {},
});
await sql`create schema if not exists bench_anchor`;
await sql`create table if not exists bench_anchor.answers (
  attempt_id text not null,
  question_index integer not null,
  answer text not null,
  seq bigint not null,
  updated_at timestamptz not null,
  primary key (attempt_id, question_index)
)`;
await sql`create table if not exists bench_anchor.answer_operations (
  attempt_id text not null,
  question_index integer not null,
  start integer not null,
  "end" integer not null,
  ops json not null,
  bytes integer not null,
  created_at timestamptz not null,
  primary key (attempt_id, question_index, start)
)`;

type Body = { answer: string; seq: number; operations?: { start: number; ops: unknown[] } };
const app = Fastify({ logger: false });
app.put<{ Params: { attemptId: string; questionIndex: string }; Body: Body }>(
  '/api/attempts/:attemptId/answers/:questionIndex',
  async (request) => {
    const questionIndex = Number(request.params.questionIndex);
    const { answer, seq, operations } = request.body;
    const { attemptId } = request.params;
    if (!operations) {
      const rows = await sql`
        insert into bench_anchor.answers (attempt_id, question_index, answer, seq, updated_at)
        values (${attemptId}, ${questionIndex}, ${answer}, ${seq}, now())
        on conflict (attempt_id, question_index) do update
          set answer = excluded.answer, seq = excluded.seq, updated_at = excluded.updated_at
          where answers.seq < excluded.seq
        returning 1`;
      return { questionIndex, seq, applied: rows.length > 0 };
    }
    const end = operations.start + operations.ops.length;
    const ops = JSON.stringify(operations.ops);
    const rows = await sql`
      with written as (
        insert into bench_anchor.answers (attempt_id, question_index, answer, seq, updated_at)
        values (${attemptId}, ${questionIndex}, ${answer}, ${seq}, now())
        on conflict (attempt_id, question_index) do update
          set answer = excluded.answer, seq = excluded.seq, updated_at = excluded.updated_at
          where answers.seq < excluded.seq
        returning 1
      ), appended as (
        insert into bench_anchor.answer_operations (attempt_id, question_index, start, "end", ops, bytes, created_at)
        values (${attemptId}, ${questionIndex}, ${operations.start}, ${end}, ${ops}::json, octet_length(${ops}), now())
        on conflict do nothing
      )
      select count(*)::int as n from written`;
    return { questionIndex, seq, applied: rows[0]!.n > 0, operationsEnd: end, operationsCapped: false };
  },
);
app.get('/ready', async () => ({ ok: true }));
app.addHook('onClose', () => sql.end());
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
