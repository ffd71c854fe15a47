// An acknowledged answer save survives a crash: results-service (the real process, node src/server.ts)
// and PostgreSQL are both killed with SIGKILL right after the acknowledgements, restarted, and every
// acknowledged save must be there with its latest seq. The shared local PostgreSQL is never touched: the
// suite runs its own server (initdb into a temporary directory, fsync on) on a free port. It kills
// processes, not the machine, so it proves the commit happened before the answer; that the WAL also
// reached the disk is PostgreSQL's fsync, which this cluster keeps on. Every save carries edit operations as the
// candidate's page sends them (those past the last acknowledged count): the acknowledged ones must be stored too,
// each exactly once and in order.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, chownSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { CompactOperation } from '@exam/domain/answer-operations';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeExam } from '../../testing/exams.ts';

const SERVICE_DIR = resolve(import.meta.dirname, '../../..');
const JWT_SECRET = 'durability-jwt-secret-that-is-long-enough-0123';
const INTERNAL_TOKEN = 'durability-internal-token-that-is-long-enough-0123';

/** The newest PostgreSQL server binaries installed the Debian way, if any. */
function postgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], 'bin') : undefined;
}

const bin = postgresBin();
if (!bin)
  console.warn('[durable-saves] no PostgreSQL server binaries under /usr/lib/postgresql: the crash suite did not run');

// PostgreSQL refuses to run as root; this machine's tests do, so the server runs as the postgres user then.
const asRoot = process.getuid?.() === 0;
const command = (program: string, args: string[]) =>
  asRoot ? { file: 'runuser', args: ['-u', 'postgres', '--', program, ...args] } : { file: program, args };

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const server = createNetServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => ok(port));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Every process whose parent is `pid` (the postmaster's backends and helpers), from /proc. */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        return Number(readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** A private PostgreSQL cluster: started, killed like a crash, started again on the same data. */
function privatePostgres(binDir: string, port: number) {
  const dir = mkdtempSync(join(tmpdir(), 'durable-saves-'));
  if (asRoot) {
    const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
    chownSync(dir, id('-u'), id('-g'));
  }
  const data = join(dir, 'data');
  let child: ChildProcess | undefined;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    /** One row of JSON from `query` (which selects one json value), through psql. */
    queryJson<T>(query: string): T {
      const result = spawnSync(
        join(binDir, 'psql'),
        ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', 'postgres', '-A', '-t', '-c', query],
        { encoding: 'utf8' },
      );
      if (result.status !== 0) throw new Error(`psql failed: ${result.stderr}`);
      return JSON.parse(result.stdout.trim()) as T;
    },
    init() {
      const { file, args } = command(join(binDir, 'initdb'), [
        '-D',
        data,
        '-A',
        'trust',
        '-U',
        'postgres',
        '-E',
        'UTF8',
        '--no-sync',
      ]);
      const result = spawnSync(file, args, { encoding: 'utf8' });
      if (result.status !== 0) throw new Error(`initdb failed: ${result.stderr}`);
    },
    async start() {
      const { file, args } = command(join(binDir, 'postgres'), [
        '-D',
        data,
        '-p',
        String(port),
        '-k',
        dir,
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'fsync=on',
        '-c',
        'synchronous_commit=on',
        '-c',
        'full_page_writes=on',
      ]);
      child = spawn(file, args, { stdio: 'ignore' });
      for (let i = 0; i < 600; i++) {
        const ready = spawnSync(join(binDir, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres']);
        if (ready.status === 0) return;
        if (child.exitCode !== null) throw new Error(`postgres exited with ${child.exitCode}`);
        await sleep(100);
      }
      throw new Error('the private PostgreSQL did not start');
    },
    /** SIGKILL to the postmaster and every one of its processes at once, as a crash would leave them. */
    async kill() {
      const postmaster = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
      for (const pid of [postmaster, ...childrenOf(postmaster)]) process.kill(pid, 'SIGKILL');
      for (let i = 0; i < 100 && alive(postmaster); i++) await sleep(50);
      await new Promise((r) => (child?.exitCode !== null ? r(undefined) : child.once('exit', r)));
    },
    async stop() {
      if (child && child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((r) => child!.once('exit', r));
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** exam-service as results-service calls it: the exam (GET /internal/exams/{id}) and admission. */
function startExamStub(port: number): Promise<Server> {
  const exam = makeExam({ timerMinutes: 120 });
  const server = createServer((req, res) => {
    if (req.headers['x-internal-token'] !== INTERNAL_TOKEN) return res.writeHead(404).end();
    const json = (body: unknown) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.method === 'POST' && req.url?.endsWith('/admit')) {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => json({ name: (JSON.parse(body) as { name: string }).name }));
      return;
    }
    const match = /^\/internal\/exams\/([^/]+)$/.exec(req.url ?? '');
    if (!match) return res.writeHead(404).end();
    json({ ...exam, id: decodeURIComponent(match[1]!) });
  });
  return new Promise((ok) => server.listen(port, '127.0.0.1', () => ok(server)));
}

const killNow = (child: ChildProcess) =>
  new Promise<void>((r) => {
    if (child.exitCode !== null || child.signalCode !== null) return r();
    child.once('exit', () => r());
    child.kill('SIGKILL');
  });

/** results-service as production runs it. */
async function startService(port: number, databaseUrl: string, examPort: number) {
  // No Redis: nothing here needs it, and the shared one is not this suite's.
  const { REDIS_URL: _redis, ...env } = process.env;
  const child = spawn(process.execPath, ['src/server.ts'], {
    cwd: SERVICE_DIR,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'error',
      DATABASE_URL: databaseUrl,
      JWT_SECRET,
      INTERNAL_TOKEN,
      EXAM_SERVICE_URL: `http://127.0.0.1:${examPort}`,
      FINALIZER_INTERVAL_SECONDS: '3600',
    },
  });
  const url = `http://127.0.0.1:${port}`;
  let last = 'no answer';
  // Up to 100 s: on a busy 2-core machine the first start (migrations, each DDL commit flushed) is slow.
  for (let i = 0; i < 1000; i++) {
    if (child.exitCode !== null) throw new Error(`results-service exited with ${child.exitCode}`);
    try {
      const response = await fetch(`${url}/ready`);
      if (response.ok) return { url, child };
      last = `${response.status} ${await response.text()}`;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  await killNow(child);
  throw new Error(`results-service did not become ready (/ready: ${last})`);
}

describe.skipIf(!bin)('answer saves survive kill -9 of results-service and of PostgreSQL', () => {
  let pg: ReturnType<typeof privatePostgres>;
  let stub: Server;
  let service: { url: string; child: ChildProcess } | undefined;
  let ports: { pg: number; service: number; stub: number };

  beforeAll(async () => {
    ports = { pg: await freePort(), service: await freePort(), stub: await freePort() };
    pg = privatePostgres(bin!, ports.pg);
    pg.init();
    await pg.start();
    stub = await startExamStub(ports.stub);
  }, 120_000);
  afterAll(async () => {
    if (service) await killNow(service.child);
    stub?.close();
    await pg?.stop();
  });

  it('keeps every acknowledged save, with its latest seq, after both crash', { timeout: 240_000 }, async () => {
    service = await startService(ports.service, pg.url, ports.stub);
    const attempts = await Promise.all(
      [0, 1, 2].map(async (i) => {
        const response = await fetch(`${service!.url}/api/attempts`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ examId: 'durable', name: `Candidate ${i}`, studentId: `D${i}` }),
        });
        expect(response.status).toBe(201);
        const body = (await response.json()) as { attemptId: string; token: string };
        return { id: body.attemptId, auth: `Bearer ${body.token}` };
      }),
    );

    // Saves keep arriving in waves of concurrent requests (so they are group-committed together, with
    // repeated questions and out-of-order seqs); the service dies right after the acknowledgements of
    // the wave it is in, while the next wave is still in flight.
    const acked = new Map<string, number>();
    const sent = new Map<string, string>();
    // Each question's operations as the page recorded them, and how many the server acknowledged holding.
    const log = new Map<string, CompactOperation[]>();
    const ackedOps = new Map<string, number>();
    let seq = 0;
    const saveOne = async (attempt: { id: string; auth: string }, question: number, mySeq: number) => {
      const key = `${attempt.id}/${question}`;
      const answer = `answer ${attempt.id} ${question} ${mySeq}`;
      sent.set(`${key}/${mySeq}`, answer);
      // A few typed keys since the last save, coalesced as the page does, then everything not yet acknowledged.
      const ops = log.get(key) ?? [];
      const word = ` w${mySeq}`;
      ops.push([seq * 40, ops.length, ops.length, word, 0, Array.from(word.slice(1), () => 120)]);
      log.set(key, ops);
      const start = ackedOps.get(key) ?? 0;
      try {
        const response = await fetch(`${service!.url}/api/attempts/${attempt.id}/answers/${question}`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json', authorization: attempt.auth },
          body: JSON.stringify({ answer, seq: mySeq, operations: { start, ops: ops.slice(start) } }),
        });
        if (response.status !== 200) return false;
        const body = (await response.json()) as { seq: number; applied: boolean; operationsEnd: number };
        // Acknowledged: applied, or told a newer seq is already stored; either way the stored seq is at least this.
        acked.set(key, Math.max(acked.get(key) ?? 0, body.seq));
        ackedOps.set(key, Math.max(ackedOps.get(key) ?? 0, body.operationsEnd));
        return true;
      } catch {
        return false; // the service died under this request: not acknowledged
      }
    };
    const wave = () =>
      Promise.all(
        Array.from({ length: 60 }, (_v, i) => {
          const attempt = attempts[i % attempts.length]!;
          const question = i % 2;
          const mySeq = ++seq + (i % 5 === 0 ? -3 : 0); // some arrive with a seq older than one already sent
          return saveOne(attempt, question, Math.max(1, mySeq));
        }),
      );
    for (let i = 0; i < 5; i++) expect((await wave()).every(Boolean)).toBe(true);
    const inFlight = wave();
    await wave();
    await killNow(service.child);
    await inFlight;
    await pg.kill();
    expect(acked.size).toBe(6);

    await pg.start();
    service = await startService(ports.service, pg.url, ports.stub);
    for (const attempt of attempts) {
      const response = await fetch(`${service.url}/api/attempts/${attempt.id}`, {
        headers: { authorization: attempt.auth },
      });
      expect(response.status).toBe(200);
      const state = (await response.json()) as {
        answers: Record<string, { answer: string; seq: number; operations: number }>;
      };
      for (const question of [0, 1]) {
        const key = `${attempt.id}/${question}`;
        const stored = state.answers[String(question)];
        // At least the newest acknowledged seq; a later one only if it was sent (its answer was not yet acknowledged).
        expect(stored?.seq).toBeGreaterThanOrEqual(acked.get(key)!);
        expect(stored?.answer).toBe(sent.get(`${key}/${stored?.seq}`));
        // Every acknowledged operation, and what is stored is the page's log from the start: once each, in order.
        expect(stored?.operations).toBeGreaterThanOrEqual(ackedOps.get(key)!);
        const chunks = pg.queryJson<Array<{ start: number; end: number; ops: CompactOperation[] }>>(
          `select coalesce(json_agg(json_build_object('start', start, 'end', "end", 'ops', ops) order by start), '[]')
           from results_service.answer_operations where attempt_id = '${attempt.id}' and question_index = ${question}`,
        );
        expect(chunks.map((c) => [c.start, c.end])).toEqual(
          chunks.map((c, i) => [i === 0 ? 0 : chunks[i - 1]!.end, c.start + c.ops.length]),
        );
        expect(chunks.flatMap((c) => c.ops)).toEqual(log.get(key)!.slice(0, stored!.operations));
      }
    }
  });
});
