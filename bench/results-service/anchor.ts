// The anchor for the answer-save benchmark: the least a server can do per save, a bare Fastify with
// postgres.js running one single-row upsert (only a newer seq replaces the stored one) per request, with
// no authentication, no attempt checks and no batching. The bench runs it as its own process next to
// results-service, on the same PostgreSQL and with the same pool size, so the two are measured alike.
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

const app = Fastify({ logger: false });
app.put<{ Params: { attemptId: string; questionIndex: string }; Body: { answer: string; seq: number } }>(
  '/api/attempts/:attemptId/answers/:questionIndex',
  async (request) => {
    const questionIndex = Number(request.params.questionIndex);
    const { answer, seq } = request.body;
    const rows = await sql`
      insert into bench_anchor.answers (attempt_id, question_index, answer, seq, updated_at)
      values (${request.params.attemptId}, ${questionIndex}, ${answer}, ${seq}, now())
      on conflict (attempt_id, question_index) do update
        set answer = excluded.answer, seq = excluded.seq, updated_at = excluded.updated_at
        where answers.seq < excluded.seq
      returning 1`;
    return { questionIndex, seq, applied: rows.length > 0 };
  },
);
app.get('/ready', async () => ({ ok: true }));
app.addHook('onClose', () => sql.end());
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
