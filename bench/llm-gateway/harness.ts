// What the llm-gateway benchmarks share: a throw-away database, the fakes (fakes.ts) and a real gateway process
// (or the bare relay) started as production starts it, candidates' chats streamed through it or straight to the
// fake, and the figures taken from them.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { attemptIdOn, BENCH_CREATOR_SESSION, BENCH_EXAM_ID, BENCH_OWNER_ID, tokenText } from './fakes.ts';

const gatewayDir = fileURLToPath(new URL('../../services/llm-gateway/', import.meta.url));
export const agent = new Agent({ keepAlive: true, maxSockets: Infinity });

export type Result = {
  ok: boolean;
  ttftMs: number;
  totalMs: number;
  tokens: number;
  complete: boolean;
  error?: string;
};

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

/** One streamed chat; TTFT is from sending the request to the first token's bytes, total to the stream's end. */
export function chat(
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
    const failed = (error: string) => resolve({ ok: false, ttftMs, totalMs: -1, tokens: 0, complete: false, error });
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
          const totalMs = performance.now() - started;
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
            totalMs,
            tokens: reply.length ? reply.split(' ').length - 1 : 0,
            complete: complete && reply === expected,
            ...(res.statusCode === 200 ? {} : { error: `${res.statusCode} ${text.slice(0, 200)}` }),
          });
        });
        res.on('error', (err) => failed(err.message));
      },
    );
    req.on('error', (err) => failed(err.message));
    req.end(body);
  });
}

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

/** Up to 60 s: on a box loaded by other work (load 20+), the niced gateway's start alone took over 20 s. */
async function waitReady(port: number) {
  for (let i = 0; i < 600; i++) {
    const ok = await fetch(`http://127.0.0.1:${port}/ready`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return;
    await sleep(100);
  }
  throw new Error('gateway did not become ready');
}

/** CPU time a process has used, in ms (utime and stime from /proc, 100 ticks per second). */
export function cpuOf(pid: number): { user: number; system: number } {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return { user: Number(fields[11]) * 10, system: Number(fields[12]) * 10 };
}

export const loadNow = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

const countBy = (items: string[]) =>
  Object.entries(Object.groupBy(items, (i) => i.slice(0, 80))).map(([k, v]) => `${v?.length ?? 0} × ${k}`);

/** Count, failures and TTFT percentiles of some chats (p99t: the total time's p99). */
export function summary(results: Result[]) {
  const ok = results.filter((r) => r.ok && r.ttftMs >= 0);
  const ttft = ok.map((r) => r.ttftMs).sort((a, b) => a - b);
  const total = ok.map((r) => r.totalMs).sort((a, b) => a - b);
  return {
    n: results.length,
    failed: results.filter((r) => !r.ok || !r.complete).length,
    p50: percentile(ttft, 50),
    p95: percentile(ttft, 95),
    p99: percentile(ttft, 99),
    p99t: percentile(total, 99),
    errors: countBy(
      results
        .filter((r) => !r.ok || !r.complete)
        .map((r) => r.error ?? (r.ok ? `cut after ${r.tokens} tokens` : 'failed')),
    ),
  };
}
export type Summary = ReturnType<typeof summary>;

/**
 * A throw-away database, the fakes and the gateway (or, with `relay`, relay.ts in its place) on `port`; `close`
 * stops them and drops the database. Needs PostgreSQL (BENCH_DATABASE_URL); BENCH_CPU_PROF=<dir> profiles the
 * gateway, BENCH_POOL_SIZE sets its PostgreSQL pool.
 */
export async function startStack(opts: { port: number; relay?: boolean }) {
  const baseDb = process.env.BENCH_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';
  const jwtSecret = randomBytes(32).toString('base64url');
  const internalToken = randomBytes(32).toString('base64url');
  const dbName = `llm_gateway_bench_${process.pid}`;
  const admin = postgres(baseDb, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${dbName}"`);
  const dbUrl = new URL(baseDb);
  dbUrl.pathname = `/${dbName}`;
  const children: ChildProcess[] = [];
  const close = async () => {
    for (const child of children) child.kill('SIGTERM');
    await sleep(500);
    await admin.unsafe(`drop database if exists "${dbName}" with (force)`);
    await admin.end();
    agent.destroy();
  };
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
    const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
    // BENCH_GATEWAY_FLAGS: more node/V8 flags for the gateway alone (e.g. `--perf-basic-prof-only-functions`, `--trace-deopt`).
    profile.push(...(process.env.BENCH_GATEWAY_FLAGS?.split(' ').filter(Boolean) ?? []));
    const entry = opts.relay ? fileURLToPath(new URL('./relay.ts', import.meta.url)) : 'src/server.ts';
    const gateway = spawn(process.execPath, [...profile, entry], {
      cwd: gatewayDir,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: {
        ...process.env,
        PORT: String(opts.port),
        LOG_LEVEL: 'warn',
        DATABASE_URL: dbUrl.toString(),
        DATABASE_POOL_SIZE: process.env.BENCH_POOL_SIZE ?? '20',
        JWT_SECRET: jwtSecret,
        INTERNAL_TOKEN: internalToken,
        ENCRYPTION_KEY: randomBytes(32).toString('base64url'),
        OPENAI_API_KEY: 'sk-bench',
        OPENAI_BASE_URL: `http://127.0.0.1:${upstreamPort}/v1`,
        EXAM_SERVICE_URL: `http://127.0.0.1:${platformPort}`,
        RESULTS_SERVICE_URL: `http://127.0.0.1:${platformPort}`,
        WORKSPACE_ORCHESTRATOR_URL: `http://127.0.0.1:${platformPort}`,
      },
    });
    children.push(gateway);
    await waitReady(opts.port);

    const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const attemptToken = (attemptId: string, examId: string) => {
      const now = Math.floor(Date.now() / 1000);
      const head = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ kind: 'attempt', sub: attemptId, examId, ownerId: BENCH_OWNER_ID, name: 'Bench', studentId: 'B-1', iat: now, exp: now + 3600 })}`;
      return `${head}.${createHmac('sha256', jwtSecret).update(head).digest('base64url')}`;
    };
    /** The benchmark creator's token (the fake exam-service answers its session as open). */
    const creatorToken = () => {
      const now = Math.floor(Date.now() / 1000);
      const head = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ kind: 'creator', sub: BENCH_OWNER_ID, email: 'bench@example.test', sid: BENCH_CREATOR_SESSION, iat: now, exp: now + 3600 })}`;
      return `${head}.${createHmac('sha256', jwtSecret).update(head).digest('base64url')}`;
    };
    /** A workspace's agent token, as workspace-orchestrator signs it (workspace-agents.ts). */
    const agentToken = (attemptId: string, examId: string, agentName: string) => {
      const now = Math.floor(Date.now() / 1000);
      const head = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ kind: 'workspace-agent', sub: attemptId, examId, sessionId: `ws-${attemptId}`, agent: agentName, iat: now, exp: now + 3600 })}`;
      return `${head}.${createHmac('sha256', jwtSecret).update(head).digest('base64url')}`;
    };
    return {
      gatewayPid: gateway.pid!,
      creatorToken,
      agentToken,
      port: opts.port,
      /** The gateway's own database (its PostgreSQL backends are those connected to it). */
      databaseName: dbName,
      /** The throw-away database's URL, for a benchmark that reads what the gateway stored. */
      databaseUrl: dbUrl.toString(),
      upstreamPort,
      internalToken,
      /**
       * A new attempt's first message, through the gateway (the worst case: a token it has not seen), on the
       * benchmark's exam or another the fakes serve (fakes.ts: the attempt's id names its exam).
       */
      viaGateway: (tokens: number, examId = BENCH_EXAM_ID) =>
        chat(
          `http://127.0.0.1:${opts.port}/api/llm/chat`,
          { authorization: `Bearer ${attemptToken(attemptIdOn(examId), examId)}` },
          JSON.stringify({ message: `Explain. tokens=${tokens}`, questionIndex: 0 }),
          tokens,
          !opts.relay,
        ),
      /** The same reply asked of the fake directly. */
      direct: (tokens: number) =>
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
        ),
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
