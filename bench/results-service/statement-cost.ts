// PostgreSQL's CPU for one call of results-service's save statement (save_answers) by batch size, against the
// anchor's one statement per save (anchor.ts: answer upsert + operations append): what group commit saves and what
// a batch costs whatever its size. One connection, calls one after another, the backend's CPU from /proc; every save
// carries the page's operations (operations.ts, typing model). Prints one line per batch size.
//   [BENCH_DATABASE_URL=…] node bench/results-service/statement-cost.ts [--sizes 0,1,4,8,16,32] [--anchor]
//                                                                      [--saves 4000] [--baseline FILE [--rounds 3]]
// --sizes 0 is a call with no saves: the statement's fixed cost (planning is cached; executor start-up, the lock
// statement, the function call).
// --baseline FILE: another text of save_answers (e.g. `git show main:services/results-service/src/db/functions/
// save_answers.sql > /tmp/base.sql`), installed beside it as save_answers_baseline; each batch size then runs both,
// alternating for --rounds rounds (so both see the same machine), and prints the medians and their ratio.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import postgres from 'postgres';
import { startAttempts, startStack } from './harness.ts';
import { pageOperations } from './operations.ts';

const { values: args } = parseArgs({
  options: {
    sizes: { type: 'string', default: '0,1,4,8,16,32' },
    saves: { type: 'string', default: '4000' },
    anchor: { type: 'boolean', default: false },
    baseline: { type: 'string' },
    rounds: { type: 'string', default: '3' },
  },
});
const cpuMs = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};

const stack = await startStack({
  adminUrl: process.env.BENCH_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test',
  port: 14122,
  stubPort: 14121,
});
const sql = postgres(stack.databaseUrl, { max: 1, onnotice: () => {} });
try {
  const attempts = await startAttempts(stack.url, 400);
  const [{ pid }] = (await sql`select pg_backend_pid() as pid`) as unknown as [{ pid: number }];
  if (args.anchor) {
    await sql`create schema if not exists bench_anchor`;
    await sql`create table if not exists bench_anchor.answers (attempt_id text not null, question_index integer not null,
      answer text not null, seq bigint not null, updated_at timestamptz not null, primary key (attempt_id, question_index))`;
    await sql`create table if not exists bench_anchor.answer_operations (attempt_id text not null,
      question_index integer not null, start integer not null, "end" integer not null, ops json not null,
      bytes integer not null, created_at timestamptz not null, primary key (attempt_id, question_index, start))`;
  }
  if (args.baseline) {
    const text = readFileSync(args.baseline, 'utf8').replace(
      /FUNCTION\s+"results_service"\."save_answers"\(/,
      'FUNCTION "results_service"."save_answers_baseline"(',
    );
    await sql.unsafe(text);
  }
  const functions = args.baseline ? ['save_answers_baseline', 'save_answers'] : ['save_answers'];
  const pages = new Map(functions.map((fn) => [fn, pageOperations('typing')]));
  let seq = 1;
  const total = Number(args.saves);
  // Each function writes its own attempts' answers, so neither finds the other's stored operations.
  const share = Math.floor(attempts.length / functions.length);
  /** Backend CPU (ms) per call of `fn` with `size` saves a call, over about --saves saves. */
  const measure = async (fn: string, size: number) => {
    const page = pages.get(fn)!;
    const mine = attempts.slice(functions.indexOf(fn) * share, (functions.indexOf(fn) + 1) * share);
    const calls = Math.max(20, Math.round(total / Math.max(1, size)));
    const before = cpuMs(pid);
    const started = performance.now();
    for (let c = 0; c < calls; c++) {
      const rows = Array.from({ length: size }, (_v, i) => {
        const n = seq++;
        const attempt = mine[(c * size + i) % mine.length]!;
        const question = Math.floor(n / mine.length) % 20;
        const operations = page.next(`${attempt.id}/${question}`, n);
        const at = new Date().toISOString();
        return {
          ord: i,
          attempt_id: attempt.id,
          question_index: question,
          answer: `photosynthesis ${n}`,
          seq: n,
          at,
          cutoff: at,
          ops_start: operations.start,
          ops: operations.ops,
          ops_count: operations.ops.length,
          ops_chars: [0, 0, 0, 0, 0],
        };
      });
      if (args.anchor) {
        const r = rows[0]!;
        const ops = JSON.stringify(r.ops);
        await sql`
          with written as (
            insert into bench_anchor.answers (attempt_id, question_index, answer, seq, updated_at)
            values (${r.attempt_id}, ${r.question_index}, ${r.answer}, ${r.seq}, now())
            on conflict (attempt_id, question_index) do update
              set answer = excluded.answer, seq = excluded.seq, updated_at = excluded.updated_at
              where answers.seq < excluded.seq
            returning 1
          ), appended as (
            insert into bench_anchor.answer_operations (attempt_id, question_index, start, "end", ops, bytes, created_at)
            values (${r.attempt_id}, ${r.question_index}, ${r.ops_start}, ${r.ops_start + r.ops_count}, ${ops}::json,
              octet_length(${ops}), now())
            on conflict do nothing
          )
          select count(*)::int as n from written`;
        continue;
      }
      const ids = [...new Set(rows.map((r) => r.attempt_id))];
      // As text cast to json: postgres.js would encode a string parameter typed json once more.
      await sql.unsafe(
        `select * from results_service.${fn}($1::text::json, $2::text[], $3::int)`,
        [JSON.stringify(rows), ids, 4 << 20],
        { prepare: true },
      );
    }
    return { calls, cpu: (cpuMs(pid) - before) / calls, wall: (performance.now() - started) / calls };
  };
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  for (const size of args.sizes.split(',').map(Number)) {
    if (args.anchor) {
      if (size !== 1) continue;
      const r = await measure('anchor', 1);
      console.log(
        `anchor statement: ${r.calls} calls, backend CPU ${r.cpu.toFixed(3)} ms a call; wall ${r.wall.toFixed(2)} ms a call`,
      );
      continue;
    }
    const cpu = new Map<string, number[]>(functions.map((fn) => [fn, []]));
    let last = { calls: 0, cpu: 0, wall: 0 };
    for (let round = 0; round < (args.baseline ? Number(args.rounds) : 1); round++)
      for (const fn of functions) {
        last = await measure(fn, size);
        cpu.get(fn)!.push(last.cpu);
      }
    const now = median(cpu.get('save_answers')!);
    const perSave = (ms: number) => (size > 0 ? `, ${((ms / size) * 1000).toFixed(0)} µs a save` : '');
    if (!args.baseline) {
      console.log(
        `save_answers, batch ${size}: ${last.calls} calls, backend CPU ${now.toFixed(3)} ms a call${perSave(now)}; ` +
          `wall ${last.wall.toFixed(2)} ms a call`,
      );
      continue;
    }
    const base = median(cpu.get('save_answers_baseline')!);
    console.log(
      `batch ${size}: baseline ${base.toFixed(3)} ms a call${perSave(base)}; save_answers ${now.toFixed(3)} ms a call` +
        `${perSave(now)}; ratio ${(now / base).toFixed(2)} (median of ${args.rounds} rounds of ${last.calls} calls)`,
    );
  }
} finally {
  await sql.end();
  await stack.stop();
}
