// Candidates' chat latency while an assistant audit runs in the same gateway process: new chats through the real
// llm-gateway at a fixed rate, alone and while an audit of a 20-item exam (fakes.ts BENCH_AUDIT_EXAM_ID) runs at
// `--concurrency` provider calls at once, in alternating phases of the same run (alone, during, during, alone…).
// The fake provider answers every call, chat or audit, after a fixed latency (FIRST_TOKEN_MS, then 20 tokens at
// TOKENS_PER_SECOND). The verdict is the chats' time-to-last-byte p99 during the audit over that p99 alone (goal
// ≤ 1.10); TTFT is printed beside it. Each "during" phase starts an audit, waits until its calls are streaming, and
// cancels it after the chats. Needs PostgreSQL.
// Usage: node bench/llm-gateway/audit-latency.ts [--rate 30] [--seconds 10] [--rounds 2] [--concurrency 4]
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { openLoop } from '../lib/open-loop.ts';
import { BENCH_AUDIT_EXAM_ID, BENCH_AUDIT_ITEMS } from './fakes.ts';
import { cpuOf, loadNow, sleep, startStack, summary, type Result, type Summary } from './harness.ts';

const { values: args } = parseArgs({
  options: {
    rate: { type: 'string', default: '30' },
    seconds: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '2' },
    concurrency: { type: 'string', default: '4' },
    tokens: { type: 'string', default: '20' },
    port: { type: 'string', default: '14333' },
  },
});
const RATE = Number(args.rate);
const SECONDS = Number(args.seconds);
const ROUNDS = Number(args.rounds);
const CONCURRENCY = Number(args.concurrency);
const TOKENS = Number(args.tokens);
const loadAtStart = loadNow();

type Audit = { id: string; status: string; progress: { done: number; total: number }; used: { calls: number } };

const stack = await startStack({ port: Number(args.port) });
try {
  const base = `http://127.0.0.1:${stack.port}/api/exams/${BENCH_AUDIT_EXAM_ID}/assistant-audits`;
  const api = async <T>(method: 'GET' | 'POST', path: string, body?: object): Promise<T> => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${stack.creatorToken()}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return JSON.parse(text) as T;
  };
  const latestAudit = async () => (await api<{ audit: Audit | null }>('GET', '/latest')).audit;
  const chats = () => openLoop<Result>(RATE * SECONDS, RATE, () => stack.viaGateway(TOKENS));
  const cpu = () => {
    const c = cpuOf(stack.gatewayPid);
    return c.user + c.system;
  };

  console.log('warming up…');
  await chats();

  const alone: Result[] = [];
  const during: Result[] = [];
  const perRound: Array<{ alone: number; during: number }> = [];
  const audits: Audit[] = [];
  let cpuAlone = 0;
  let cpuDuring = 0;
  const phaseAlone = async (round: number) => {
    console.log(`round ${round}: ${RATE} new chats/s for ${SECONDS} s alone`);
    const before = cpu();
    const results = await chats();
    cpuAlone += cpu() - before;
    alone.push(...results);
    perRound[round - 1] = { ...perRound[round - 1]!, alone: summary(results).p99t };
  };
  const phaseDuring = async (round: number) => {
    console.log(
      `round ${round}: the same while an audit of ${BENCH_AUDIT_ITEMS} items runs at concurrency ${CONCURRENCY}`,
    );
    const before = cpu();
    const started = await api<Audit>('POST', '', { concurrency: CONCURRENCY });
    // Every worker has its calls streaming (and some attempts recorded) before the chats start.
    await sleep(1500);
    const results = await chats();
    during.push(...results);
    perRound[round - 1] = { ...perRound[round - 1]!, during: summary(results).p99t };
    const seen = (await latestAudit())!;
    if (seen.id !== started.id || seen.status !== 'running')
      throw new Error(`the audit was not running through the phase: ${seen.status}`);
    await api<Audit>('POST', `/${started.id}/cancel`, {});
    for (let i = 0; i < 100; i++) {
      const audit = (await latestAudit())!;
      if (audit.status !== 'running') {
        audits.push(audit);
        break;
      }
      await sleep(100);
    }
    cpuDuring += cpu() - before;
  };
  for (let round = 1; round <= ROUNDS; round++) {
    perRound.push({ alone: NaN, during: NaN });
    if (round % 2 === 1) {
      await phaseAlone(round);
      await phaseDuring(round);
    } else {
      await phaseDuring(round);
      await phaseAlone(round);
    }
  }

  const a = summary(alone);
  const d = summary(during);
  const ratio = d.p99t / a.p99t;
  const roundRatios = perRound.map((r) => r.during / r.alone).sort((x, y) => x - y);
  const medianRatio =
    (roundRatios[Math.floor((roundRatios.length - 1) / 2)]! + roundRatios[Math.floor(roundRatios.length / 2)]!) / 2;
  const attemptsDone = audits.reduce((n, audit) => n + audit.progress.done, 0);
  const auditCalls = audits.reduce((n, audit) => n + audit.used.calls, 0);
  const auditSeconds = ROUNDS * (SECONDS + 1.5);
  const cpuPerChat = cpuAlone / a.n;
  const cpuPerAuditCall = (cpuDuring - cpuPerChat * d.n) / Math.max(1, auditCalls);
  const row = (name: string, s: Summary) =>
    `| ${name} | ${s.n} | ${s.failed} | ${s.p50.toFixed(1)} | ${s.p99.toFixed(1)} | ${s.p99t.toFixed(1)} |`;
  console.log(
    [
      '',
      '| chats through the gateway | n | failed | TTFT p50 ms | TTFT p99 ms | last byte p99 ms |',
      '|---|---|---|---|---|---|',
      row(`alone (${RATE}/s)`, a),
      row(`during the audit (concurrency ${CONCURRENCY})`, d),
      '',
      `time-to-last-byte p99 during / alone: ${ratio.toFixed(3)} (goal ≤ 1.10); TTFT p99 ${(d.p99 / a.p99).toFixed(3)}`,
      `per round, p99 alone → during: ${perRound.map((r) => `${r.alone.toFixed(0)} → ${r.during.toFixed(0)} ms`).join(', ')}; median of the rounds' ratios ${medianRatio.toFixed(3)}`,
      `audit: ${attemptsDone} attempts (${auditCalls} provider calls) in ${auditSeconds} s of phases, ${(auditCalls / auditSeconds).toFixed(1)} calls/s; ended ${audits.map((x) => x.status).join(', ')}`,
      `gateway CPU: ${cpuPerChat.toFixed(2)} ms per chat; ${cpuPerAuditCall.toFixed(2)} ms per audit call`,
      `load average: ${loadAtStart} at the start, ${loadNow()} at the end, on ${availableParallelism()} cores`,
      '',
    ].join('\n'),
  );
  for (const s of [a, d]) if (s.errors.length) console.log('errors:', s.errors);
  const pick = (s: Summary) => ({ n: s.n, failed: s.failed, p50: s.p50, p99: s.p99, p99total: s.p99t });
  console.log(
    `BENCH_RESULT ${JSON.stringify({
      rate: RATE,
      seconds: SECONDS,
      rounds: ROUNDS,
      concurrency: CONCURRENCY,
      items: BENCH_AUDIT_ITEMS,
      alone: pick(a),
      during: pick(d),
      ratio,
      ttftRatio: d.p99 / a.p99,
      perRound,
      medianRoundRatio: medianRatio,
      audit: { attempts: attemptsDone, calls: auditCalls, callsPerSecond: auditCalls / auditSeconds },
      cpuPerChatMs: cpuPerChat,
      cpuPerAuditCallMs: cpuPerAuditCall,
    })}`,
  );
} finally {
  await stack.close();
}
