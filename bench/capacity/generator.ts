// The load generator of bench/capacity/run.ts, in a process of its own (forked, driven over IPC) so its CPU is
// read apart from the services'. Open loop: every request has a planned moment on the clock (candidates start
// over a ramp, each candidate's saves, polls, events and chats recur at their interval with jitter) and is sent
// then whatever earlier requests are doing; its latency counts from the planned moment, so a slow stack cannot
// hide its queue by slowing the candidates down (bench/lib/open-loop.ts says why).
//
// What one candidate's page sends (apps/taker-web/src/features/exam): the start (POST /api/attempts) and the
// exam's questions (GET …/exam); an answer save (PUT …/answers/{i}) every SAVE interval carrying the edit
// operations typed since the last one (short answers: 5–20 coalesced words with per-key timing, the page's
// compact form; choices: the option alone); the live poll (GET …/live, LIVE_POLL_MS); proctoring events
// (POST …/events: focus lost and back, full screen left and back, and a question-view at each move to the next
// question, batched as the page's one-second debounce does); a chat message to the assistant (POST
// /api/llm/chat, read to its `done` event); the submission at the end. Workspaces are not simulated.
import { randomUUID } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Pool } from 'undici';
import { pageOperations } from '../results-service/operations.ts';

export type GeneratorConfig = {
  resultsOrigin: string;
  gatewayOrigin: string;
  exams: string[];
  /** Candidates of one exam (consecutive indexes), so no exam meets its per-exam start limit. */
  candidatesPerExam: number;
  /** Candidates behind one address (an exam hall's NAT), sent as X-Forwarded-For from the trusted 127.0.0.1. */
  hallSize: number;
  questionCount: number;
  saveEveryMs: number;
  liveEveryMs: number;
  eventsEveryMs: number;
  chatEveryMs: number;
  /** Saves on one question before the candidate moves to the next. */
  savesPerQuestion: number;
  connections: number;
};

export type Command =
  | { type: 'config'; config: GeneratorConfig }
  | { type: 'grow'; to: number; overMs: number }
  | { type: 'reset' }
  | { type: 'report' }
  | { type: 'submit'; overMs: number }
  | { type: 'exit' };

export const KINDS = ['start', 'exam', 'save', 'live', 'events', 'chat', 'submit'] as const;
export type Kind = (typeof KINDS)[number];

export type KindStats = {
  requests: number;
  ok: number;
  failed: number;
  /** Planned in the window, not answered when it closed (their wait so far counts in the percentiles). */
  pending: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  failures: Array<{ what: string; count: number }>;
};
export type Report = {
  windowMs: number;
  active: number;
  started: number;
  kinds: Record<Kind, KindStats>;
  chatFirstByte: { p50: number; p99: number };
  /** The generator's own event-loop delay: a late timer is a late request, counted against the stack. */
  loopDelayMs: { p50: number; p99: number; max: number };
};

type Outcome = { kind: Kind; at: number; ms: number; ok: boolean; what?: string };

const now = () => performance.timeOrigin + performance.now();
let config: GeneratorConfig;
const pools = new Map<string, Pool>();
const pool = (origin: string) => {
  let p = pools.get(origin);
  if (!p) {
    p = new Pool(origin, {
      connections: config.connections,
      pipelining: 1,
      keepAliveTimeout: 60_000,
      headersTimeout: 30_000,
      bodyTimeout: 60_000,
    });
    pools.set(origin, p);
  }
  return p;
};

let windowStart = now();
let outcomes: Outcome[] = [];
let firstBytes: number[] = [];
const pending = new Map<number, { kind: Kind; at: number }>();
let nextRequestId = 0;
const loop = monitorEventLoopDelay({ resolution: 10 });
loop.enable();

function record(outcome: Outcome) {
  if (outcome.at >= windowStart) outcomes.push(outcome);
}

/** Keeps a failure's message short and free of ids, so equal failures count together. */
const shorten = (text: string) => text.replace(/[0-9a-f-]{16,}/gi, ':id').slice(0, 140);

type Send = {
  kind: Kind;
  origin: string;
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  at: number;
  body?: unknown;
  token?: string;
  address?: string;
  /** Reads the answer; true when it is the success the page expects. Chat streams are read chunk by chunk. */
  ok?: (status: number, text: string) => boolean;
  onFirstByte?: (ms: number) => void;
};

async function send(request: Send): Promise<string | undefined> {
  const id = nextRequestId++;
  pending.set(id, { kind: request.kind, at: request.at });
  let outcome: Outcome;
  let text = '';
  try {
    const response = await pool(request.origin).request({
      method: request.method,
      path: request.path,
      headers: {
        ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(request.token ? { authorization: `Bearer ${request.token}` } : {}),
        ...(request.address ? { 'x-forwarded-for': request.address } : {}),
      },
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
    });
    let first = true;
    for await (const chunk of response.body) {
      if (first && request.onFirstByte) request.onFirstByte(now() - request.at);
      first = false;
      text += chunk.toString();
    }
    const ok = request.ok ? request.ok(response.statusCode, text) : response.statusCode < 300;
    outcome = {
      kind: request.kind,
      at: request.at,
      ms: now() - request.at,
      ok,
      ...(ok ? {} : { what: shorten(`${response.statusCode} ${text.slice(0, 120)}`) }),
    };
  } catch (err) {
    outcome = {
      kind: request.kind,
      at: request.at,
      ms: now() - request.at,
      ok: false,
      what: shorten((err as Error).message),
    };
  }
  pending.delete(id);
  record(outcome);
  return outcome.ok ? text : undefined;
}

/** Runs `fn` at the planned moment `at` (epoch ms). */
const at = (when: number, fn: () => void) => setTimeout(fn, Math.max(0, when - now()));
/** The next moment of a recurring request: the interval with ±20% jitter, from the last planned moment. */
const after = (from: number, every: number) => from + every * (0.8 + 0.4 * Math.random());

type Candidate = {
  index: number;
  examId: string;
  address: string;
  attemptId?: string;
  token?: string;
  question: number;
  savesOnQuestion: number;
  seq: number;
  stopped: boolean;
  submitted: boolean;
};

const candidates: Candidate[] = [];
const operations = pageOperations();
let startedOk = 0;

function recurring(candidate: Candidate, every: number, fire: (at: number) => void) {
  if (every <= 0) return;
  const tick = (planned: number) => {
    if (candidate.stopped) return;
    fire(planned);
    const next = after(planned, every);
    at(next, () => tick(next));
  };
  const first = now() + Math.random() * every;
  at(first, () => tick(first));
}

function events(candidate: Candidate, planned: number, list: Array<Record<string, unknown>>) {
  const clientAt = new Date(planned).toISOString();
  void send({
    kind: 'events',
    origin: config.resultsOrigin,
    method: 'POST',
    path: `/api/attempts/${candidate.attemptId}/events`,
    at: planned,
    token: candidate.token,
    address: candidate.address,
    body: { events: list.map((e) => ({ clientAt, ...e })) },
  });
}

function save(candidate: Candidate, planned: number) {
  const q = candidate.question;
  candidate.seq += 1;
  const key = `${candidate.attemptId}/${q}`;
  // Even questions are choices (the option alone), odd ones short answers carrying their edit operations.
  const body =
    q % 2 === 0
      ? { answer: candidate.seq % 3 === 0 ? 'C' : 'B', seq: candidate.seq }
      : {
          answer: `photosynthesis ${candidate.seq}`,
          seq: candidate.seq,
          operations: operations.next(key, candidate.seq),
        };
  void send({
    kind: 'save',
    origin: config.resultsOrigin,
    method: 'PUT',
    path: `/api/attempts/${candidate.attemptId}/answers/${q}`,
    at: planned,
    token: candidate.token,
    address: candidate.address,
    body,
    ok: (status) => status === 200,
  });
  candidate.savesOnQuestion += 1;
  if (candidate.savesOnQuestion >= config.savesPerQuestion) {
    candidate.savesOnQuestion = 0;
    candidate.question = (q + 1) % config.questionCount;
    events(candidate, planned, [{ type: 'question-view', questionIndex: candidate.question }]);
  }
}

function chat(candidate: Candidate, planned: number) {
  void send({
    kind: 'chat',
    origin: config.gatewayOrigin,
    method: 'POST',
    path: '/api/llm/chat',
    at: planned,
    token: candidate.token,
    address: candidate.address,
    body: {
      message: `Where do I start on question ${candidate.question + 1}?`,
      questionIndex: candidate.question,
      clientMessageId: randomUUID(),
    },
    ok: (status, text) => status === 200 && text.includes('"type":"done"'),
    onFirstByte: (ms) => {
      if (planned >= windowStart) firstBytes.push(ms);
    },
  });
}

async function start(candidate: Candidate, planned: number) {
  const text = await send({
    kind: 'start',
    origin: config.resultsOrigin,
    method: 'POST',
    path: '/api/attempts',
    at: planned,
    address: candidate.address,
    body: { examId: candidate.examId, name: `Candidate ${candidate.index}`, studentId: `C${candidate.index}` },
    ok: (status) => status === 201,
  });
  if (!text || candidate.stopped) return;
  const started = JSON.parse(text) as { attemptId: string; token: string };
  candidate.attemptId = started.attemptId;
  candidate.token = started.token;
  startedOk += 1;
  void send({
    kind: 'exam',
    origin: config.resultsOrigin,
    method: 'GET',
    path: `/api/attempts/${started.attemptId}/exam`,
    at: now(),
    token: started.token,
    address: candidate.address,
  });
  recurring(candidate, config.saveEveryMs, (t) => save(candidate, t));
  recurring(candidate, config.liveEveryMs, (t) =>
    send({
      kind: 'live',
      origin: config.resultsOrigin,
      method: 'GET',
      path: `/api/attempts/${candidate.attemptId}/live`,
      at: t,
      token: candidate.token,
      address: candidate.address,
    }),
  );
  let incident = 0;
  recurring(candidate, config.eventsEveryMs, (t) => {
    incident += 1;
    events(
      candidate,
      t,
      incident % 3 === 0
        ? [{ type: 'fullscreen-exit' }, { type: 'fullscreen-enter' }]
        : [{ type: 'focus-lost', detail: 'window blurred' }, { type: 'focus-gained' }],
    );
  });
  recurring(candidate, config.chatEveryMs, (t) => chat(candidate, t));
}

function grow(to: number, overMs: number) {
  const from = candidates.length;
  const begin = now();
  for (let index = from; index < to; index++) {
    const examIndex = Math.min(config.exams.length - 1, Math.floor(index / config.candidatesPerExam));
    const hall = Math.floor(index / config.hallSize);
    const candidate: Candidate = {
      index,
      examId: config.exams[examIndex]!,
      address: `10.${(hall >> 16) & 255}.${(hall >> 8) & 255}.${hall & 255}`,
      question: 0,
      savesOnQuestion: 0,
      seq: 0,
      stopped: false,
      submitted: false,
    };
    candidates.push(candidate);
    const planned = begin + ((index - from + 0.5) * overMs) / Math.max(1, to - from);
    at(planned, () => void start(candidate, planned));
  }
}

const percentile = (sorted: Float64Array, p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : 0;
const round = (n: number) => Math.round(n * 10) / 10;

function summarize(): Report {
  const end = now();
  const kinds = {} as Record<Kind, KindStats>;
  for (const kind of KINDS) {
    const mine = outcomes.filter((o) => o.kind === kind);
    const waiting = [...pending.values()].filter((p) => p.kind === kind && p.at >= windowStart);
    const latencies = Float64Array.from([...mine.map((o) => o.ms), ...waiting.map((p) => end - p.at)]).sort();
    const failures = new Map<string, number>();
    for (const o of mine) if (!o.ok) failures.set(o.what ?? '?', (failures.get(o.what ?? '?') ?? 0) + 1);
    kinds[kind] = {
      requests: mine.length + waiting.length,
      ok: mine.filter((o) => o.ok).length,
      failed: mine.filter((o) => !o.ok).length,
      pending: waiting.length,
      p50: round(percentile(latencies, 50)),
      p90: round(percentile(latencies, 90)),
      p99: round(percentile(latencies, 99)),
      max: round(latencies.at(-1) ?? 0),
      failures: [...failures]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 3)
        .map(([what, count]) => ({ what, count })),
    };
  }
  const first = Float64Array.from(firstBytes).sort();
  return {
    windowMs: Math.round(end - windowStart),
    active: candidates.filter((c) => !c.stopped).length,
    started: startedOk,
    kinds,
    chatFirstByte: { p50: round(percentile(first, 50)), p99: round(percentile(first, 99)) },
    loopDelayMs: {
      p50: round(loop.percentile(50) / 1e6),
      p99: round(loop.percentile(99) / 1e6),
      max: round(loop.max / 1e6),
    },
  };
}

function reset() {
  windowStart = now();
  outcomes = [];
  firstBytes = [];
  loop.reset();
}

/** Every candidate stops its page and submits, each at a planned moment spread over `overMs`. */
async function submitAll(overMs: number) {
  reset();
  const begin = now();
  const submits: Promise<unknown>[] = [];
  for (const candidate of candidates) {
    candidate.stopped = true;
    if (!candidate.attemptId || candidate.submitted) continue;
    candidate.submitted = true;
    const planned = begin + Math.random() * overMs;
    submits.push(
      new Promise((resolve) =>
        at(planned, () =>
          resolve(
            send({
              kind: 'submit',
              origin: config.resultsOrigin,
              method: 'POST',
              path: `/api/attempts/${candidate.attemptId}/submit`,
              at: planned,
              token: candidate.token,
              address: candidate.address,
              ok: (status) => status === 200,
            }),
          ),
        ),
      ),
    );
  }
  await Promise.all(submits);
  return summarize();
}

process.on('message', (message: Command) => {
  switch (message.type) {
    case 'config':
      config = message.config;
      process.send!({ type: 'ready' });
      break;
    case 'grow':
      grow(message.to, message.overMs);
      process.send!({ type: 'growing' });
      break;
    case 'reset':
      reset();
      process.send!({ type: 'reset' });
      break;
    case 'report':
      process.send!({ type: 'report', report: summarize() });
      break;
    case 'submit':
      void submitAll(message.overMs).then((report) => process.send!({ type: 'submitted', report }));
      break;
    case 'exit':
      void Promise.all([...pools.values()].map((p) => p.destroy())).finally(() => process.exit(0));
      break;
  }
});
