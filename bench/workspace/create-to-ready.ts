// Time from POST /api/session/create to a ready editor (the proxied editor page answers 200), with
// N candidates creating at once: warm-pool hits versus cold starts (image present), editors pre-started for an
// availability window (the pool empty but for the window's expected candidates, as exam-service's demand
// names them), and one candidate alone on a cold start. Goals (bench/README.md): warm and pre-started p95 <= 1 s
// for 20 at once, a single cold start p95 <= 2 s, 20 cold at once p95 <= 8 s.
//   [BENCH_DATABASE_URL=postgres://…] node bench/workspace/create-to-ready.ts [--sessions 20] [--rounds 3] [--image test|vscode]
// --image test: the small busybox stand-in; --image vscode: the real code-server image
// (scripts/build-workspace-images.sh), whose editor page is code-server's workbench after its redirect.
// Per workspace type (issue 35: every type cold p95 <= 2 s, pre-started p95 <= 1 s), each from its catalogue image:
//   node bench/workspace/create-to-ready.ts --types vscode,r-studio,oracle-sql,excel [--single-rounds 20] [--sessions 10] [--rounds 2]
// For each type: cold, one candidate at a time with no pool (--single-rounds samples); then pre-started, a warm pool
// of --sessions containers of that type only (WARM_POOL_TYPES) and as many candidates creating at once (--rounds
// times). A type whose image is not on the engine fails the run before anything is measured.
// Without BENCH_DATABASE_URL the orchestrator keeps its state in an in-memory PGlite.
// Starts (or reuses) the private engine of scripts/docker-test-engine.ts, stopped with the last lease on it; the
// containers and volumes the run created are removed at the end.
import { fork } from 'node:child_process';
import { request } from 'node:http';
import { parseArgs } from 'node:util';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { WORKSPACE_TYPES } from '../../packages/domain/src/exam.ts';
import { TEST_SECRETS } from '../../packages/server-kit/src/testing.ts';
import { releaseTestEngine, startTestEngine } from '../../scripts/docker-test-engine.ts';
import { buildApp } from '../../services/workspace-orchestrator/src/app.ts';
import { loadConfig } from '../../services/workspace-orchestrator/src/config.ts';
import { openWorkspaceDatabase } from '../../services/workspace-orchestrator/src/db/database.ts';
import { sessionIds, systemClock } from '../../services/workspace-orchestrator/src/deps.ts';
import { dockerClient } from '../../services/workspace-orchestrator/src/engine/docker-client.ts';
import { createDockerEngine } from '../../services/workspace-orchestrator/src/engine/docker-engine.ts';
import {
  startWorkspaceJobs,
  workspaceJobOptions,
} from '../../services/workspace-orchestrator/src/jobs/workspace-jobs.ts';

const { values } = parseArgs({
  options: {
    sessions: { type: 'string', default: '20' },
    rounds: { type: 'string', default: '3' },
    image: { type: 'string', default: 'test' },
    types: { type: 'string' },
    type: { type: 'string', default: 'vscode' },
    serve: { type: 'string' },
    socket: { type: 'string' },
    instance: { type: 'string' },
    'single-rounds': { type: 'string', default: '5' },
  },
});
type Mode = 'warm' | 'cold' | 'prewarm' | 'single';
type WorkspaceType = (typeof WORKSPACE_TYPES)[number];
/** The workspace type a child orchestrator serves (vscode unless --types runs each). */
const workspaceType = values.type as WorkspaceType;
const sessions = Number(values.sessions);
const rounds = Number(values.rounds);

type Reply = { status: number; body: string; location?: string; cookie?: string; setCookies: string[] };

function call(
  base: string,
  path: string,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, base), { method, headers }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body: text,
          location: res.headers.location,
          cookie: res.headers['set-cookie']?.[0]?.split(';')[0],
          setCookies: res.headers['set-cookie'] ?? [],
        }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * The editor page's final status, as a browser gets it: code-server answers the bare path with a relative redirect
 * to its folder, the SQL workbench with one to the candidate's database after setting its own cookies; redirects
 * are followed with every cookie set on the way.
 */
async function editorPage(base: string, path: string, cookie: string): Promise<number> {
  const jar = new Map<string, string>();
  const take = (line: string) => {
    const pair = line.split(';')[0]!;
    jar.set(pair.slice(0, pair.indexOf('=')).trim(), pair.slice(pair.indexOf('=') + 1).trim());
  };
  take(cookie);
  let url = new URL(path, base);
  for (let hops = 0; hops < 3; hops++) {
    const header = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const reply = await call(base, url.pathname + url.search, 'GET', { cookie: header });
    reply.setCookies.forEach(take);
    if (reply.status < 300 || reply.status >= 400 || !reply.location) return reply.body ? reply.status : 204;
    url = new URL(reply.location, url);
  }
  return 310;
}

/** Everything this run's orchestrator instance created on the engine: containers first, then their named volumes. */
async function removeAll(engine: ReturnType<typeof createDockerEngine>) {
  for (const c of await engine.list()) await engine.remove(c.handle);
  for (const volume of await engine.listVolumes()) await engine.removeVolume(volume);
}

const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.max(0, Math.ceil((p / 100) * xs.length) - 1)]!;
const summary = (xs: number[]) => ({
  n: xs.length,
  p50: Math.round(percentile(xs, 50)),
  p95: Math.round(percentile(xs, 95)),
  max: Math.round(Math.max(...xs)),
});

/** The orchestrator under test, in this (child) process; it answers the parent's messages. */
async function serve(mode: Mode, socketPath: string, instance: string) {
  const config = loadConfig({
    ...TEST_SECRETS,
    LOG_LEVEL: 'warn',
    DATA_DIR: '/nonexistent',
    DOCKER_SOCKET: socketPath,
    WORKSPACE_INSTANCE: instance,
    // `--image <type>` is the type's own catalogue entry (its real image).
    WORKSPACE_IMAGE_OVERRIDES: `${workspaceType}=${values.image}`,
    WORKSPACE_BACKGROUND: 'false',
    WARM_POOL_SIZE: mode === 'warm' ? String(sessions) : '0',
    PREWARM_HORIZON_MINUTES: mode === 'prewarm' ? '15' : '0',
    WORKSPACE_HOST_CAPACITY: String(sessions * 2),
    // Only the benchmarked type: the engine may hold the real images of the others too.
    WARM_POOL_TYPES: workspaceType,
    // The stand-in runs in little memory; code-server gets the production default.
    ...(values.image === 'test' ? { WORKSPACE_MEMORY_MB: '256' } : {}),
    START_TIMEOUT_SECONDS: '60',
  });
  const database = await openWorkspaceDatabase({ databaseUrl: process.env.BENCH_DATABASE_URL });
  const engine = createDockerEngine({
    socketPath,
    instance,
    network: config.WORKSPACE_NETWORK,
    egressNetwork: config.WORKSPACE_EGRESS_NETWORK,
    memoryMb: config.WORKSPACE_MEMORY_MB,
    cpus: config.WORKSPACE_CPUS,
    pidsLimit: config.WORKSPACE_PIDS_LIMIT,
    tmpMb: config.WORKSPACE_TMP_MB,
  });
  // Each round is a new exam whose window opens now, expecting all of the round's candidates.
  let exam = 'bench-exam';
  const settings = {
    enabled: true,
    saveFilesInResults: true,
    workspaceType,
    allowPackageRegistries: false,
  };
  const directory = {
    workspaceDemand: async () =>
      mode === 'prewarm'
        ? [
            {
              examId: exam,
              workspaceType,
              egress: 'none' as const,
              opensAt: new Date().toISOString(),
              candidates: sessions,
            },
          ]
        : [],
    workspaceSettings: async () => settings,
    workspaceExam: async () => ({
      codingWorkspace: settings,
      aiSettings: { enabled: false, provider: 'openai' as const, model: 'gpt-4o-mini' },
      questions: [],
    }),
    isAttemptOpen: async () => true,
    attemptState: async () => ({ isOpen: true, deadline: null }),
  };
  // The bench sends attempt tokens only: no creator session is ever open.
  const app = await buildApp(config, {
    database,
    clock: systemClock,
    ids: sessionIds,
    engines: [engine],
    directory,
    creatorSessions: async () => false,
  });
  // Sessions an earlier phase or run left live in a shared BENCH_DATABASE_URL would count against the host's
  // capacity (and leave the pre-start no room): each phase starts and ends with none.
  const endLive = async (reason: string) => {
    for (const row of await app.workspaces.repo.listLive())
      await app.workspaces.repo.markEnded(row.id, new Date(), reason);
  };
  await endLive('bench: left live by an earlier phase or run');
  // Re-adoption and the refill after warm hand-outs, as server.ts starts them (WORKSPACE_BACKGROUND=false: no timers).
  const jobs = await startWorkspaceJobs(
    { ...app.workspaces, clock: systemClock, directory, log: app.log },
    workspaceJobOptions(config),
  );
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  // The editors' own listener (WORKSPACE_ORIGIN in production), reached through a one-time launch link.
  const editors = await app.editors.listen({ host: '127.0.0.1', port: 0 });
  process.on('message', async (message: { type: string; round?: number }) => {
    if (message.type === 'tokens') {
      // A phase's own exam: candidates of an earlier phase (or run) with the same exam id count as arrived,
      // and the pre-start would start nothing for them.
      exam = `bench-exam-${mode}-${message.round}-${Date.now()}`;
      if (mode === 'warm' || mode === 'prewarm') {
        await jobs.warmPool.refill();
        // Let the engine settle after starting the pool, as a pool filled in the background would be.
        await new Promise((r) => setTimeout(r, 3000));
      }
      const tokens = Array.from({ length: sessions }, (_, i) =>
        app.jwt.sign({
          kind: 'attempt',
          sub: `bench-${mode}-${message.round}-${i}-${Date.now()}`,
          examId: exam,
          ownerId: 'bench-owner',
          name: 'Bench',
          studentId: `B${i}`,
        }),
      );
      process.send!({ type: 'tokens', tokens });
    } else if (message.type === 'stop') {
      await jobs.stop();
      await endLive('bench: phase over');
      await removeAll(engine);
      await app.close();
      await database.close();
      process.exit(0);
    }
  });
  process.send!({ type: 'ready', base, editors });
}

function ask<T>(child: ReturnType<typeof fork>, type: string, payload: object = {}): Promise<T> {
  return new Promise((resolve) => {
    const listener = (message: { type: string }) => {
      if (message.type !== type) return;
      child.off('message', listener);
      resolve(message as T);
    };
    child.on('message', listener);
    if (type !== 'ready') child.send({ type, ...payload });
  });
}

/** The load generator: N candidates create at once and wait until their editor answers. */
async function run(
  mode: Mode,
  socketPath: string,
  instance: string,
  sessions: number,
  rounds: number,
  type: WorkspaceType = 'vscode',
  image: string = values.image!,
) {
  const child = fork(new URL(import.meta.url), [
    '--serve',
    mode,
    '--socket',
    socketPath,
    '--instance',
    instance,
    '--sessions',
    String(sessions),
    '--image',
    image,
    '--type',
    type,
  ]);
  const { base, editors } = await ask<{ base: string; editors: string }>(child, 'ready');
  const times: number[] = [];
  const createTimes: number[] = [];
  let warmHits = 0;
  try {
    for (let round = 0; round < rounds; round++) {
      const { tokens } = await ask<{ tokens: string[] }>(child, 'tokens', { round });
      const results = await Promise.all(
        tokens.map(async (token) => {
          const headers = { authorization: `Bearer ${token}` };
          const started = performance.now();
          const created = await call(
            base,
            '/api/session/create',
            'POST',
            { ...headers, 'content-type': 'application/json' },
            '{}',
          );
          if (created.status !== 200) throw new Error(`create answered ${created.status}: ${created.body}`);
          const createdAt = performance.now() - started;
          const session = JSON.parse(created.body) as {
            sessionId: string;
            editorPath: string;
            warm: boolean;
            workspaceType: string;
          };
          // Never another type's image standing in for the one measured.
          if (session.workspaceType !== type) throw new Error(`asked for ${type}, created ${session.workspaceType}`);
          // As the exam page does: a one-time launch link, opened on the editors' origin, sets the editor cookie.
          const launch = await call(base, `/api/session/${session.sessionId}/launch`, 'POST', headers);
          if (launch.status !== 200) throw new Error(`launch answered ${launch.status}: ${launch.body}`);
          const launchUrl = new URL((JSON.parse(launch.body) as { editorUrl: string }).editorUrl);
          const opened = await call(editors, launchUrl.pathname + launchUrl.search, 'GET', {});
          if (!opened.cookie) throw new Error(`opening the launch link answered ${opened.status} without a cookie`);
          // A page that never answers fails the run rather than hanging it.
          while ((await editorPage(editors, session.editorPath, opened.cookie)) !== 200) {
            if (performance.now() - started > 120_000)
              throw new Error(`${type}: the editor page did not answer 200 within 120 s`);
            await new Promise((r) => setTimeout(r, 20));
          }
          return {
            ms: performance.now() - started,
            createMs: createdAt,
            warm: session.warm,
            sessionId: session.sessionId,
            headers,
          };
        }),
      );
      for (const r of results) {
        times.push(r.ms);
        createTimes.push(r.createMs);
        if (r.warm) warmHits++;
      }
      await Promise.all(results.map((r) => call(base, `/api/session/${r.sessionId}`, 'DELETE', r.headers)));
    }
  } finally {
    child.send({ type: 'stop' });
    await new Promise((r) => child.once('exit', r));
    // Whatever a background refill started after the child's own clean-up goes too, volumes included.
    await removeAll(
      createDockerEngine({
        socketPath,
        instance,
        network: '',
        egressNetwork: '',
        memoryMb: 0,
        cpus: 1,
        pidsLimit: 0,
        tmpMb: 0,
      }),
    );
  }
  return { mode, ...summary(times), warmHits, createResponse: summary(createTimes) };
}

/**
 * Every type's catalogue image must be on the engine: a missing one fails the run before anything is measured,
 * naming each missing image (never a type skipped, nor one served from another type's image).
 */
async function requireImages(socketPath: string, types: WorkspaceType[]): Promise<Record<string, string>> {
  const catalogue = JSON.parse(
    readFileSync(new URL('../../infra/workspaces/catalogue.json', import.meta.url), 'utf8'),
  ) as { types: Record<string, { image: string }> };
  const docker = dockerClient(socketPath);
  const missing: string[] = [];
  for (const type of types) {
    const image = catalogue.types[type]!.image;
    const present = await docker
      .getImage(image)
      .inspect()
      .then(() => true)
      .catch(() => false);
    if (!present) missing.push(`${type} (${image})`);
  }
  if (missing.length)
    throw new Error(
      `not built on the engine at ${socketPath}: ${missing.join(', ')}. Build them first:\n` +
        `  DOCKER_HOST=unix://${socketPath} scripts/build-workspace-images.sh`,
    );
  return Object.fromEntries(types.map((type) => [type, catalogue.types[type]!.image]));
}

/** Cold (one at a time, no pool) and pre-started (a pool of that type, N at once) for each type, in one run. */
async function runTypes(socketPath: string, instance: string, types: WorkspaceType[]) {
  const images = await requireImages(socketPath, types);
  const load = () => Number(loadavg()[0]!.toFixed(1));
  const byType: Record<string, object> = {};
  for (const type of types) {
    const loadBefore = load();
    const cold = await run('single', socketPath, instance, 1, Number(values['single-rounds']), type, type);
    const prestarted = await run('warm', socketPath, instance, sessions, rounds, type, type);
    byType[type] = { image: images[type], cold, prestarted, load: [loadBefore, load()] };
    console.log(`${type}: ${JSON.stringify(byType[type])}`);
  }
  return { perType: true, sessions, rounds, singleRounds: Number(values['single-rounds']), types: byType };
}

if (values.serve) {
  await serve(values.serve as Mode, values.socket!, values.instance!);
} else {
  const engine = await startTestEngine();
  const instance = `bench-${Date.now().toString(36)}`;
  if (values.types) {
    const types = values.types.split(',').map((t) => t.trim());
    const unknown = types.filter((t) => !(WORKSPACE_TYPES as readonly string[]).includes(t));
    if (unknown.length) throw new Error(`unknown workspace type ${unknown.join(', ')}; known: ${WORKSPACE_TYPES}`);
    try {
      const result = await runTypes(engine.socketPath, instance, types as WorkspaceType[]);
      console.log(`BENCH_RESULT ${JSON.stringify(result)}`);
    } finally {
      await releaseTestEngine(engine);
    }
    process.exit(0);
  }
  const warm = await run('warm', engine.socketPath, instance, sessions, rounds);
  const prewarm = await run('prewarm', engine.socketPath, instance, sessions, rounds);
  const single = await run('single', engine.socketPath, instance, 1, Number(values['single-rounds']));
  const cold = await run('cold', engine.socketPath, instance, sessions, rounds);
  const result = {
    sessions,
    rounds,
    image: values.image,
    warm,
    prewarm,
    single,
    cold,
    ratio: Number((cold.p95 / warm.p95).toFixed(1)),
  };
  console.log(JSON.stringify(result, null, 2));
  // One machine-readable line for bench/run.ts.
  console.log(`BENCH_RESULT ${JSON.stringify(result)}`);
  // The engine goes with the last lease on it, if a test run or benchmark started it; killed before this line,
  // the engine's watchdog stops it (scripts/docker-test-engine.ts).
  await releaseTestEngine(engine);
}
