// Memory of the embedded default: starts `pnpm start` as a fresh clone would (no DATABASE_URL, an empty data
// directory), waits for the banner, sums the resident memory of the whole process tree, runs a candidate
// journey through the two web servers' proxies (a creator registers and publishes, candidates sit and submit,
// the creator reads the results), sums it again and stops the stack.
//
//   node bench/memory/run.ts [--candidates 5] [--settle-ms 15000] [--data-dir <dir>] [--offset 0]
//   EMBEDDED_DB=pglite node bench/memory/run.ts     # the same on the PGlite engine
// --offset shifts every port of the stack (as E2E_PORT_OFFSET does the journeys'), beside a running `pnpm start`.
//
// RSS counts a page shared by several processes (Node's own code, the libraries) once per process; PSS
// (/proc/<pid>/smaps_rollup) divides it among them, so the PSS sum is the tree's fair share of the machine.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DEFAULT_SERVICE_PORTS, SERVICES, serviceEnvPrefix } from '../../packages/domain/src/service-routes.ts';
import { byName, sample, type ProcessMemory } from './process-tree.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { values: args } = parseArgs({
  options: {
    candidates: { type: 'string', default: '5' },
    'settle-ms': { type: 'string', default: '15000' },
    'data-dir': { type: 'string' },
    offset: { type: 'string', default: '0' },
  },
});
const candidates = Number(args.candidates);
const settleMs = Number(args['settle-ms']);
const dataDir = args['data-dir'] ? resolve(args['data-dir']) : mkdtempSync(join(tmpdir(), 'exam-memory-'));
const offset = Number(args.offset);
const creatorUrl = `http://localhost:${5173 + offset}`;
const takerUrl = `http://localhost:${5174 + offset}`;
const ports: Record<string, string> = Object.fromEntries(
  Object.entries({
    CREATOR_WEB_PORT: 5173,
    TAKER_WEB_PORT: 5174,
    WORKSPACE_PORT: 4005,
    MAILBOX_PORT: 4025,
    MAILBOX_SMTP_PORT: 2525,
    EMBEDDED_POSTGRES_PORT: 4032,
    ...Object.fromEntries(SERVICES.map((s) => [`${serviceEnvPrefix(s)}_PORT`, DEFAULT_SERVICE_PORTS[s]])),
  }).map(([k, v]) => [k, String(v + offset)]),
);

const mb = (kb: number) => (kb / 1024).toFixed(0);

function report(label: string, rows: ProcessMemory[]) {
  const rss = rows.reduce((s, r) => s + r.rssKb, 0);
  const pss = rows.reduce((s, r) => s + r.pssKb, 0);
  console.log(`\n${label}: ${rows.length} processes, RSS ${mb(rss)} MB, PSS ${mb(pss)} MB`);
  const groups = byName(rows);
  for (const g of groups)
    console.log(
      `  ${`${g.name}${g.count > 1 ? ` ×${g.count}` : ''}`.padEnd(34)} RSS ${mb(g.rssKb).padStart(5)} MB   PSS ${mb(g.pssKb).padStart(5)} MB`,
    );
  return {
    rssMb: Number(mb(rss)),
    pssMb: Number(mb(pss)),
    processes: Object.fromEntries(
      groups.map((g) => [g.name, { count: g.count, rssMb: Number(mb(g.rssKb)), pssMb: Number(mb(g.pssKb)) }]),
    ),
  };
}

async function call(base: string, method: string, path: string, body?: unknown, token?: string) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
  return (text ? JSON.parse(text) : {}) as Record<string, unknown>;
}

/** The journey, through the web servers as a browser would go: creator-web for the creator, taker-web for candidates. */
async function journey(count: number) {
  const creator = (await call(creatorUrl, 'POST', '/api/auth/register', {
    email: `memory-${Date.now()}@bench.test`,
    password: 'memory-bench-password',
  })) as { token: string };
  const questions = [
    { id: 'q0', type: 'mcq', title: 'Pick B', options: ['A', 'B', 'C'], correctAnswer: 'B' },
    { id: 'q1', type: 'short-answer', title: 'Name the process', acceptedAnswers: ['photosynthesis'] },
  ];
  const { exam } = (await call(
    creatorUrl,
    'POST',
    '/api/exams',
    { title: 'Memory bench', isDraft: false, timerEnabled: true, timerMinutes: 30, questions },
    creator.token,
  )) as { exam: { id: string } };
  await call(creatorUrl, 'PUT', `/api/exams/${exam.id}`, { isLive: true }, creator.token);
  await call(takerUrl, 'GET', `/api/exams/${exam.id}/public`).catch(() => undefined);
  for (let i = 0; i < count; i++) {
    const attempt = (await call(takerUrl, 'POST', '/api/attempts', {
      examId: exam.id,
      name: `Candidate ${i}`,
      studentId: `memory-${i}`,
    })) as { attemptId: string; token: string };
    const path = `/api/attempts/${attempt.attemptId}`;
    await call(takerUrl, 'PUT', `${path}/answers/0`, { answer: 'B', seq: 1 }, attempt.token);
    await call(takerUrl, 'PUT', `${path}/answers/1`, { answer: 'photosynthesis', seq: 1 }, attempt.token);
    await call(takerUrl, 'POST', `${path}/submit`, undefined, attempt.token);
  }
  const results = await call(creatorUrl, 'GET', `/api/results?examId=${exam.id}`, undefined, creator.token);
  const listed = JSON.stringify(results).split('"score"').length - 1;
  return { examId: exam.id, resultsAnswer: JSON.stringify(results).length, scores: listed };
}

const env: NodeJS.ProcessEnv = { ...process.env, ...(offset ? ports : {}), DATA_DIR: dataDir };
delete env.DATABASE_URL;
const stack = spawn('pnpm', ['start'], { cwd: root, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
let output = '';
const ready = new Promise<void>((resolveReady, reject) => {
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
    if (output.includes('Exam platform is running')) resolveReady();
  };
  stack.stdout.on('data', onData);
  stack.stderr.on('data', onData);
  stack.on('exit', (code) => reject(new Error(`pnpm start exited (${code}):\n${output.slice(-3000)}`)));
});
const stop = async () => {
  try {
    process.kill(-stack.pid!, 'SIGTERM');
  } catch {
    return;
  }
  const end = Date.now() + 15_000;
  while (stack.exitCode === null && stack.signalCode === null && Date.now() < end)
    await new Promise((r) => setTimeout(r, 200));
  try {
    process.kill(-stack.pid!, 'SIGKILL');
  } catch {
    // all gone
  }
};
process.on('SIGINT', () => void stop().then(() => process.exit(130)));

try {
  const startedAt = Date.now();
  await ready;
  console.log(`ready in ${((Date.now() - startedAt) / 1000).toFixed(1)} s (data in ${dataDir})`);
  await new Promise((r) => setTimeout(r, settleMs));
  const idle = report('idle', sample(stack.pid!));
  const done = await journey(candidates);
  console.log(
    `\njourney: exam ${done.examId}, ${candidates} candidates submitted, results answer ${done.resultsAnswer} bytes`,
  );
  await new Promise((r) => setTimeout(r, settleMs));
  const after = report(`after the journey (${candidates} candidates)`, sample(stack.pid!));
  console.log(
    `\nsummary: idle RSS ${idle.rssMb} MB (PSS ${idle.pssMb}); after the journey RSS ${after.rssMb} MB (PSS ${after.pssMb})`,
  );
  // One machine-readable line for bench/run.ts.
  console.log(
    `BENCH_RESULT ${JSON.stringify({ engine: process.env.EMBEDDED_DB ?? 'default', candidates, idle, after })}`,
  );
} finally {
  await stop();
  if (!args['data-dir']) rmSync(dataDir, { recursive: true, force: true });
}
