// Capacity per box (bench/README.md, "Capacity per box"): how many candidates sitting an exam at once this
// machine serves with answer saves' p99 ≤ 100 ms and no errors, and the CPU-milliseconds each service spends per
// candidate-minute, against the embedded default (`pnpm start`) and the scale stack on PostgreSQL.
//
//   node bench/capacity/run.ts [--stack postgres|embedded|both] [--steps 250,500,1000,2000,3000,5000,7000]
//     [--embedded-steps 50,100,250,500,1000]
//     [--ramp 30] [--hold 60] [--settle 5] [--save-every 10] [--live-every 4] [--events-every 30]
//     [--chat-every 120] [--reply-delay 30] [--submit-seconds 20] [--port-offset 800]
//
// Candidates are simulated in open loop by a separate process (generator.ts: what each one sends, and how often).
// The candidate count is stepped: each step starts the new candidates over --ramp seconds, lets the stack settle,
// then measures for the rest of --hold (latencies by kind, errors, CPU of every process by name from /proc, the
// load average); the first step that misses p99 ≤ 100 ms or has an error ends the search. At the end every
// candidate submits, spread over --submit-seconds. The load generator runs on the same 2 cores as the stack: its
// CPU is read and reported apart, and the model (model.ts) says what the services alone would hold.
import { fork } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startFakeProvider } from '../../scripts/scale/fake-provider.ts';
import { cpuShares, cpuSnapshot } from '../lib/machine-cpu.ts';
import { sample, spentByName } from './cpu.ts';
import type { Command, GeneratorConfig, Report } from './generator.ts';
import { modelOf, type StepCpu } from './model.ts';
import { startEmbedded, startPostgres, type Stack, type StatementStats } from './stacks.ts';

const { values: args } = parseArgs({
  options: {
    stack: { type: 'string', default: 'postgres' },
    steps: { type: 'string', default: '250,500,1000,2000,3000,5000,7000' },
    /** The embedded stack's steps (it holds far fewer); --steps when not given. */
    'embedded-steps': { type: 'string' },
    ramp: { type: 'string', default: '30' },
    hold: { type: 'string', default: '60' },
    settle: { type: 'string', default: '5' },
    idle: { type: 'string', default: '15' },
    'save-every': { type: 'string', default: '10' },
    'live-every': { type: 'string', default: '4' },
    'events-every': { type: 'string', default: '30' },
    'chat-every': { type: 'string', default: '120' },
    'reply-delay': { type: 'string', default: '30' },
    'submit-seconds': { type: 'string', default: '20' },
    'port-offset': { type: 'string', default: '800' },
    connections: { type: 'string', default: '256' },
    'per-exam': { type: 'string', default: '500' },
    'hall-size': { type: 'string', default: '200' },
    'p99-goal': { type: 'string', default: '100' },
  },
});
const stepsOf = (kind: string) =>
  (kind === 'embedded' && args['embedded-steps'] ? args['embedded-steps'] : args.steps).split(',').map(Number);
const seconds = (name: keyof typeof args) => Number(args[name]) * 1000;
const rampMs = seconds('ramp');
const holdMs = seconds('hold');
const settleMs = seconds('settle');
const p99Goal = Number(args['p99-goal']);
const portOffset = Number(args['port-offset']);
const stacks = args.stack === 'both' ? ['postgres', 'embedded'] : [args.stack];
const QUESTIONS = 8;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const load = () => loadavg().map((l) => Math.round(l * 10) / 10);

async function createExams(origin: string, count: number): Promise<string[]> {
  const call = async (method: string, path: string, body: unknown, token?: string) => {
    const response = await fetch(`${origin}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as Record<string, unknown>;
  };
  const { token } = (await call('POST', '/api/auth/register', {
    email: `capacity-${Date.now()}@bench.test`,
    password: 'capacity-bench-password',
  })) as { token: string };
  const questions = Array.from({ length: QUESTIONS }, (_v, i) =>
    i % 2 === 0
      ? { id: `q${i}`, type: 'mcq', title: `Question ${i + 1}`, options: ['A', 'B', 'C'], correctAnswer: 'B' }
      : { id: `q${i}`, type: 'short-answer', title: `Question ${i + 1}`, acceptedAnswers: ['photosynthesis'] },
  );
  const exams: string[] = [];
  for (let i = 0; i < count; i++) {
    const { exam } = (await call(
      'POST',
      '/api/exams',
      {
        title: `Capacity ${i + 1}`,
        isDraft: false,
        timerEnabled: true,
        timerMinutes: 180,
        questions,
        aiSettings: {
          enabled: true,
          provider: 'openai',
          model: 'gpt-4o-mini',
          // The exam's own budgets sized for its candidates (a chat each 2 minutes): budgets are not under test.
          budget: {
            messagesPerWindow: 1000,
            windowMinutes: 10,
            examRequestsPerHour: 100_000,
            examTokensPerHour: 100_000_000,
          },
        },
      },
      token,
    )) as { exam: { id: string } };
    await call('PUT', `/api/exams/${exam.id}`, { isLive: true }, token);
    exams.push(exam.id);
  }
  return exams;
}

type Generator = ReturnType<typeof startGenerator>;
function startGenerator() {
  const child = fork(fileURLToPath(new URL('./generator.ts', import.meta.url)), [], { stdio: 'inherit' });
  const waiting = new Map<string, (message: { report?: Report }) => void>();
  child.on('message', (message: { type: string; report?: Report }) => {
    waiting.get(message.type)?.(message);
    waiting.delete(message.type);
  });
  const ask = (command: Command, answer: string, timeoutMs = 120_000) =>
    new Promise<{ report?: Report }>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the generator did not answer ${command.type}`)), timeoutMs);
      waiting.set(answer, (m) => {
        clearTimeout(timer);
        resolve(m);
      });
      child.send(command);
    });
  return { pid: child.pid!, ask, exit: () => child.send({ type: 'exit' } satisfies Command) };
}

type StepResult = {
  candidates: number;
  started: number;
  windowSeconds: number;
  load: { before: number[]; after: number[] };
  machine: { busyPct: number; stealPct: number };
  report: Report;
  cpuMs: Record<string, number>;
  /** Above the idle stack's own: what the candidates cost. */
  cpuMsPerCandidateMinute: Record<string, number>;
  requestsPerCandidateMinute: Record<string, number>;
  /** Candidates served in the window, counted by their saves: the per-candidate figures' basis. */
  served: number;
  /** pg_stat_statements over the window, when the server has it: the statements taking the most time. */
  statements?: StatementRow[];
  passed: boolean;
  why: string[];
};

type StatementRow = { query: string; callsPerCandidateMinute: number; msPerCandidateMinute: number; meanMs: number };

/** The window's statements by time executing (pg_stat_statements' total_exec_time), per candidate-minute. */
function statementsOver(
  before: StatementStats | null,
  after: StatementStats | null,
  candidateMinutes: number,
): StatementRow[] | undefined {
  if (!before || !after) return undefined;
  const rows: StatementRow[] = [];
  for (const [id, now] of after) {
    const then = before.get(id) ?? { calls: 0, totalMs: 0 };
    const calls = now.calls - then.calls;
    const ms = now.totalMs - then.totalMs;
    if (calls <= 0) continue;
    rows.push({
      query: now.query.replace(/\s+/g, ' ').slice(0, 160),
      callsPerCandidateMinute: Math.round((calls / candidateMinutes) * 100) / 100,
      msPerCandidateMinute: Math.round((ms / candidateMinutes) * 100) / 100,
      meanMs: Math.round((ms / calls) * 1000) / 1000,
    });
  }
  return rows.sort((a, b) => b.msPerCandidateMinute - a.msPerCandidateMinute).slice(0, 10);
}

function judge(report: Report): string[] {
  const why: string[] = [];
  const save = report.kinds.save;
  if (save.p99 > p99Goal) why.push(`save p99 ${save.p99} ms > ${p99Goal} ms`);
  for (const [kind, stats] of Object.entries(report.kinds))
    if (stats.failed > 0)
      why.push(`${stats.failed} ${kind} errors (${stats.failures.map((f) => `${f.count}× ${f.what}`).join('; ')})`);
  if (save.requests === 0) why.push('no save was made in the window');
  return why;
}

async function measureStack(kind: string) {
  const steps = stepsOf(kind);
  const provider = await startFakeProvider({ port: 0, delayMs: Number(args['reply-delay']) });
  let stack: Stack | undefined;
  let generator: Generator | undefined;
  const results: StepResult[] = [];
  let submit: Report | undefined;
  let idle: Record<string, number> = {};
  try {
    const started = Date.now();
    stack =
      kind === 'embedded'
        ? await startEmbedded({ portOffset, providerPort: provider.port })
        : await startPostgres({
            portOffset,
            providerPort: provider.port,
            adminDatabaseUrl:
              process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test',
            ...((process.env.REDIS_URL ?? process.env.TEST_REDIS_URL)
              ? { redisUrl: (process.env.REDIS_URL ?? process.env.TEST_REDIS_URL)! }
              : {}),
          });
    console.log(`[capacity] ${kind} stack up in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    const perExam = Number(args['per-exam']);
    const exams = await createExams(stack.examOrigin, Math.ceil(Math.max(...steps) / perExam));
    generator = startGenerator();
    const config: GeneratorConfig = {
      resultsOrigin: stack.resultsOrigin,
      gatewayOrigin: stack.gatewayOrigin,
      exams,
      candidatesPerExam: perExam,
      hallSize: Number(args['hall-size']),
      questionCount: QUESTIONS,
      saveEveryMs: seconds('save-every'),
      liveEveryMs: seconds('live-every'),
      eventsEveryMs: seconds('events-every'),
      chatEveryMs: seconds('chat-every'),
      savesPerQuestion: 6,
      connections: Number(args.connections),
    };
    await generator.ask({ type: 'config', config }, 'ready');
    const generatorPid = generator.pid;
    const everyone = async () => [
      ...(await stack!.processes()),
      { pid: generatorPid, name: 'load generator' },
      { pid: process.pid, name: 'fake provider + harness' },
    ];

    // The stack's own CPU with nobody sitting (timers, health checks, pools): subtracted from each step, so the
    // per-candidate figure is what one more candidate costs; the model adds the idle cost back once.
    const idleBefore = sample(await everyone());
    await sleep(seconds('idle'));
    idle = perMinute(spentByName(idleBefore, sample(await everyone())), seconds('idle') / 60_000);
    console.log(`[capacity] ${kind} idle CPU-ms per minute: ${JSON.stringify(idle)}`);

    for (const count of steps) {
      await generator.ask({ type: 'grow', to: count, overMs: rampMs }, 'growing');
      await sleep(rampMs + settleMs);
      const loadBefore = load();
      const machineBefore = cpuSnapshot();
      const before = sample(await everyone());
      const statementsBefore = (await stack.statements?.()) ?? null;
      await generator.ask({ type: 'reset' }, 'reset');
      await sleep(Math.max(5000, holdMs - settleMs));
      const { report } = await generator.ask({ type: 'report' }, 'report');
      const after = sample(await everyone());
      const statementsAfter = (await stack.statements?.()) ?? null;
      const machine = cpuShares(machineBefore, cpuSnapshot());
      const r = report!;
      const minutes = r.windowMs / 60_000;
      const cpuMs = spentByName(before, after);
      // The candidates the window actually served, counted by their saves (one every --save-every): on a box too
      // busy to start everyone within the ramp, the planned count would spread the CPU over candidates not there.
      const saveEverySeconds = Number(args['save-every']);
      const served =
        saveEverySeconds > 0
          ? Math.min(r.active, r.kinds.save.requests / ((minutes * 60) / saveEverySeconds))
          : r.active;
      const perCandidateMinute = Object.fromEntries(
        Object.entries(cpuMs).map(([name, ms]) => [
          name,
          Math.round((Math.max(0, ms - (idle[name] ?? 0) * minutes) / (served * minutes)) * 100) / 100,
        ]),
      );
      const requestsPerCandidateMinute = Object.fromEntries(
        Object.entries(r.kinds).map(([k, s]) => [k, Math.round((s.requests / (served * minutes)) * 100) / 100]),
      );
      const why = judge(r);
      const step: StepResult = {
        candidates: count,
        started: r.started,
        windowSeconds: Math.round(r.windowMs / 100) / 10,
        load: { before: loadBefore, after: load() },
        machine: { busyPct: machine.busyPct, stealPct: machine.stealPct },
        report: r,
        cpuMs,
        cpuMsPerCandidateMinute: perCandidateMinute,
        requestsPerCandidateMinute,
        statements: statementsOver(statementsBefore, statementsAfter, served * minutes),
        served: Math.round(served),
        passed: why.length === 0,
        why,
      };
      results.push(step);
      printStep(kind, step);
      if (!step.passed) break;
    }
    const active = results.at(-1)?.candidates ?? 0;
    submit = (await generator.ask({ type: 'submit', overMs: seconds('submit-seconds') }, 'submitted', 300_000)).report;
    console.log(
      `[capacity] ${kind}: ${submit!.kinds.submit.ok} of ${submit!.kinds.submit.requests} submissions acknowledged (${active} candidates), p50 ${submit!.kinds.submit.p50} ms, p99 ${submit!.kinds.submit.p99} ms${submit!.kinds.submit.failures.length ? `; ${submit!.kinds.submit.failures.map((f) => `${f.count}× ${f.what}`).join('; ')}` : ''}`,
    );
  } finally {
    generator?.exit();
    await stack?.stop();
    await provider.close();
  }
  const passed = results.filter((s) => s.passed);
  const best = passed.at(-1);
  // The CPU per candidate-minute of the largest step that held: the model's input (the steady figure; a step
  // past the knee adds queueing, not work).
  const basis = best ?? results[0];
  return {
    stack: kind,
    capacity: best?.candidates ?? 0,
    firstFailed: results.find((s) => !s.passed)?.candidates ?? null,
    steps: results.map(({ report, ...s }) => ({
      ...s,
      save: pick(report.kinds.save),
      kinds: Object.fromEntries(Object.entries(report.kinds).map(([k, v]) => [k, pick(v)])),
      chatFirstByte: report.chatFirstByte,
      generatorLoopDelayMs: report.loopDelayMs,
    })),
    submissions: submit ? { ...pick(submit.kinds.submit), failures: submit.kinds.submit.failures } : null,
    idleCpuMsPerMinute: idle,
    model: basis ? modelOf(kind, basis as StepCpu, basis.candidates, idle) : null,
  };
}

const perMinute = (spent: Record<string, number>, minutes: number) =>
  Object.fromEntries(Object.entries(spent).map(([name, ms]) => [name, Math.round(ms / minutes)]));

const pick = (s: Report['kinds']['save']) => ({
  requests: s.requests,
  ok: s.ok,
  failed: s.failed,
  pending: s.pending,
  p50: s.p50,
  p99: s.p99,
  max: s.max,
});

function printStep(kind: string, s: StepResult) {
  const r = s.report;
  const k = r.kinds;
  console.log(
    `\n[capacity] ${kind} ${s.candidates} candidates (${r.active} active, ${r.started} started, ${s.served} served by their saves), ${s.windowSeconds} s window, load ${s.load.before.join(' ')} → ${s.load.after.join(' ')}, machine busy ${s.machine.busyPct}% (steal ${s.machine.stealPct}%): ${s.passed ? 'HELD' : `MISSED: ${s.why.join('; ')}`}`,
  );
  for (const [name, stats] of Object.entries(k))
    if (stats.requests)
      console.log(
        `    ${name.padEnd(7)} ${String(stats.requests).padStart(7)} req  ${String(s.requestsPerCandidateMinute[name]).padStart(5)}/cand-min  p50 ${String(stats.p50).padStart(7)} ms  p99 ${String(stats.p99).padStart(7)} ms  max ${String(stats.max).padStart(7)} ms  failed ${stats.failed}${stats.pending ? `  pending ${stats.pending}` : ''}`,
      );
  console.log(
    `    chat first byte p50 ${r.chatFirstByte.p50} ms, p99 ${r.chatFirstByte.p99} ms; generator event-loop delay p99 ${r.loopDelayMs.p99} ms (max ${r.loopDelayMs.max})`,
  );
  console.log('    CPU-ms per candidate-minute:');
  for (const [name, ms] of Object.entries(s.cpuMsPerCandidateMinute).sort((a, b) => b[1] - a[1]))
    if (ms > 0) console.log(`      ${name.padEnd(34)} ${String(ms).padStart(8)}`);
  if (s.statements) {
    console.log('    statements by time executing (pg_stat_statements): ms / calls per candidate-minute, mean ms');
    for (const st of s.statements)
      console.log(
        `      ${String(st.msPerCandidateMinute).padStart(7)} ${String(st.callsPerCandidateMinute).padStart(6)} ${String(st.meanMs).padStart(7)}  ${st.query}`,
      );
  }
}

const out: Record<string, unknown> = {
  cores: availableParallelism(),
  loadAtStart: load(),
  mix: {
    saveEverySeconds: Number(args['save-every']),
    liveEverySeconds: Number(args['live-every']),
    eventsEverySeconds: Number(args['events-every']),
    chatEverySeconds: Number(args['chat-every']),
    replyDelayMs: Number(args['reply-delay']),
  },
  steps: stepsOf('postgres'),
  embeddedSteps: stepsOf('embedded'),
  rampSeconds: rampMs / 1000,
  holdSeconds: holdMs / 1000,
  p99Goal,
  stacks: {} as Record<string, unknown>,
};
for (const kind of stacks) {
  try {
    (out.stacks as Record<string, unknown>)[kind] = await measureStack(kind);
  } catch (err) {
    console.error(`[capacity] ${kind} stack failed: ${(err as Error).stack}`);
    (out.stacks as Record<string, unknown>)[kind] = { stack: kind, error: (err as Error).message.slice(0, 400) };
  }
}
out.loadAtEnd = load();
for (const [kind, r] of Object.entries(out.stacks as Record<string, { capacity?: number; model?: unknown }>))
  console.log(
    `\n[capacity] ${kind}: ${r.capacity ?? '—'} concurrent candidates held; model ${JSON.stringify(r.model)}`,
  );
console.log(`BENCH_RESULT ${JSON.stringify(out)}`);
// The fake provider's sockets and the generator's IPC channel must not keep the process alive.
process.exit(0);
