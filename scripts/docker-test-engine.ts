// A private Docker engine for the workspace tests and benchmark. No registry is reachable,
// so the images are built here from an imported busybox root filesystem (the workspace test image)
// and from debootstrap trees (the code runner's images, scripts/build-runner-images.sh).
//   node scripts/docker-test-engine.ts start    starts (or reuses) dockerd, builds the test images, prints the socket path
//   node scripts/docker-test-engine.ts stop     stops the dockerd this script started, by its PID
// Test runs share one engine (the orchestrator's PGlite and PostgreSQL suites and the journeys run at the
// same time): each holds a lease while it runs, and the engine a run started is stopped by the last run
// to release it.
//   node scripts/docker-test-engine.ts status
// An engine a test run or benchmark started (startTestEngine) also gets a watchdog process: when every process
// holding a lease has died, killed or not, it stops the engine, so a suite or benchmark stopped at its time
// limit never leaves a dockerd behind. An engine started by hand (`start` above) is stopped by hand.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const WORKSPACES = resolve(fileURLToPath(new URL('../infra/workspaces', import.meta.url)));
export const TEST_IMAGE = 'exam/workspace-test';
const BASE_IMAGE = 'exam/busybox-base';

export type TestEngine = { socketPath: string; dir: string; startedHere: boolean };

/**
 * `watch`: a watchdog stops the engine once no lease holder lives (default; the CLI's `start` leaves it off).
 * `images`: build the test images (default). `hostNetwork`: let dockerd edit iptables and add the workspace
 * firewall (default); off for a throwaway second engine that must not touch the host's rules.
 */
export type TestEngineOptions = { watch?: boolean; images?: boolean; hostNetwork?: boolean };

export function engineDir(): string {
  return process.env.EXAM_DOCKER_DIR ?? '/tmp/exam-docker-test';
}

const log = (message: string) => process.stderr.write(`[docker-test-engine] ${message}\n`);

function ping(socketPath: string, timeoutMs = 1000): Promise<boolean> {
  return new Promise((done) => {
    const req = request({ socketPath, path: '/_ping', timeout: timeoutMs }, (res) => {
      res.resume();
      done(res.statusCode === 200);
    });
    req.on('error', () => done(false));
    req.on('timeout', () => {
      req.destroy();
      done(false);
    });
    req.end();
  });
}

function pidOf(dir: string): number | undefined {
  try {
    const pid = Number(readFileSync(join(dir, 'docker.pid'), 'utf8').trim());
    process.kill(pid, 0);
    return pid;
  } catch {
    return undefined;
  }
}

function which(binary: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${binary}`], { stdio: 'ignore' }).status === 0;
}

function docker(socketPath: string, args: string[], opts: { input?: Buffer; cwd?: string } = {}) {
  const result = spawnSync('docker', args, {
    env: { ...process.env, DOCKER_HOST: `unix://${socketPath}`, DOCKER_BUILDKIT: '0' },
    input: opts.input,
    cwd: opts.cwd,
    maxBuffer: 64 * 1024 * 1024,
  });
  return { ok: result.status === 0, stdout: result.stdout?.toString() ?? '', stderr: result.stderr?.toString() ?? '' };
}

/** Hash of a folder's files, stored as an image label so an edited Dockerfile triggers a rebuild. */
function contentHash(dir: string): string {
  const hash = createHash('sha256');
  const walk = (path: string) => {
    for (const name of readdirSync(path).sort()) {
      const full = join(path, name);
      if (statSync(full).isDirectory()) walk(full);
      else
        hash
          .update(relative(dir, full))
          .update(readFileSync(full))
          .update(String(statSync(full).mode));
    }
  };
  walk(dir);
  return hash.digest('hex').slice(0, 16);
}

function ensureImages(socketPath: string) {
  if (!docker(socketPath, ['image', 'inspect', BASE_IMAGE]).ok) {
    log(`importing ${BASE_IMAGE} from busybox-static`);
    const rootfs = spawnSync('sh', [join(WORKSPACES, 'base/make-busybox-rootfs.sh')], { maxBuffer: 64 * 1024 * 1024 });
    if (rootfs.status !== 0)
      throw new Error(`cannot make the busybox root filesystem: ${rootfs.stderr.toString().trim()}`);
    const imported = docker(socketPath, ['import', '-', BASE_IMAGE], { input: rootfs.stdout });
    if (!imported.ok) throw new Error(`docker import failed: ${imported.stderr.trim()}`);
  }
  const hash = contentHash(join(WORKSPACES, 'test'));
  const current = docker(socketPath, [
    'image',
    'inspect',
    '-f',
    '{{index .Config.Labels "exam.content-hash"}}',
    TEST_IMAGE,
  ]);
  if (current.ok && current.stdout.trim() === hash) return;
  log(`building ${TEST_IMAGE}`);
  const built = docker(socketPath, ['build', '-q', '--label', `exam.content-hash=${hash}`, '-t', TEST_IMAGE, '.'], {
    cwd: join(WORKSPACES, 'test'),
  });
  if (!built.ok) throw new Error(`docker build of ${TEST_IMAGE} failed: ${built.stderr.trim()}`);
  ensureRunnerImages(socketPath);
}

/**
 * The code runner's images the tests use (RUNNER_TEST_LANGUAGES, comma-separated, default python), built by
 * scripts/build-runner-images.sh: the first time a debootstrap of the toolchain (under a minute), after that
 * only when infra/runners changed (seconds), and nothing at all when they are up to date. They stay in the
 * engine's data root between runs.
 */
function ensureRunnerImages(socketPath: string) {
  const languages = (process.env.RUNNER_TEST_LANGUAGES ?? 'python')
    .split(',')
    .map((l) => l.trim())
    .filter(Boolean);
  if (!languages.length) return;
  const built = spawnSync('sh', [join(WORKSPACES, '../../scripts/build-runner-images.sh'), ...languages], {
    env: { ...process.env, DOCKER_HOST: `unix://${socketPath}` },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  // Not fatal to the engine: the workspace suites do not need these images, and a suite that does fails on
  // its own with the orchestrator's reason ("runner image exam/runner-python is not built").
  if (built.status !== 0)
    log(`building the runner images (${languages.join(', ')}) failed: ${built.stderr.trim().slice(-2000)}`);
}

function firewall(action: 'add' | 'remove') {
  const result = spawnSync('sh', [join(WORKSPACES, 'host-firewall.sh'), action], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`host-firewall.sh ${action} failed: ${result.stderr.trim()}`);
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

function takeLease(dir: string) {
  mkdirSync(join(dir, 'leases'), { recursive: true });
  writeFileSync(join(dir, 'leases', String(process.pid)), '');
}

/**
 * Runs `work` while holding the engine folder's lock, so that suites starting at the same moment (turbo
 * runs the PGlite and PostgreSQL suites side by side) never spawn two dockerd on one PID file and socket,
 * and a suite stopping the engine never races one that is taking a lease. A lock whose holder has died
 * is taken over.
 */
async function withEngineLock<T>(dir: string, work: () => Promise<T>): Promise<T> {
  mkdirSync(dir, { recursive: true });
  const lock = join(dir, 'engine.lock');
  const deadline = Date.now() + 180_000;
  for (;;) {
    try {
      writeFileSync(lock, String(process.pid), { flag: 'wx' });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      let holder: number;
      try {
        holder = Number(readFileSync(lock, 'utf8').trim());
      } catch {
        continue; // released between the two calls
      }
      // An empty file is a holder between creating and writing it; a dead holder's lock is stale.
      if (holder && !alive(holder)) {
        rmSync(lock, { force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`${lock} is held by process ${holder} for over 3 minutes`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  try {
    return await work();
  } finally {
    rmSync(lock, { force: true });
  }
}

/**
 * Ends this process's use of the engine. An engine a test run started is stopped by the last run
 * that still used it, so a suite finishing first never pulls the engine from under another one.
 */
export async function releaseTestEngine(engine: TestEngine): Promise<void> {
  await withEngineLock(engine.dir, async () => {
    rmSync(join(engine.dir, 'leases', String(process.pid)), { force: true });
    const marker = join(engine.dir, 'started-by-tests');
    if (engine.startedHere) writeFileSync(marker, '');
    if (!existsSync(marker)) return;
    if (liveLeases(engine.dir).length) return;
    rmSync(marker, { force: true });
    await stopEngine(engine.dir);
  });
}

/** Starts dockerd under `dir` (or reuses the one already running there) and makes sure the test images exist. */
export function startTestEngine(dir = engineDir(), opts: TestEngineOptions = {}): Promise<TestEngine> {
  return withEngineLock(dir, () => startEngine(dir, opts));
}

async function startEngine(dir: string, opts: TestEngineOptions): Promise<TestEngine> {
  // WORKSPACE_ENGINE_KEEP=1 (the orchestrator's suites) keeps the engine for the next run: no watchdog then.
  const { watch = process.env.WORKSPACE_ENGINE_KEEP !== '1', images = true, hostNetwork = true } = opts;
  const socketPath = join(dir, 'docker.sock');
  if (await ping(socketPath)) {
    takeLease(dir);
    if (hostNetwork) firewall('add');
    if (images) ensureImages(socketPath);
    return { socketPath, dir, startedHere: false };
  }
  if (!which('dockerd')) throw new Error('dockerd is not installed (apt-get install -y docker.io)');
  if (!which('docker')) throw new Error('the docker CLI is not installed (apt-get install -y docker.io)');
  if (process.getuid?.() !== 0) throw new Error('dockerd needs root (it manages cgroups, mounts and iptables)');
  // A dockerd whose PID file is here but which does not answer is hung or half stopped: end it first,
  // or the new one refuses to start over its PID file.
  await stopEngine(dir);
  rmSync(join(dir, 'docker.pid'), { force: true });
  rmSync(socketPath, { force: true });
  const logFile = join(dir, 'dockerd.log');
  const out = openSync(logFile, 'a');
  // --bridge=none: no default docker0, so this engine never fights another one over that name.
  const args = [
    '-H',
    `unix://${socketPath}`,
    '--data-root',
    join(dir, 'root'),
    '--exec-root',
    join(dir, 'exec'),
    '--pidfile',
    join(dir, 'docker.pid'),
    '--bridge=none',
    ...(hostNetwork ? [] : ['--iptables=false', '--ip-forward=false']),
  ];
  const child = spawn('dockerd', args, { detached: true, stdio: ['ignore', out, out] });
  let exited: string | undefined;
  child.on('exit', (code, signal) => (exited = `dockerd exited (${code ?? signal})`));
  child.unref();
  const deadline = Date.now() + 30_000;
  while (!(await ping(socketPath))) {
    if (exited || Date.now() > deadline) {
      const tail = existsSync(logFile) ? readFileSync(logFile, 'utf8').trim().split('\n').slice(-5).join('\n') : '';
      if (!exited) process.kill(child.pid!, 'SIGTERM');
      throw new Error(`${exited ?? 'dockerd did not answer within 30 s'}; last log lines:\n${tail}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  log(`dockerd ${child.pid} listening on ${socketPath}`);
  takeLease(dir);
  writeFileSync(join(dir, 'host-network'), hostNetwork ? '1' : '0');
  if (watch) {
    // Marked as the tests' engine now, not at release: a killed starter never releases.
    writeFileSync(join(dir, 'started-by-tests'), '');
    startWatchdog(dir, logFile);
  }
  if (hostNetwork) firewall('add');
  if (images) ensureImages(socketPath);
  return { socketPath, dir, startedHere: true };
}

function startWatchdog(dir: string, logFile: string) {
  const out = openSync(logFile, 'a');
  const watchdog = spawn(process.execPath, [fileURLToPath(import.meta.url), 'watchdog'], {
    detached: true,
    stdio: ['ignore', out, out],
    env: { ...process.env, EXAM_DOCKER_DIR: dir },
  });
  watchdog.unref();
  writeFileSync(join(dir, 'watchdog.pid'), String(watchdog.pid));
}

const liveLeases = (dir: string) =>
  readdirSync(join(dir, 'leases')).filter((name) => {
    if (alive(Number(name))) return true;
    rmSync(join(dir, 'leases', name), { force: true });
    return false;
  });

/**
 * The watchdog's loop: while the engine runs and is the tests' (the marker), it checks the leases every
 * half second; two checks in a row without a live holder stop the engine under the lock (a new suite
 * taking a lease meanwhile keeps it). It ends with the engine, whoever stopped it.
 */
async function watchEngine(dir: string) {
  let idle = 0;
  for (;;) {
    await new Promise((r) => setTimeout(r, 500));
    if (!pidOf(dir) || !existsSync(join(dir, 'started-by-tests'))) return;
    idle = liveLeases(dir).length ? 0 : idle + 1;
    if (idle < 2) continue;
    await withEngineLock(dir, async () => {
      if (liveLeases(dir).length || !existsSync(join(dir, 'started-by-tests'))) return;
      log('no process holds a lease any more; stopping the engine the tests started');
      rmSync(join(dir, 'started-by-tests'), { force: true });
      await stopEngine(dir);
    });
  }
}

/** Stops the dockerd whose PID file is under `dir`; waits until it has exited. */
export function stopTestEngine(dir = engineDir()): Promise<void> {
  return withEngineLock(dir, () => stopEngine(dir));
}

async function stopEngine(dir: string): Promise<void> {
  const pid = pidOf(dir);
  if (!pid) return;
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    try {
      process.kill(pid, 0);
    } catch {
      break;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  if (pidOf(dir)) process.kill(pid, 'SIGKILL');
  const hostNetwork = !existsSync(join(dir, 'host-network')) || readFileSync(join(dir, 'host-network'), 'utf8') !== '0';
  if (hostNetwork) firewall('remove');
  log(`dockerd ${pid} stopped`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const command = process.argv[2] ?? 'start';
  try {
    if (command === 'start') console.log((await startTestEngine(engineDir(), { watch: false })).socketPath);
    else if (command === 'stop') await stopTestEngine();
    else if (command === 'watchdog') await watchEngine(engineDir());
    else if (command === 'status') {
      const socketPath = join(engineDir(), 'docker.sock');
      const up = Boolean(pidOf(engineDir())) && (await ping(socketPath));
      console.log(up ? `running: ${socketPath}` : 'stopped');
      process.exitCode = up ? 0 : 1;
    } else {
      console.error('usage: node scripts/docker-test-engine.ts start|stop|status');
      process.exitCode = 2;
    }
  } catch (err) {
    console.error(`[docker-test-engine] ${(err as Error).message}`);
    process.exitCode = 1;
  }
}
