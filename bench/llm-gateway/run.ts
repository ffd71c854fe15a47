// Added time to first token of the llm-gateway in front of a fake OpenAI-compatible upstream (300 ms to the
// first token, then 50 tokens/s), against calling the fake directly in the same run; then 2,000 concurrent
// streams through the gateway, each checked token by token. Needs PostgreSQL (BENCH_DATABASE_URL).
// Usage: node bench/llm-gateway/run.ts [--rate 300] [--seconds 20] [--streams 2000] [--stream-tokens 150] [--phase1-tokens 20]
//        [--relay]: a bare relay (relay.ts) in the gateway's place, to show the floor of one extra hop on this box.
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { openLoop } from '../lib/open-loop.ts';
import { cpuOf, loadNow, startStack, summary, type Summary } from './harness.ts';

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

const stack = await startStack({ port: Number(args.port), relay: args.relay });
try {
  console.log('warming up…');
  await openLoop(300, 100, () => stack.viaGateway(PHASE1_TOKENS));
  await openLoop(300, 100, () => stack.direct(PHASE1_TOKENS));

  console.log(`phase 1: ${RATE} new chats/s for ${SECONDS} s through the gateway, and as many directly, interleaved`);
  const cpuBefore = cpuOf(stack.gatewayPid);
  let turn = 0;
  const mixed = await openLoop(RATE * SECONDS * 2, RATE * 2, () =>
    (turn++ & 1) === 0
      ? stack.viaGateway(PHASE1_TOKENS).then((r) => ({ ...r, via: 'gw' }))
      : stack.direct(PHASE1_TOKENS).then((r) => ({ ...r, via: 'direct' })),
  );
  const gw = summary(mixed.filter((r) => (r as { via?: string }).via === 'gw'));
  const dr = summary(mixed.filter((r) => (r as { via?: string }).via === 'direct'));
  const cpuAfter = cpuOf(stack.gatewayPid);
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
    return stack.viaGateway(STREAM_TOKENS).finally(() => (open -= 1));
  });
  const st = summary(streams);

  const row = (name: string, s: Summary) =>
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
  const pick = (s: Summary) => ({ n: s.n, failed: s.failed, p50: s.p50, p95: s.p95, p99: s.p99 });
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
  await stack.close();
}
