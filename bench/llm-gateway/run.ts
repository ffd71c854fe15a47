// Added time to first token of the llm-gateway in front of a fake OpenAI-compatible upstream (300 ms to the
// first token, then 50 tokens/s), against calling the fake directly in the same run; then 2,000 concurrent
// streams through the gateway, each checked token by token. Needs PostgreSQL (BENCH_DATABASE_URL).
// Usage: node bench/llm-gateway/run.ts [--rate 300] [--seconds 20] [--streams 2000] [--stream-tokens 150] [--phase1-tokens 20]
//        [--relay]: a bare relay (relay.ts) in the gateway's place, to show the floor of one extra hop on this box.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import postgres from 'postgres';
import { openLoop } from '../lib/open-loop.ts';
import { BENCH_EXAM_ID, BENCH_OWNER_ID, tokenText } from './fakes.ts';

const { values: args } = parseArgs({
  options: {
    rate: { type: 'string', default: '300' },
    seconds: { type: 'string', default: '20' },
    streams: { type: 'string', default: '2000' },
    'stream-tokens': { type: 'string', default: '150' },
    port: { type: 'string', default: '14303' },
    'phase1-tokens': { type: 'string', default: '20' },
    relay: { type: 'boolean', default: false },
  },
});
const RATE = Number(args.rate);
const SECONDS = Number(args.seconds);
const STREAMS = Number(args.streams);
const STREAM_TOKENS = Number(args['stream-tokens']);
const PHASE1_TOKENS = Number(args['phase1-tokens']);
const gatewayDir = fileURLToPath(new URL('../../services/llm-gateway/', import.meta.url));
const baseDb = process.env.BENCH_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';
const JWT_SECRET = randomBytes(32).toString('base64url');
const INTERNAL_TOKEN = randomBytes(32).toString('base64url');
const agent = new Agent({ keepAlive: true, maxSockets: Infinity });

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
function attemptToken(attemptId: string): string {
  const head = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ kind: 'attempt', sub: attemptId, examId: BENCH_EXAM_ID, ownerId: BENCH_OWNER_ID, name: 'Bench', studentId: 'B-1', iat: Math.floor(Date.now() / 1000), exp: Math.floor(Date.now() / 1000) + 3600 })}`;
  return `${head}.${createHmac('sha256', JWT_SECRET).update(head).digest('base64url')}`;
}

type Result = { ok: boolean; ttftMs: number; tokens: number; complete: boolean; error?: string };

/** One streamed chat; TTFT is from sending the request to the first token's bytes. */
function chat(
  url: string,
  headers: Record<string, string>,
  body: string,
  expectedTokens: number,
  viaGateway: boolean,
): Promise<Result> {
  return new Promise((resolve) => {
    const started = performance.now();
    let ttftMs = -1;
    let text = '';
    const req = request(
      url,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers },
      },
      (res) => {
        res.setEncoding('utf8');
        res.on('data', (part: string) => {
          if (ttftMs < 0) ttftMs = performance.now() - started;
          text += part;
        });
        res.on('end', () => {
          const frames = text
            .split('\n\n')
            .filter((f) => f.startsWith('data: '))
            .map((f) => f.slice(6));
          let reply = '';
          let complete = false;
          for (const frame of frames) {
            if (frame === '[DONE]') {
              complete = true;
              continue;
            }
            const event = JSON.parse(frame) as {
              type?: string;
              text?: string;
              choices?: { delta?: { content?: string } }[];
            };
            if (viaGateway) {
              if (event.type === 'delta') reply += event.text;
              if (event.type === 'done') complete = true;
            } else {
              reply += event.choices?.[0]?.delta?.content ?? '';
            }
          }
          const expected = Array.from({ length: expectedTokens }, (_, i) => tokenText(i)).join('');
          resolve({
            ok: res.statusCode === 200,
            ttftMs,
            tokens: reply.length ? reply.split(' ').length - 1 : 0,
            complete: complete && reply === expected,
            ...(res.statusCode === 200 ? {} : { error: `${res.statusCode} ${text.slice(0, 200)}` }),
          });
        });
        res.on('error', (err) => resolve({ ok: false, ttftMs, tokens: 0, complete: false, error: err.message }));
      },
    );
    req.on('error', (err) => resolve({ ok: false, ttftMs, tokens: 0, complete: false, error: err.message }));
    req.end(body);
  });
}

const viaGateway = (port: number, tokens: number) =>
  chat(
    `http://127.0.0.1:${port}/api/llm/chat`,
    { authorization: `Bearer ${attemptToken(randomUUID())}` },
    JSON.stringify({ message: `Explain. tokens=${tokens}`, questionIndex: 0 }),
    tokens,
    !args.relay,
  );
const direct = (upstreamPort: number, tokens: number) =>
  chat(
    `http://127.0.0.1:${upstreamPort}/v1/chat/completions`,
    { authorization: 'Bearer sk-bench' },
    JSON.stringify({
      model: 'gpt-4o-mini',
      stream: true,
      messages: [{ role: 'user', content: `Explain. tokens=${tokens}` }],
    }),
    tokens,
    false,
  );

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

function waitForLine(child: ChildProcess, pattern: RegExp): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (part: Buffer) => {
      out += part.toString();
      const match = pattern.exec(out);
      if (match) resolve(match);
    });
    child.on('exit', (code) => reject(new Error(`child exited ${code}: ${out}`)));
  });
}

async function waitReady(port: number) {
  for (let i = 0; i < 200; i++) {
    const ok = await fetch(`http://127.0.0.1:${port}/ready`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return;
    await sleep(100);
  }
  throw new Error('gateway did not become ready');
}

/** CPU time the gateway process has used, in ms (utime and stime from /proc, 100 ticks per second). */
function cpuOf(pid: number): { user: number; system: number } {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return { user: Number(fields[11]) * 10, system: Number(fields[12]) * 10 };
}

const loadNow = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const loadAtStart = loadNow();

/** Each stream holds four descriptors across the processes on this box (client, gateway twice, fake); warn before EMFILE does. */
function checkOpenFileLimit(streams: number) {
  const limit = Number(/Max open files\s+(\d+)/.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1] ?? Infinity);
  if (limit < 2 * streams + 1024)
    console.warn(
      `open-file limit ${limit} is low for ${streams} streams: run \`ulimit -n ${4 * streams + 1024}\` first`,
    );
}
checkOpenFileLimit(STREAMS);

const countBy = (items: string[]) =>
  Object.entries(Object.groupBy(items, (i) => i.slice(0, 80))).map(([k, v]) => `${v?.length ?? 0} × ${k}`);

const summary = (results: Result[]) => {
  const ttft = results
    .filter((r) => r.ok && r.ttftMs >= 0)
    .map((r) => r.ttftMs)
    .sort((a, b) => a - b);
  return {
    n: results.length,
    failed: results.filter((r) => !r.ok || !r.complete).length,
    p50: percentile(ttft, 50),
    p95: percentile(ttft, 95),
    p99: percentile(ttft, 99),
    errors: countBy(
      results
        .filter((r) => !r.ok || !r.complete)
        .map((r) => r.error ?? (r.ok ? `cut after ${r.tokens} tokens` : 'failed')),
    ),
  };
};

const dbName = `llm_gateway_bench_${process.pid}`;
const admin = postgres(baseDb, { max: 1, onnotice: () => {} });
await admin.unsafe(`create database "${dbName}"`);
const dbUrl = new URL(baseDb);
dbUrl.pathname = `/${dbName}`;
const children: ChildProcess[] = [];
try {
  const fakes = spawn(process.execPath, [fileURLToPath(new URL('./fakes.ts', import.meta.url))], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(fakes);
  const [, upstreamPort, platformPort] = (await waitForLine(fakes, /ready (\d+) (\d+)/)).map(Number) as [
    number,
    number,
    number,
  ];
  const port = Number(args.port);
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const entry = args.relay ? fileURLToPath(new URL('./relay.ts', import.meta.url)) : 'src/server.ts';
  const gateway = spawn(process.execPath, [...profile, entry], {
    cwd: gatewayDir,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...process.env,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      DATABASE_URL: dbUrl.toString(),
      DATABASE_POOL_SIZE: process.env.BENCH_POOL_SIZE ?? '20',
      JWT_SECRET,
      INTERNAL_TOKEN,
      ENCRYPTION_KEY: randomBytes(32).toString('base64url'),
      OPENAI_API_KEY: 'sk-bench',
      OPENAI_BASE_URL: `http://127.0.0.1:${upstreamPort}/v1`,
      EXAM_SERVICE_URL: `http://127.0.0.1:${platformPort}`,
      RESULTS_SERVICE_URL: `http://127.0.0.1:${platformPort}`,
    },
  });
  children.push(gateway);
  await waitReady(port);

  console.log('warming up…');
  await openLoop(300, 100, () => viaGateway(port, PHASE1_TOKENS));
  await openLoop(300, 100, () => direct(upstreamPort, PHASE1_TOKENS));

  console.log(`phase 1: ${RATE} new chats/s for ${SECONDS} s through the gateway, and as many directly, interleaved`);
  const cpuBefore = cpuOf(gateway.pid!);
  let turn = 0;
  const mixed = await openLoop(RATE * SECONDS * 2, RATE * 2, () =>
    (turn++ & 1) === 0
      ? viaGateway(port, PHASE1_TOKENS).then((r) => ({ ...r, via: 'gw' }))
      : direct(upstreamPort, PHASE1_TOKENS).then((r) => ({ ...r, via: 'direct' })),
  );
  const gw = summary(mixed.filter((r) => (r as { via?: string }).via === 'gw'));
  const dr = summary(mixed.filter((r) => (r as { via?: string }).via === 'direct'));
  const cpuAfter = cpuOf(gateway.pid!);
  const cpuPerChatSplit = {
    user: (cpuAfter.user - cpuBefore.user) / gw.n,
    system: (cpuAfter.system - cpuBefore.system) / gw.n,
  };
  const cpuPerChat = cpuPerChatSplit.user + cpuPerChatSplit.system;

  console.log(`phase 2: ${STREAMS} concurrent streams of ${STREAM_TOKENS} tokens through the gateway`);
  let open = 0;
  let peak = 0;
  const streams = await openLoop(STREAMS, STREAMS / 2, () => {
    open += 1;
    peak = Math.max(peak, open);
    return viaGateway(port, STREAM_TOKENS).finally(() => (open -= 1));
  });
  const st = summary(streams);

  const row = (name: string, s: ReturnType<typeof summary>) =>
    `| ${name} | ${s.n} | ${s.failed} | ${s.p50.toFixed(2)} | ${s.p95.toFixed(2)} | ${s.p99.toFixed(2)} |`;
  console.log(
    [
      '',
      '| path | chats | failed or truncated | TTFT p50 ms | TTFT p95 ms | TTFT p99 ms |',
      '|---|---|---|---|---|---|',
      row(`direct to fake (${RATE}/s)`, dr),
      row(`through gateway (${RATE}/s)`, gw),
      `| **added by the gateway** | | | **${(gw.p50 - dr.p50).toFixed(2)}** | **${(gw.p95 - dr.p95).toFixed(2)}** | **${(gw.p99 - dr.p99).toFixed(2)}** |`,
      row(`${STREAMS} streams × ${STREAM_TOKENS} tokens (peak ${peak} open)`, st),
      '',
      `gateway CPU per chat (phase 1, ${PHASE1_TOKENS}-token replies): ${cpuPerChat.toFixed(2)} ms (user ${cpuPerChatSplit.user.toFixed(2)}, system ${cpuPerChatSplit.system.toFixed(2)})`,
      `load average: ${loadAtStart} at the start, ${loadNow()} at the end, on ${availableParallelism()} cores`,
      '',
    ].join('\n'),
  );
  for (const s of [dr, gw, st]) if (s.errors.length) console.log('errors:', s.errors);
  // One machine-readable line for bench/run.ts (which runs this twice, with and without --relay, to compare).
  const pick = (s: ReturnType<typeof summary>) => ({ n: s.n, failed: s.failed, p50: s.p50, p95: s.p95, p99: s.p99 });
  console.log(
    `BENCH_RESULT ${JSON.stringify({
      relay: args.relay,
      rate: RATE,
      seconds: SECONDS,
      added: { p50: gw.p50 - dr.p50, p95: gw.p95 - dr.p95, p99: gw.p99 - dr.p99 },
      direct: pick(dr),
      through: pick(gw),
      streams: { ...pick(st), count: STREAMS, tokens: STREAM_TOKENS },
      cpuPerChatMs: cpuPerChat,
    })}`,
  );
} finally {
  for (const child of children) child.kill('SIGTERM');
  await sleep(500);
  await admin.unsafe(`drop database if exists "${dbName}" with (force)`);
  await admin.end();
  agent.destroy();
}
