// `pnpm test:deploy`: starts infra/compose.yaml for real and runs the journeys through its nginx. The last step of
// `pnpm test`, so CI runs it (cold: a fresh machine has no image).
//   0. tools    docker-compose (Debian's, which .ci/run installs and check-prerequisites names), or the compose plugin.
//   1. engine   a private dockerd (scripts/docker-test-engine.ts) under DEPLOY_DOCKER_DIR (default
//               /tmp/exam-docker-deploy), reused when running; its data root keeps the images between runs.
//   2. images   side by side: exam/postgres, exam/redis, exam/nginx from Debian's packages
//               (scripts/build-data-images.sh, rebuilt only when infra/images/data changed) and the platform's six
//               (scripts/build-images.sh: one shared layer of code and production dependencies, six thin images
//               on it, the web bundles from turbo's cache when the checkout built them already; rebuilt only when
//               the checkout differs from the one they were built from).
//   3. up       `docker-compose up -d` of the whole file: two replicas of exam-service and results-service (the
//               kill journey needs them), one of llm-gateway and of each web server (the *_REPLICAS variables
//               override), the migrations, PostgreSQL, Redis, nginx serving creator.localhost and exam.localhost.
//   4. healthy  every replica's healthcheck passes and nginx answers on both host names; a container that
//               crash-loops or a migration that fails ends the run at once, with the logs.
//   5. journeys apps/e2e/playwright.deploy.config.ts: authoring, a candidate's sitting, grading, and a replica of
//               exam-service and of results-service killed mid-attempt with nothing lost.
//   6. down     `docker-compose down -v`, and the engine stopped if this run started it.
// Each phase's time is printed. Measured on this 2-core machine shared with other jobs, load average 21–36
// (docs/deploy.md has each phase): cold (a new engine, no image; the web bundles from turbo's cache, as in
// `pnpm test`) 786 s (13.1 min), and 899 s (15.0 min) before the data and platform images built side by side;
// images cached 448 s (7.5 min).
// Ports: 127.0.0.1:(8080 + E2E_PORT_OFFSET); network DEPLOY_SUBNET (default
// 172.29.<E2E_PORT_OFFSET / 100>.0/24), so checkouts with different offsets can run side by side.
// DEPLOY_KEEP=1 leaves the stack running after the journeys (stop it with docker-compose down by hand).
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { releaseTestEngine, startTestEngine, type TestEngine } from './docker-test-engine.ts';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const env = process.env;
const offset = Number(env.E2E_PORT_OFFSET ?? 0);
const engineDir = env.DEPLOY_DOCKER_DIR ?? '/tmp/exam-docker-deploy';
const project = `exam-deploy-${offset}`;
const subnet = env.DEPLOY_SUBNET ?? `172.29.${Math.floor(offset / 100) % 256}.0/24`;
const gateway = subnet.replace(/\.0\/24$/, '.1');
const httpPort = 8080 + offset;
const bridge = `exam-dep-${offset}`.slice(0, 15);
/**
 * The engine runs with --iptables=false (it must not rewrite the host's rules, which another engine's tests may
 * rely on), so traffic between the project's containers crosses the host's FORWARD chain unaided, and a DROP
 * policy there (any dockerd sets one) would cut it. This rule lets the bridge talk to itself, and only that.
 */
const FORWARD_RULE = ['FORWARD', '-i', bridge, '-o', bridge, '-m', 'comment', '--comment', project, '-j', 'ACCEPT'];
const creatorHost = 'creator.localhost';
const takerHost = 'exam.localhost';
const PLATFORM_IMAGES = [
  'exam-service',
  'results-service',
  'llm-gateway',
  'workspace-orchestrator',
  'creator-web',
  'taker-web',
];
/** The services whose every replica must report healthy before the journeys start. */
const HEALTHY = ['postgres', 'redis', 'exam-service', 'results-service', 'llm-gateway', 'creator-web', 'taker-web'];

const log = (message: string) => process.stdout.write(`[test-deploy] ${message}\n`);
const timings: Array<[string, number]> = [];
async function phase<T>(name: string, work: () => Promise<T> | T): Promise<T> {
  const started = Date.now();
  log(`${name}…`);
  try {
    return await work();
  } finally {
    const seconds = (Date.now() - started) / 1000;
    timings.push([name, seconds]);
    log(`${name}: ${seconds.toFixed(1)} s`);
  }
}

function run(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; quiet?: boolean } = {},
) {
  const result = spawnSync(command, args, {
    cwd: options.cwd ?? ROOT,
    env: options.env ?? process.env,
    stdio: options.quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} exited ${result.status}${options.quiet ? `: ${result.stderr}` : ''}`);
  return result.stdout ?? '';
}

/** `run` without blocking the event loop, for two builds side by side; output goes to this process's. */
function runAsync(command: string, args: string[], runEnv: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd: ROOT, env: runEnv, stdio: 'inherit' });
    child.on('error', fail);
    child.on('exit', (code, signal) =>
      code === 0 ? done() : fail(new Error(`${command} ${args.join(' ')} exited ${code ?? signal}`)),
    );
  });
}

/** Records a step that runs inside a phase beside another one. */
async function timed(name: string, work: Promise<void>): Promise<void> {
  const started = Date.now();
  await work;
  const seconds = (Date.now() - started) / 1000;
  timings.push([name, seconds]);
  log(`${name}: ${seconds.toFixed(1)} s`);
}

const sh = (line: string) => spawnSync('sh', ['-c', line], { stdio: 'ignore' }).status === 0;

/** docker-compose 1.29 (Debian's) is the one compose this machine's apt has; the v2 plugin is used when present. */
function composeCommand(): string[] {
  if (sh('command -v docker-compose')) return ['docker-compose'];
  if (sh('docker compose version')) return ['docker', 'compose'];
  throw new Error('docker-compose is not installed: apt-get install -y docker-compose (.ci/run installs it)');
}

/** What goes into the platform images (scripts/build-images.sh stages these paths' tracked files). */
const IMAGE_SOURCES = [
  'apps/creator-web',
  'apps/taker-web',
  'services',
  'packages',
  'infra/images',
  'infra/workspaces',
];
const IMAGE_ROOT_FILES = ['package.json', 'pnpm-lock.yaml', 'pnpm-workspace.yaml'];

/** The content of those paths as they are now (staged blobs plus uncommitted edits) and the Node they run on. */
function sourceKey(): string {
  // infra/images/data: the data stores' images, which build-data-images.sh keys by their own content.
  const paths = ['--', ...IMAGE_SOURCES, ...IMAGE_ROOT_FILES, ':(exclude)infra/images/data'];
  const hash = createHash('sha256');
  hash.update(run('git', ['ls-files', '-s', ...paths], { quiet: true }));
  hash.update(run('git', ['diff', '--binary', ...paths], { quiet: true }));
  hash.update(process.version);
  return hash.digest('hex').slice(0, 16);
}

function httpStatus(host: string, path: string): Promise<number> {
  return new Promise((done) => {
    const req = request(
      { host: '127.0.0.1', port: httpPort, path, headers: { host: `${host}:${httpPort}` }, timeout: 5000 },
      (res) => {
        res.resume();
        done(res.statusCode ?? 0);
      },
    );
    req.on('error', () => done(0));
    req.on('timeout', () => {
      req.destroy();
      done(0);
    });
    req.end();
  });
}

let engine: TestEngine | undefined;
let composeUp = false;
let tearingDown = false;
/** Prints the project's container logs (set once compose is up), for a failure's reasons. */
let composeLogs: (() => void) | undefined;
const secret = () => randomBytes(32).toString('base64url');
const dockerEnv = (socket: string): NodeJS.ProcessEnv => ({
  ...env,
  DOCKER_HOST: `unix://${socket}`,
  DOCKER_BUILDKIT: '0',
});

async function main() {
  const compose = await phase('tools', composeCommand);
  engine = await phase('engine', () => startTestEngine(engineDir, { images: false, hostNetwork: false }));
  const denv = dockerEnv(engine.socketPath);
  const composeEnv: NodeJS.ProcessEnv = {
    ...denv,
    COMPOSE_PROJECT_NAME: project,
    COMPOSE_SUBNET: subnet,
    COMPOSE_BRIDGE: bridge,
    BRIDGE_GATEWAY: gateway,
    HTTP_PORT: `127.0.0.1:${httpPort}`,
    JWT_SECRET: secret(),
    INTERNAL_TOKEN: secret(),
    ENCRYPTION_KEY: secret(),
    POSTGRES_PASSWORD: secret(),
    CREATOR_HOST: creatorHost,
    TAKER_HOST: takerHost,
    WORKSPACE_HOST: 'workspace.exam.localhost',
    CREATOR_ORIGIN: `http://${creatorHost}:${httpPort}`,
    TAKER_ORIGIN: `http://${takerHost}:${httpPort}`,
    WORKSPACE_ORIGIN: `http://workspace.exam.localhost:${httpPort}`,
    // The replica-kill journey needs two replicas of exam-service and of results-service (the file's default); one
    // of each other component serves the journeys as well and starts sooner on a small machine.
    LLM_GATEWAY_REPLICAS: env.LLM_GATEWAY_REPLICAS ?? '1',
    CREATOR_WEB_REPLICAS: env.CREATOR_WEB_REPLICAS ?? '1',
    TAKER_WEB_REPLICAS: env.TAKER_WEB_REPLICAS ?? '1',
    DOCKER_SOCKET_PATH: engine.socketPath,
    DOCKER_GID: String(statSync(engine.socketPath).gid),
    LOG_LEVEL: 'warn',
  };
  const composeRun = (args: string[], quiet = false) =>
    run(compose[0]!, [...compose.slice(1), '-f', join(ROOT, 'infra/compose.yaml'), ...args], {
      env: composeEnv,
      quiet,
    });

  // The data stores' images (network and dpkg bound) build while the platform's (CPU bound) do.
  await phase('images', async () => {
    const key = sourceKey();
    const stamp = join(engineDir, 'platform-images.key');
    const present = PLATFORM_IMAGES.every((image) =>
      sh(`DOCKER_HOST=unix://${engine!.socketPath} docker image inspect exam/${image} >/dev/null 2>&1`),
    );
    const upToDate = present && existsSync(stamp) && readFileSync(stamp, 'utf8') === key;
    const data = timed('data images', runAsync('sh', [join(ROOT, 'scripts/build-data-images.sh')], denv));
    let platform: Promise<void> = Promise.resolve();
    if (upToDate) log('the platform images are up to date with this checkout');
    else
      platform = timed('platform images', runAsync('sh', [join(ROOT, 'scripts/build-images.sh')], denv)).then(() =>
        writeFileSync(stamp, key),
      );
    const outcomes = await Promise.allSettled([data, platform]);
    const failed = outcomes.find((o) => o.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
  });

  await phase('up', () => {
    composeUp = true;
    if (!sh(`iptables -C ${FORWARD_RULE.join(' ')} 2>/dev/null`)) run('iptables', ['-I', ...FORWARD_RULE]);
    composeLogs = () => {
      try {
        composeRun(['logs', '--no-color', '--tail', '30']);
      } catch (e) {
        log(`logs: ${(e as Error).message}`);
      }
    };
    composeRun(['up', '-d', '--remove-orphans']);
  });

  await phase('healthy', async () => {
    const deadline = Date.now() + 240_000;
    for (;;) {
      const lines = run(
        'docker',
        [
          'ps',
          '-a',
          '--filter',
          `label=com.docker.compose.project=${project}`,
          '--format',
          '{{.Label "com.docker.compose.service"}} {{.Status}}',
        ],
        { env: denv, quiet: true },
      )
        .trim()
        .split('\n');
      const waiting = HEALTHY.filter((service) => {
        const mine = lines.filter((l) => l.startsWith(`${service} `));
        return mine.length === 0 || mine.some((l) => !l.includes('(healthy)'));
      });
      // A replica that crashes at start (a missing production dependency, a bad setting) restarts forever and a
      // failed migration never will: either fails the run now, with the logs, rather than at the deadline.
      const broken = lines.filter((l) => l.includes('Restarting') || /-migrate Exited \([1-9]/.test(l));
      if (broken.length) throw new Error(`a container does not start:\n${broken.join('\n')}`);
      const creator = await httpStatus(creatorHost, '/');
      const taker = await httpStatus(takerHost, '/taker/start');
      if (!waiting.length && creator === 200 && taker === 200) break;
      if (Date.now() > deadline)
        throw new Error(
          `not healthy after 4 minutes: ${waiting.join(', ') || 'nginx'} (creator ${creator}, taker ${taker})\n${lines.join('\n')}`,
        );
      await new Promise((r) => setTimeout(r, 2000));
    }
    log(
      run(
        'docker',
        ['ps', '--filter', `label=com.docker.compose.project=${project}`, '--format', '{{.Names}}\t{{.Status}}'],
        { env: denv, quiet: true },
      ).trim(),
    );
  });

  await phase('journeys', () => {
    const result = spawnSync('pnpm', ['exec', 'playwright', 'test', '--config', 'playwright.deploy.config.ts'], {
      cwd: join(ROOT, 'apps/e2e'),
      stdio: 'inherit',
      env: {
        ...denv,
        E2E_CREATOR_ORIGIN: `http://${creatorHost}:${httpPort}`,
        E2E_TAKER_ORIGIN: `http://${takerHost}:${httpPort}`,
        DEPLOY_COMPOSE_PROJECT: project,
      },
    });
    if (result.status !== 0) {
      throw new Error(`the journeys failed (playwright exited ${result.status})`);
    }
  });
}

async function teardown() {
  if (tearingDown) return;
  tearingDown = true;
  if (engine && composeUp && env.DEPLOY_KEEP !== '1') {
    const e = engine;
    await phase('down', () => {
      const compose = composeCommand();
      run(
        compose[0]!,
        [...compose.slice(1), '-f', join(ROOT, 'infra/compose.yaml'), 'down', '-v', '--remove-orphans', '-t', '5'],
        {
          env: {
            ...dockerEnv(e.socketPath),
            COMPOSE_PROJECT_NAME: project,
            COMPOSE_SUBNET: subnet,
            COMPOSE_BRIDGE: bridge,
            BRIDGE_GATEWAY: gateway,
            JWT_SECRET: 'x',
            INTERNAL_TOKEN: 'x',
            ENCRYPTION_KEY: 'x',
            POSTGRES_PASSWORD: 'x',
          },
        },
      );
    });
  }
  if (composeUp && env.DEPLOY_KEEP !== '1') sh(`iptables -D ${FORWARD_RULE.join(' ')} 2>/dev/null`);
  if (engine && env.DEPLOY_KEEP !== '1') await releaseTestEngine(engine);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    log(`${signal}: tearing down`);
    void teardown().finally(() => process.exit(130));
  });

const started = Date.now();
try {
  await main();
  await teardown();
  log(
    `passed in ${((Date.now() - started) / 1000).toFixed(1)} s (${timings.map(([n, s]) => `${n} ${s.toFixed(0)} s`).join(', ')})`,
  );
} catch (err) {
  log(`FAILED: ${(err as Error).message}`);
  if (composeLogs) {
    log('the last log lines of every container:');
    composeLogs();
  }
  await teardown().catch((e: unknown) => log(`teardown: ${(e as Error).message}`));
  log(`failed after ${((Date.now() - started) / 1000).toFixed(1)} s`);
  process.exitCode = 1;
}
