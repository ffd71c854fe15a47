// Reliance calibration's cost in llm-gateway: new chats through the real gateway at a fixed rate on two exams that
// differ only in whether planted errors are on (fakes.ts: the same question with its planted error, the default
// share 0.3), in alternating phases of one run (off, on, on, off…), so a drift of the box weighs on both sides.
// The verdict is the gateway's CPU per chat with the mode on over off, its PostgreSQL backends' CPU included
// (goal ≤ 1.10: the decision, the longer prompt, the reply's check and the stored record are the added work);
// time to first token (over the same chat asked of the fake directly, interleaved) is printed beside it. The
// planted turns the gateway stored are counted afterwards, so a run that planted nothing cannot pass.
// Needs PostgreSQL. Usage: node bench/llm-gateway/planted.ts [--rate 50] [--seconds 8] [--rounds 4] [--tokens 20]
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import postgres from 'postgres';
import { openLoop } from '../lib/open-loop.ts';
import { BENCH_PLANTED_ERROR, BENCH_PLANTED_EXAM_ID, BENCH_PLANTED_OFF_EXAM_ID } from './fakes.ts';
import { cpuOf, loadNow, startStack, summary, type Result, type Summary } from './harness.ts';

const { values: args } = parseArgs({
  options: {
    rate: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '8' },
    rounds: { type: 'string', default: '4' },
    tokens: { type: 'string', default: '20' },
    port: { type: 'string', default: '14323' },
  },
});
const RATE = Number(args.rate);
const SECONDS = Number(args.seconds);
const ROUNDS = Number(args.rounds);
const TOKENS = Number(args.tokens);
const loadAtStart = loadNow();
if (TOKENS < 4) throw new Error(`--tokens must be at least 4: the planted error is "${BENCH_PLANTED_ERROR}"`);

type Mode = 'off' | 'on';
type Tagged = Result & { via: 'gw' | 'direct' };

const stack = await startStack({ port: Number(args.port) });
const sql = postgres(stack.databaseUrl, { max: 1, onnotice: () => {} });
try {
  /** The gateway's CPU and its PostgreSQL backends' (those connected to its database; its pool keeps them). */
  const cpu = async () => {
    const gateway = cpuOf(stack.gatewayPid);
    const rows = await sql<{ pid: number }[]>`
      select pid from pg_stat_activity where datname = ${stack.databaseName} and pid <> pg_backend_pid()`;
    let database = 0;
    for (const { pid } of rows) {
      try {
        const c = cpuOf(pid);
        database += c.user + c.system;
      } catch {
        // A backend that ended between the query and the read: its time is gone from both sides alike.
      }
    }
    return { gateway: gateway.user + gateway.system, database };
  };
  const examOf = (mode: Mode) => (mode === 'on' ? BENCH_PLANTED_EXAM_ID : BENCH_PLANTED_OFF_EXAM_ID);
  const chats = (mode: Mode, count: number) => {
    let turn = 0;
    return openLoop<Tagged>(count * 2, RATE * 2, () =>
      (turn++ & 1) === 0
        ? stack.viaGateway(TOKENS, examOf(mode)).then((r) => ({ ...r, via: 'gw' as const }))
        : stack.direct(TOKENS).then((r) => ({ ...r, via: 'direct' as const })),
    );
  };

  console.log('warming up…');
  await chats('off', RATE * 2);
  await chats('on', RATE * 2);

  const results: Record<Mode, Tagged[]> = { off: [], on: [] };
  const used: Record<Mode, { gateway: number; database: number }> = {
    off: { gateway: 0, database: 0 },
    on: { gateway: 0, database: 0 },
  };
  const phase = async (mode: Mode, round: number) => {
    console.log(`round ${round}: ${RATE} new chats/s for ${SECONDS} s, planted errors ${mode}`);
    const before = await cpu();
    results[mode].push(...(await chats(mode, RATE * SECONDS)));
    const after = await cpu();
    used[mode].gateway += after.gateway - before.gateway;
    used[mode].database += after.database - before.database;
  };
  for (let round = 1; round <= ROUNDS; round++) {
    const order: Mode[] = round % 2 === 1 ? ['off', 'on'] : ['on', 'off'];
    for (const mode of order) await phase(mode, round);
  }

  const of = (mode: Mode, via: Tagged['via']) => summary(results[mode].filter((r) => r.via === via));
  const gw = { off: of('off', 'gw'), on: of('on', 'gw') };
  const direct = { off: of('off', 'direct'), on: of('on', 'direct') };
  const perChat = (mode: Mode) => ({
    gateway: used[mode].gateway / gw[mode].n,
    database: used[mode].database / gw[mode].n,
    total: (used[mode].gateway + used[mode].database) / gw[mode].n,
  });
  const cpuOff = perChat('off');
  const cpuOn = perChat('on');
  const ratio = cpuOn.total / cpuOff.total;
  const gatewayRatio = cpuOn.gateway / cpuOff.gateway;
  const added = (mode: Mode) => ({ p50: gw[mode].p50 - direct[mode].p50, p99: gw[mode].p99 - direct[mode].p99 });

  const [stored] = await sql<{ replies: number; asked: number; verified: number }[]>`
    select count(*)::int as replies,
           count(m.planted)::int as asked,
           count(*) filter (where (m.planted->>'verified')::boolean)::int as verified
    from llm_gateway.messages m join llm_gateway.conversations c using (attempt_id)
    where m.role = 'assistant' and c.exam_id = ${BENCH_PLANTED_EXAM_ID}`;
  const [offAsked] = await sql<{ asked: number }[]>`
    select count(m.planted)::int as asked
    from llm_gateway.messages m join llm_gateway.conversations c using (attempt_id)
    where c.exam_id = ${BENCH_PLANTED_OFF_EXAM_ID}`;

  const row = (name: string, s: Summary) =>
    `| ${name} | ${s.n} | ${s.failed} | ${s.p50.toFixed(1)} | ${s.p95.toFixed(1)} | ${s.p99.toFixed(1)} |`;
  console.log(
    [
      '',
      '| chats | n | failed | TTFT p50 ms | TTFT p95 ms | TTFT p99 ms |',
      '|---|---|---|---|---|---|',
      row(`through the gateway, planted errors off (${RATE}/s)`, gw.off),
      row('through the gateway, planted errors on', gw.on),
      row('direct to the fake, off phases', direct.off),
      row('direct to the fake, on phases', direct.on),
      '',
      `CPU per chat, off → on: gateway ${cpuOff.gateway.toFixed(2)} → ${cpuOn.gateway.toFixed(2)} ms (${gatewayRatio.toFixed(3)}×), its PostgreSQL backends ${cpuOff.database.toFixed(2)} → ${cpuOn.database.toFixed(2)} ms, together ${cpuOff.total.toFixed(2)} → ${cpuOn.total.toFixed(2)} ms: ${ratio.toFixed(3)}× (goal ≤ 1.10)`,
      `gateway's added TTFT over direct, off → on: p50 ${added('off').p50.toFixed(1)} → ${added('on').p50.toFixed(1)} ms, p99 ${added('off').p99.toFixed(1)} → ${added('on').p99.toFixed(1)} ms`,
      `planted turns stored (mode on): ${stored?.asked} asked of ${stored?.replies} replies (${(((stored?.asked ?? 0) / Math.max(1, stored?.replies ?? 0)) * 100).toFixed(1)}%, share 30%), ${stored?.verified} verified; mode off: ${offAsked?.asked} asked`,
      `load average: ${loadAtStart} at the start, ${loadNow()} at the end, on ${availableParallelism()} cores`,
      '',
    ].join('\n'),
  );
  for (const s of [gw.off, gw.on, direct.off, direct.on]) if (s.errors.length) console.log('errors:', s.errors);
  const pick = (s: Summary) => ({ n: s.n, failed: s.failed, p50: s.p50, p95: s.p95, p99: s.p99 });
  console.log(
    `BENCH_RESULT ${JSON.stringify({
      rate: RATE,
      seconds: SECONDS,
      rounds: ROUNDS,
      tokens: TOKENS,
      off: { ...pick(gw.off), cpuPerChatMs: cpuOff, added: added('off') },
      on: { ...pick(gw.on), cpuPerChatMs: cpuOn, added: added('on') },
      ratio,
      gatewayRatio,
      planted: { ...stored, offAsked: offAsked?.asked ?? 0 },
    })}`,
  );
} finally {
  await sql.end();
  await stack.close();
}
