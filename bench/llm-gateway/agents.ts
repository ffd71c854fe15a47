// Agent traffic through the gateway's agent endpoint (modules/agent-endpoint): workspace agents' Chat Completions
// calls (Qwen Code's format, "stop solutions" on) through the real gateway, interleaved at a fixed rate with the same
// call through the bare relay (relay.ts) and straight to the fake provider. The verdict is the gateway's added time to
// first token over the relay's (goal: within the chat path's, p50 ≤ +1.5 ms, p99 ≤ +15 ms) and the CPU each spends on a
// call (the gateway's ≤ 1.5× the relay's, both processes' utime + stime over the phase); then `--sessions` agent
// sessions at once, each making `--calls` streamed calls one after another, none dropped or truncated, every call
// stored. Needs PostgreSQL.
// Usage: node bench/llm-gateway/agents.ts [--rate 30] [--seconds 10] [--sessions 20] [--calls 5] [--tokens 50]
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import postgres from 'postgres';
import { openLoop } from '../lib/open-loop.ts';
import { attemptIdOn, BENCH_AGENT, BENCH_AGENT_EXAM_ID } from './fakes.ts';
import { chat, cpuOf, loadNow, sleep, startStack, summary, type Result } from './harness.ts';

const { values: args } = parseArgs({
  options: {
    rate: { type: 'string', default: '30' },
    seconds: { type: 'string', default: '10' },
    sessions: { type: 'string', default: '20' },
    calls: { type: 'string', default: '5' },
    tokens: { type: 'string', default: '50' },
    port: { type: 'string', default: '14317' },
    'relay-port': { type: 'string', default: '14318' },
  },
});
const RATE = Number(args.rate);
const SECONDS = Number(args.seconds);
const SESSIONS = Number(args.sessions);
const CALLS = Number(args.calls);
const TOKENS = Number(args.tokens);
const loadAtStart = loadNow();

const stack = await startStack({ port: Number(args.port) });
const relayPort = Number(args['relay-port']);
const relay = spawn(process.execPath, [fileURLToPath(new URL('./relay.ts', import.meta.url))], {
  stdio: ['ignore', 'inherit', 'inherit'],
  env: { ...process.env, PORT: String(relayPort), OPENAI_BASE_URL: `http://127.0.0.1:${stack.upstreamPort}/v1` },
});
for (let i = 0; i < 100; i++) {
  if (
    await fetch(`http://127.0.0.1:${relayPort}/ready`).then(
      (r) => r.ok,
      () => false,
    )
  )
    break;
  await sleep(100);
}

/** An agent's call: its system prompt and tools, the conversation so far and the new message. */
const agentBody = (tokens: number, turn: number) =>
  JSON.stringify({
    model: 'qwen3-coder-plus',
    stream: true,
    messages: [
      { role: 'system', content: 'You are Qwen Code, an interactive CLI agent. '.repeat(20) },
      ...Array.from({ length: turn }, (_, i) => [
        { role: 'user', content: `step ${i}` },
        { role: 'assistant', content: `done step ${i}` },
      ]).flat(),
      { role: 'user', content: `Explain. tokens=${tokens}` },
    ],
    tools: ['read_file', 'write_file', 'run_shell_command'].map((name) => ({
      type: 'function',
      function: { name, parameters: { type: 'object', properties: { path: { type: 'string' } } } },
    })),
  });
const viaGateway = (attemptId: string, tokens: number, turn = 0) =>
  chat(
    `http://127.0.0.1:${stack.port}/api/agent/v1/chat/completions`,
    { authorization: `Bearer ${stack.agentToken(attemptId, BENCH_AGENT_EXAM_ID, BENCH_AGENT)}` },
    agentBody(tokens, turn),
    tokens,
    false,
  );
const viaRelay = (tokens: number) => chat(`http://127.0.0.1:${relayPort}/`, {}, agentBody(tokens, 0), tokens, false);
const direct = (tokens: number) =>
  chat(`http://127.0.0.1:${stack.upstreamPort}/v1/chat/completions`, {}, agentBody(tokens, 0), tokens, false);

try {
  // Warm-up: connections, the gateway's prepared statements and JIT, the relay's too; 2 s of the phase's own calls,
  // so the CPU a call measures the path rather than its first compilation (10 calls of 3 tokens before 2026-11-29).
  await Promise.all(Array.from({ length: 10 }, () => viaGateway(attemptIdOn(BENCH_AGENT_EXAM_ID), 3)));
  await openLoop(RATE * 2 * 2, RATE * 2, (i) =>
    i % 2 === 0 ? viaGateway(attemptIdOn(BENCH_AGENT_EXAM_ID), TOKENS) : viaRelay(TOKENS),
  );

  // Phase 1: each arrival sends the same call three ways, in turn, at RATE per second.
  const gateway: Result[] = [];
  const relayed: Result[] = [];
  const straight: Result[] = [];
  const cpuBefore = cpuOf(stack.gatewayPid);
  const relayCpuBefore = cpuOf(relay.pid!);
  await openLoop(RATE * SECONDS * 3, RATE * 3, async (i) => {
    const which = i % 3;
    if (which === 0) gateway.push(await viaGateway(attemptIdOn(BENCH_AGENT_EXAM_ID), TOKENS));
    else if (which === 1) relayed.push(await viaRelay(TOKENS));
    else straight.push(await direct(TOKENS));
  });
  const cpuAfter = cpuOf(stack.gatewayPid);
  const relayCpuAfter = cpuOf(relay.pid!);
  const cpuPerCallMs = (cpuAfter.user + cpuAfter.system - cpuBefore.user - cpuBefore.system) / gateway.length;
  const relayCpuPerCallMs =
    (relayCpuAfter.user + relayCpuAfter.system - relayCpuBefore.user - relayCpuBefore.system) / relayed.length;
  const g = summary(gateway);
  const r = summary(relayed);
  const d = summary(straight);

  // Phase 2: SESSIONS agents at once, each a conversation of CALLS streamed calls, one after another.
  const sessionIds = Array.from({ length: SESSIONS }, () => attemptIdOn(BENCH_AGENT_EXAM_ID));
  const started = performance.now();
  const sessionResults = await Promise.all(
    sessionIds.map(async (attemptId) => {
      const results: Result[] = [];
      for (let turn = 0; turn < CALLS; turn++) results.push(await viaGateway(attemptId, 150, turn));
      return results;
    }),
  );
  const sessionSeconds = (performance.now() - started) / 1000;
  const all = sessionResults.flat();
  const s = summary(all);
  const db = postgres(stack.databaseUrl, { max: 1, onnotice: () => {} });
  const stored = await db<{ status: string; n: number }[]>`
    select status, count(*)::int as n from llm_gateway.agent_calls
    where attempt_id in ${db(sessionIds)} group by status`;
  const tokens = await db<{ n: number }[]>`
    select coalesce(sum(tokens_used), 0)::int as n from llm_gateway.conversations where attempt_id in ${db(sessionIds)}`;
  await db.end();
  const storedOk = stored.find((row) => row.status === 'ok')?.n ?? 0;

  const added = { p50: g.p50 - d.p50, p99: g.p99 - d.p99 };
  const relayAdded = { p50: r.p50 - d.p50, p99: r.p99 - d.p99 };
  const result = {
    rate: RATE,
    seconds: SECONDS,
    tokens: TOKENS,
    gateway: g,
    relay: r,
    direct: d,
    added,
    relayAdded,
    over: { p50: added.p50 - relayAdded.p50, p99: added.p99 - relayAdded.p99 },
    cpuPerCallMs,
    relayCpuPerCallMs,
    sessions: {
      count: SESSIONS,
      calls: CALLS,
      n: all.length,
      failed: s.failed,
      errors: s.errors,
      ttftP99: s.p99,
      seconds: Number(sessionSeconds.toFixed(1)),
      storedOk,
      stored: Object.fromEntries(stored.map((row) => [row.status, row.n])),
      tokensCounted: tokens[0]?.n ?? 0,
    },
    machine: { cores: availableParallelism(), loadAtStart, loadAtEnd: loadNow() },
    runId: randomUUID(),
  };
  console.log(
    `agent calls: gateway TTFT p50 ${g.p50.toFixed(1)} p99 ${g.p99.toFixed(1)} ms (${g.failed}/${g.n} failed); ` +
      `relay p50 ${r.p50.toFixed(1)} p99 ${r.p99.toFixed(1)}; direct p50 ${d.p50.toFixed(1)} p99 ${d.p99.toFixed(1)}; ` +
      `gateway over relay +${result.over.p50.toFixed(1)} / +${result.over.p99.toFixed(1)} ms; CPU ${cpuPerCallMs.toFixed(2)} ms a call (relay ${relayCpuPerCallMs.toFixed(2)})`,
  );
  console.log(
    `${SESSIONS} sessions × ${CALLS} calls: ${s.failed} of ${all.length} failed or truncated; ${storedOk} stored ok; ${sessionSeconds.toFixed(1)} s`,
  );
  console.log(`BENCH_RESULT ${JSON.stringify(result)}`);
} finally {
  relay.kill('SIGTERM');
  await stack.close();
}
