// The scale scenario: the scaled stack, a published live exam with the assistant on, N simulated candidates,
// and in the middle of their run one results-service replica and one llm-gateway replica SIGKILLed and
// restarted. Afterwards the database is checked against what the candidates were told, and the error rates
// are read per time window. scale.test.ts runs it short, bench/scale/run.ts long.
import type { ServiceName } from '../../packages/domain/src/service-routes.ts';
import { createCandidates, type CandidateRecord, type Operation } from './candidates.ts';
import { FAKE_REPLY, startFakeProvider } from './fake-provider.ts';
import { startScaleStack, type ScaleStack } from './harness.ts';
import { verifyDatabase, type DatabaseFindings } from './verify.ts';

export type ScenarioOptions = {
  adminDatabaseUrl: string;
  redisUrl?: string;
  basePort: number;
  candidates: number;
  /** From the first start to the kills. */
  beforeFaultMs: number;
  /** Between the kills and the restarts. */
  downMs: number;
  /** How long the candidates go on once the restarted replicas are back in the rotation. */
  afterMs: number;
  saveEveryMs: number;
  chatEveryMs: number;
  /** Between two words of the fake provider's reply. */
  replyDelayMs: number;
  log?: (line: string) => void;
};

export const FAULTS: Array<[ServiceName, number]> = [
  ['results-service', 0],
  ['llm-gateway', 0],
];

export type WindowName = 'before' | 'fault' | 'after';
export type WindowStats = {
  operations: number;
  firstTryFailures: number;
  clientFailures: number;
  /**
   * First tries that were in flight at the kill (sent before the killed processes were gone, failed after the
   * signal) and that no proxy may send
   * again: a chat message the dying gateway had taken (cut mid-reply, or no answer at all). The client asks
   * again with the same clientMessageId.
   */
  inFlightAtKill: number;
};

export type ScenarioReport = {
  options: ScenarioOptions;
  timeline: {
    startedAt: number;
    /** When SIGKILL was sent, and when both processes were seen gone (a request in between may still be taken). */
    killedAt: number;
    deadAt: number;
    restartedAt: number;
    backAt: number;
    endedAt: number;
  };
  windows: Record<WindowName, WindowStats>;
  byKind: Record<string, Record<WindowName, WindowStats>>;
  failures: Array<{ window: WindowName; kind: string; outcome: string; count: number }>;
  database: DatabaseFindings;
  proxy: Record<string, { retries: number; redispatches: number }>;
  violations: string[];
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function createLiveExam(stack: ScaleStack, questionCount: number): Promise<string> {
  const base = stack.proxyUrl('exam-service');
  const post = async (path: string, body: unknown, token?: string, method = 'POST') => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return response.json() as Promise<Record<string, unknown>>;
  };
  const creator = (await post('/api/auth/register', {
    email: `scale-${Date.now()}@scale.test`,
    password: 'scale-test-password',
  })) as { token: string };
  const questions = Array.from({ length: questionCount }, (_v, i) =>
    i % 2 === 0
      ? { id: `q${i}`, type: 'mcq', title: `Question ${i + 1}`, options: ['A', 'B', 'C'], correctAnswer: 'B' }
      : { id: `q${i}`, type: 'short-answer', title: `Question ${i + 1}`, acceptedAnswers: ['photosynthesis'] },
  );
  const { exam } = (await post(
    '/api/exams',
    {
      title: 'Scale test',
      isDraft: false,
      timerEnabled: true,
      timerMinutes: 120,
      questions,
      aiSettings: {
        enabled: true,
        provider: 'openai',
        model: 'gpt-4o-mini',
        // Room for every candidate's messages and their retries: the budgets are not under test here.
        budget: {
          messagesPerWindow: 1000,
          windowMinutes: 10,
          examRequestsPerHour: 100_000,
          examTokensPerHour: 100_000_000,
        },
      },
    },
    creator.token,
  )) as { exam: { id: string } };
  await post(`/api/exams/${exam.id}`, { isLive: true }, creator.token, 'PUT');
  return exam.id;
}

function windowOf(at: number, timeline: ScenarioReport['timeline']): WindowName {
  if (at < timeline.killedAt) return 'before';
  return at < timeline.backAt ? 'fault' : 'after';
}

/** POSTs haproxy does not send again once a replica took them (haproxy-config.ts); saves and submits it does. */
const NOT_REPEATABLE = new Set<Operation['kind']>(['start', 'chat']);

const emptyStats = (): WindowStats => ({ operations: 0, firstTryFailures: 0, clientFailures: 0, inFlightAtKill: 0 });

function tally(operations: Operation[], timeline: ScenarioReport['timeline']) {
  const windows: Record<WindowName, WindowStats> = { before: emptyStats(), fault: emptyStats(), after: emptyStats() };
  const byKind: ScenarioReport['byKind'] = {};
  const failureCounts = new Map<string, ScenarioReport['failures'][number]>();
  for (const op of operations) {
    const first = op.tries[0];
    if (!first) continue;
    // Counted where its first try ended: a reply cut by the kill belongs to the fault, though it began before.
    const window = windowOf(first.endedAt, timeline);
    byKind[op.kind] ??= { before: emptyStats(), fault: emptyStats(), after: emptyStats() };
    for (const stats of [windows[window], byKind[op.kind]![window]]) {
      stats.operations += 1;
      if (!first.ok) stats.firstTryFailures += 1;
      if (!op.ok) stats.clientFailures += 1;
      if (
        NOT_REPEATABLE.has(op.kind) &&
        !first.ok &&
        first.startedAt < timeline.deadAt &&
        first.endedAt >= timeline.killedAt
      )
        stats.inFlightAtKill += 1;
    }
    for (const t of op.tries.filter((t) => !t.ok)) {
      const key = `${windowOf(t.endedAt, timeline)}|${op.kind}|${t.outcome}`;
      const entry = failureCounts.get(key) ?? {
        window: windowOf(t.endedAt, timeline),
        kind: op.kind,
        outcome: t.outcome,
        count: 0,
      };
      entry.count += 1;
      failureCounts.set(key, entry);
    }
  }
  return { windows, byKind, failures: [...failureCounts.values()].sort((a, b) => b.count - a.count) };
}

export const rate = (part: number, whole: number) => (whole ? part / whole : 0);

/**
 * The pass conditions. During the fault fewer than 1% of the requests may fail as the client sees them
 * (after its retries), and fewer than 1% may fail even on the first try, except requests the killed replica
 * had already taken and no proxy may repeat (a chat message: its reply cut off, or never begun): those are
 * the client's to ask again, and the chat checks below hold them to "completed, once". After the replicas
 * are back nothing may fail at all.
 */
function judge(report: Omit<ScenarioReport, 'violations'>): string[] {
  const violations: string[] = [];
  const { fault, after } = report.windows;
  const visibleFault = rate(fault.clientFailures, fault.operations);
  if (visibleFault >= 0.01)
    violations.push(`client-visible failures during the fault ${(visibleFault * 100).toFixed(2)}% (≥ 1%)`);
  const firstTryFault = rate(fault.firstTryFailures - fault.inFlightAtKill, fault.operations);
  if (firstTryFault >= 0.01)
    violations.push(
      `first-try failures during the fault (those in flight at the kill aside) ${(firstTryFault * 100).toFixed(2)}% (≥ 1%)`,
    );
  if (after.firstTryFailures > 0 || after.clientFailures > 0)
    violations.push(
      `after the replicas were back: ${after.firstTryFailures} first-try and ${after.clientFailures} client-visible failures`,
    );
  if (fault.operations === 0) violations.push('no request was made during the fault: the test proved nothing');
  const db = report.database;
  if (db.lostAnswers.length)
    violations.push(`${db.lostAnswers.length} acknowledged answers lost: ${db.lostAnswers.slice(0, 3).join('; ')}`);
  if (db.submissionProblems.length)
    violations.push(`submissions not exactly once: ${db.submissionProblems.slice(0, 3).join('; ')}`);
  if (db.unsubmitted.length) violations.push(`${db.unsubmitted.length} candidates never got a submission acknowledged`);
  if (db.chatProblems.length) violations.push(`chats not completed: ${db.chatProblems.slice(0, 3).join('; ')}`);
  if (db.duplicatedChats.length)
    violations.push(`chat messages stored more than once: ${db.duplicatedChats.slice(0, 3).join('; ')}`);
  if (db.startsFailed) violations.push(`${db.startsFailed} candidates could not start their attempt`);
  return violations;
}

async function proxyCounters(stack: ScaleStack): Promise<ScenarioReport['proxy']> {
  const { retries } = await stack.proxyStats();
  return retries;
}

export async function runScenario(opts: ScenarioOptions): Promise<ScenarioReport> {
  const log = opts.log ?? ((line: string) => console.log(line));
  const provider = await startFakeProvider({ port: opts.basePort + 30, delayMs: opts.replyDelayMs });
  let stack: ScaleStack | undefined;
  let failed = true;
  try {
    stack = await startScaleStack({
      adminDatabaseUrl: opts.adminDatabaseUrl,
      basePort: opts.basePort,
      openAiBaseUrl: `http://127.0.0.1:${provider.port}/v1`,
      ...(opts.redisUrl ? { redisUrl: opts.redisUrl } : {}),
      log,
    });
    const running = stack;
    const questionCount = 8;
    const examId = await createLiveExam(running, questionCount);
    const candidates = createCandidates({ count: opts.candidates, url: running.proxyUrl });

    const timeline = {
      startedAt: Date.now(),
      killedAt: Infinity,
      deadAt: Infinity,
      restartedAt: Infinity,
      backAt: Infinity,
      endedAt: 0,
    };
    let finishEarly: () => void = () => undefined;
    let finishLate: () => void = () => undefined;
    const early = new Promise<void>((resolve) => (finishEarly = resolve));
    const late = new Promise<void>((resolve) => (finishLate = resolve));

    const faults = (async () => {
      await sleep(opts.beforeFaultMs);
      timeline.killedAt = Date.now();
      await Promise.all(FAULTS.map(([service, index]) => running.kill(service, index)));
      timeline.deadAt = Date.now();
      log(`[scale] SIGKILLed ${FAULTS.map(([s, i]) => `${s}#${i}`).join(' and ')}`);
      // A third of the candidates submit while the replicas are down.
      setTimeout(finishEarly, Math.min(1000, opts.downMs / 2));
      await sleep(opts.downMs);
      timeline.restartedAt = Date.now();
      await Promise.all(FAULTS.map(([service, index]) => running.restart(service, index)));
      timeline.backAt = Date.now();
      log(
        `[scale] restarted; back in the rotation after ${((timeline.backAt - timeline.killedAt) / 1000).toFixed(1)} s`,
      );
      await sleep(opts.afterMs);
      finishLate();
    })();

    await Promise.all([
      faults,
      candidates.run((record: CandidateRecord) => ({
        examId,
        questionCount,
        finish: record.index % 3 === 0 ? early : late,
        saveEveryMs: opts.saveEveryMs,
        chatEveryMs: opts.chatEveryMs,
        startWithinMs: opts.beforeFaultMs / 2,
      })),
    ]);
    timeline.endedAt = Date.now();

    const database = await verifyDatabase(running.databaseUrl, candidates.records, FAKE_REPLY, questionCount);
    const partial = {
      options: opts,
      timeline,
      ...tally(candidates.operations, timeline),
      database,
      proxy: await proxyCounters(running),
    };
    const violations = judge(partial);
    failed = violations.length > 0;
    return { ...partial, violations };
  } finally {
    await stack?.stop({ keepLogs: failed || process.env.SCALE_KEEP_LOGS === '1' });
    await provider.close();
  }
}
