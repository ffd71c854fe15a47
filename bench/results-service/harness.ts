// Starts what the results-service benchmarks need: a fresh database on the local PostgreSQL, a stub of
// exam-service speaking its internal contract (GET /internal/exams/{id}; llm-gateway's attempt transcripts, empty,
// too), and results-service itself
// as production runs it (node src/server.ts), then tears everything down.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const JWT_SECRET = 'bench-jwt-secret-that-is-long-enough-0123456789';
const INTERNAL_TOKEN = 'bench-internal-token-that-is-long-enough-0123456789';

export const QUESTION_COUNT = 20;

function benchExam(id: string) {
  const now = new Date().toISOString();
  const questions = Array.from({ length: QUESTION_COUNT }, (_v, i) =>
    i % 2 === 0
      ? {
          id: `q${i}`,
          type: 'mcq',
          title: `Question ${i + 1}`,
          content: 'Pick one',
          topic: '',
          options: ['A', 'B', 'C', 'D'],
          correctAnswer: 'B',
          acceptedAnswers: [],
        }
      : {
          id: `q${i}`,
          type: 'short-answer',
          title: `Question ${i + 1}`,
          content: 'Type it',
          topic: '',
          options: [],
          acceptedAnswers: ['photosynthesis'],
        },
  );
  return {
    id,
    ownerId: 'bench-owner',
    title: 'Benchmark exam',
    description: '',
    header: '',
    rules: '',
    timerEnabled: true,
    timerMinutes: 120,
    fullScreenEnabled: false,
    questions,
    codingWorkspace: {
      enabled: false,
      saveFilesInResults: false,
      workspaceType: 'vscode',
      allowPackageRegistries: false,
    },
    aiSettings: {
      enabled: false,
      provider: 'openai',
      model: 'gpt-4o-mini',
      baseUrl: '',
      customPrompt: '',
      startMessage: '',
      stopSolutions: true,
      copyLLMResponse: true,
      uploadDocuments: false,
      processCode: false,
      courseAssistanceEnabled: false,
      courseAssistanceLevel: 5,
      contextLength: 1000,
      budget: { messagesPerWindow: 20, windowMinutes: 10, tokensPerAttempt: 100000 },
      hasApiKey: false,
      apiKeyLast4: null,
      courseMaterials: [],
      encryptedApiKey: null,
    },
    materialTexts: [],
    hasAccessCode: false,
    isLive: true,
    isDraft: false,
    publishedAt: now,
    createdAt: now,
    lastEditedAt: now,
    updatedAt: now,
  };
}

/** The exam the stub serves: the default one, or `questions` of the caller's (e.g. a coding question). */
export type BenchExamOptions = { questions?: object[] };

function startExamStub(port: number, internalToken: string, exam: BenchExamOptions): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.headers['x-internal-token'] !== internalToken) return res.writeHead(404).end();
    // Admission (POST /internal/exams/{id}/admit): a link exam admits everyone under the name they gave.
    if (req.method === 'POST' && /^\/internal\/exams\/[^/]+\/admit$/.test(req.url ?? '')) {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const { name } = JSON.parse(body) as { name: string };
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ name }));
      });
      return;
    }
    // llm-gateway's transcript of an attempt (the process record counts the candidate's messages): none here.
    const transcript = /^\/internal\/attempts\/([^/]+)\/transcript$/.exec(req.url ?? '');
    if (transcript) {
      const attemptId = decodeURIComponent(transcript[1]!);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ attemptId, messages: [] }));
      return;
    }
    const match = /^\/internal\/exams\/([^/]+)$/.exec(req.url ?? '');
    if (!match) return res.writeHead(404).end();
    const body = benchExam(decodeURIComponent(match[1]!));
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify(exam.questions ? { ...body, questions: exam.questions } : body));
  });
  // Longer than the service's pooled connections stay idle, so the stub never closes a socket the service is
  // about to reuse (an ECONNRESET on a loaded machine otherwise).
  server.keepAliveTimeout = 120_000;
  return new Promise((ok) => server.listen(port, '127.0.0.1', () => ok(server)));
}

function cpuSecondsOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0; // the process ended
  }
}

async function waitReady(url: string, child: ChildProcess) {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`${url} exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/ready`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not become ready`);
}

/**
 * Starts the anchor (anchor.ts: bare Fastify + postgres.js, one single-row upsert per save) on the
 * stack's database, with the same pool size as the service.
 */
export async function startAnchor(opts: { databaseUrl: string; port: number; poolSize?: number }) {
  const url = `http://127.0.0.1:${opts.port}`;
  const child = spawn(process.execPath, [resolve(ROOT, 'bench/results-service/anchor.ts')], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...process.env,
      PORT: String(opts.port),
      DATABASE_URL: opts.databaseUrl,
      DATABASE_POOL_SIZE: String(opts.poolSize ?? 10),
    },
  });
  await waitReady(url, child);
  return {
    url,
    cpuSeconds: () => cpuSecondsOf(child.pid!),
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

export async function startStack(opts: {
  adminUrl: string;
  port: number;
  stubPort: number;
  poolSize?: number;
  exam?: BenchExamOptions;
  /** Shared with other services the bench starts (the orchestrator checks it too). */
  internalToken?: string;
  /** More settings for results-service (e.g. WORKSPACE_ORCHESTRATOR_URL). */
  env?: Record<string, string>;
}) {
  const internalToken = opts.internalToken ?? INTERNAL_TOKEN;
  const name = `bench_results_${Date.now()}`;
  const admin = postgres(opts.adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  const dbUrl = new URL(opts.adminUrl);
  dbUrl.pathname = `/${name}`;
  const stub = await startExamStub(opts.stubPort, internalToken, opts.exam ?? {});
  const url = `http://127.0.0.1:${opts.port}`;
  // BENCH_SERVER_ARGS passes node flags to the service (e.g. --cpu-prof) for profiling a run.
  const serverArgs = (process.env.BENCH_SERVER_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...serverArgs, 'src/server.ts'], {
    cwd: resolve(ROOT, 'services/results-service'),
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...process.env,
      PORT: String(opts.port),
      LOG_LEVEL: 'warn',
      DATABASE_URL: dbUrl.toString(),
      ...(opts.poolSize ? { DATABASE_POOL_SIZE: String(opts.poolSize) } : {}),
      JWT_SECRET,
      INTERNAL_TOKEN: internalToken,
      EXAM_SERVICE_URL: `http://127.0.0.1:${opts.stubPort}`,
      // The stub answers llm-gateway's attempt transcripts too.
      LLM_GATEWAY_URL: `http://127.0.0.1:${opts.stubPort}`,
      FINALIZER_INTERVAL_SECONDS: '3600',
      // Every bench attempt starts from this one address; the start limits are not what is measured.
      START_LIMIT_PER_CLIENT: '1000000',
      START_LIMIT_PER_EXAM: '1000000',
      START_LIMIT_PER_EXAM_CLIENT: '1000000',
      ...opts.env,
    },
  });
  await waitReady(url, child);
  const sql = postgres(dbUrl.toString(), { max: 2, onnotice: () => {} });
  return {
    url,
    sql,
    databaseUrl: dbUrl.toString(),
    /** CPU seconds the service process has used so far (user + system), from /proc. */
    serverCpuSeconds: () => cpuSecondsOf(child.pid!),
    /** CPU seconds used so far by the PostgreSQL backends serving the bench database (not WAL writer or checkpointer). */
    /** Transactions committed in the bench database so far (pg_stat_database; its counters lag up to a second). */
    async commits(): Promise<number> {
      const [row] = await sql<{ n: number }[]>`
        select xact_commit::float8 as n from pg_stat_database where datname = ${name}`;
      return row?.n ?? 0;
    },
    async postgresCpuSeconds(): Promise<number> {
      const rows = await sql<
        { pid: number }[]
      >`select pid from pg_stat_activity where datname = ${name} and pid <> pg_backend_pid()`;
      return rows.reduce((sum, r) => sum + cpuSecondsOf(r.pid), 0);
    },
    async stop() {
      await sql.end();
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      stub.close();
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}

/** Starts `count` attempts through the public API, `concurrency` at a time; returns ids and bearer tokens. */
export async function startAttempts(url: string, count: number, concurrency = 32) {
  const attempts: { id: string; auth: string }[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        const response = await fetch(`${url}/api/attempts`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ examId: 'bench-exam', name: `Candidate ${i}`, studentId: `S${i}` }),
        });
        if (response.status !== 201) throw new Error(`start ${i}: ${response.status} ${await response.text()}`);
        const body = (await response.json()) as { attemptId: string; token: string };
        attempts[i] = { id: body.attemptId, auth: `Bearer ${body.token}` };
      }
    }),
  );
  return attempts;
}
