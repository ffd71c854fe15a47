import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const script = join(import.meta.dirname, 'check-prerequisites.ts');

/** A folder of stand-in programs, so the check sees exactly the tools a test gives it. */
function fakeTools(names: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'prerequisites-'));
  for (const name of names) {
    writeFileSync(join(dir, name), '#!/bin/sh\nexit 0\n');
    chmodSync(join(dir, name), 0o755);
  }
  return dir;
}

/** Runs the check as `pnpm test` does, without blocking this process (the fake Redis below must answer). */
function check(env: Record<string, string | undefined>): Promise<{ status: number | null; output: string }> {
  const tools = fakeTools(['dockerd', 'docker', 'docker-compose', 'debootstrap', 'haproxy', 'chromium', 'busybox']);
  const child = spawn(process.execPath, [script], {
    env: {
      PATH: tools,
      CHROMIUM_PATH: join(tools, 'chromium'),
      BUSYBOX: join(tools, 'busybox'),
      ...env,
    } as NodeJS.ProcessEnv,
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, output })));
}

let redis: Server;
let redisUrl: string;

beforeAll(async () => {
  // Answers PING as Redis does.
  redis = createServer((socket) => socket.on('data', () => socket.end('+PONG\r\n')));
  await new Promise<void>((resolve) => redis.listen(0, '127.0.0.1', resolve));
  redisUrl = `redis://127.0.0.1:${(redis.address() as AddressInfo).port}`;
});

afterAll(() => redis.close());

describe('scripts/check-prerequisites.ts', () => {
  it('names a tool missing from PATH with the command that installs it, and exits 1', async () => {
    const withoutHaproxy = fakeTools(['dockerd', 'docker', 'docker-compose', 'debootstrap']);
    const { status, output } = await check({ PATH: withoutHaproxy, TEST_REDIS_URL: redisUrl });
    expect(status).toBe(1);
    expect(output).toContain('✗ haproxy on PATH');
    expect(output).toContain('install: apt-get install -y haproxy');
    expect(output).not.toContain('dockerd on PATH');
    expect(output).not.toContain('debootstrap on PATH');
    expect(output).not.toContain('Chromium at');
    expect(output).not.toContain('Redis at');
  });

  it('names Chromium, the Docker engine and busybox where the suites look for them', async () => {
    const { status, output } = await check({
      PATH: fakeTools(['haproxy', 'docker-compose', 'debootstrap']),
      CHROMIUM_PATH: '/nonexistent/chromium',
      BUSYBOX: '/nonexistent/busybox',
    });
    expect(status).toBe(1);
    expect(output).toContain('✗ Chromium at /nonexistent/chromium');
    expect(output).toContain('install: apt-get install -y chromium');
    expect(output).toContain('✗ dockerd on PATH');
    expect(output).toContain('install: apt-get install -y docker.io');
    expect(output).toContain('✗ busybox at /nonexistent/busybox');
    expect(output).toContain('install: apt-get install -y busybox-static');
    expect(output).not.toContain('haproxy on PATH');
  });

  it('names PostgreSQL and Redis when their variables are unset or nothing answers there', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));

    const unset = await check({});
    expect(unset.status).toBe(1);
    expect(unset.output).toContain('✗ TEST_DATABASE_URL is not set');
    expect(unset.output).toContain('✗ TEST_REDIS_URL is not set');
    expect(unset.output).toContain('apt-get install -y redis-server');

    const down = await check({
      TEST_DATABASE_URL: `postgres://root@127.0.0.1:${port}/test`,
      TEST_REDIS_URL: `redis://127.0.0.1:${port}`,
    });
    expect(down.status).toBe(1);
    expect(down.output).toContain(
      `✗ PostgreSQL at TEST_DATABASE_URL (postgres://…@127.0.0.1:${port}/test): connect ECONNREFUSED`,
    );
    expect(down.output).toContain(`✗ Redis at TEST_REDIS_URL (redis://127.0.0.1:${port}): connect ECONNREFUSED`);
    expect(down.output).toContain('apt-get install -y postgresql');
  });

  it('says that .ci/run prepares everything on a fresh Debian machine', async () => {
    expect((await check({})).output).toContain('`.ci/run` (as root) installs Node 24, pnpm and all of the above');
  });
});
