import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { haproxyConfig } from './haproxy-config.ts';
import { waitFor } from './harness.ts';

// A replica that dies on every request the first time it sees it (the connection closed, no answer: what a
// SIGKILL looks like from the proxy) and answers it the second time. Through the generated configuration,
// what reaches it twice is what haproxy repeated.
const seen = new Map<string, number>();
let replica: Server;
let haproxy: ChildProcess;
let dir: string;
const FRONTEND = Number(process.env.SCALE_BASE_PORT ?? 7300) + 40;

beforeAll(async () => {
  replica = createServer((request, response) => {
    if (request.url === '/ready') return void response.end('ready');
    const key = `${request.method} ${request.url}`;
    const count = (seen.get(key) ?? 0) + 1;
    seen.set(key, count);
    if (count === 1) return void request.socket.destroy();
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  await new Promise<void>((resolve) => replica.listen(0, '127.0.0.1', resolve));
  dir = mkdtempSync(join(tmpdir(), 'exam-haproxy-test-'));
  const file = join(dir, 'haproxy.cfg');
  writeFileSync(
    file,
    haproxyConfig([
      {
        name: 'results-service',
        frontendPort: FRONTEND,
        replicaPorts: [(replica.address() as AddressInfo).port],
        healthPath: '/ready',
      },
    ]),
  );
  const check = spawnSync('haproxy', ['-c', '-q', '-f', file], { encoding: 'utf8' });
  expect(check.status, `haproxy -c: ${check.error?.message ?? check.stderr}`).toBe(0);
  haproxy = spawn('haproxy', ['-db', '-f', file], { stdio: 'ignore' });
  await waitFor(`http://127.0.0.1:${FRONTEND}/ready`, { timeoutMs: 10_000, child: haproxy, what: 'haproxy' });
});

afterAll(async () => {
  haproxy?.kill('SIGKILL');
  await new Promise((resolve) => replica?.close(resolve));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const send = (method: string, path: string) =>
  fetch(`http://127.0.0.1:${FRONTEND}${path}`, { method, ...(method === 'GET' ? {} : { body: '{}' }) });

describe('the generated haproxy configuration', () => {
  it('sends an answer save again when the replica died on it, since a save of one seq is idempotent', async () => {
    const response = await send('PUT', '/api/attempts/a1/answers/0');
    expect(response.status).toBe(200);
    expect(seen.get('PUT /api/attempts/a1/answers/0')).toBe(2);
  });

  it('sends a submit again, which results-service makes idempotent', async () => {
    const response = await send('POST', '/api/attempts/a1/submit');
    expect(response.status).toBe(200);
    expect(seen.get('POST /api/attempts/a1/submit')).toBe(2);
  });

  it('never repeats a chat message or an attempt start the replica may have taken: the client decides', async () => {
    // The client gets haproxy's 502, or its connection closed without an answer: never a repeated request's 200.
    const outcome = (method: string, path: string) =>
      send(method, path).then(
        (response) => response.status,
        () => 'closed',
      );
    expect([502, 'closed']).toContain(await outcome('POST', '/api/llm/chat'));
    expect([502, 'closed']).toContain(await outcome('POST', '/api/attempts'));
    expect(seen.get('POST /api/llm/chat')).toBe(1);
    expect(seen.get('POST /api/attempts')).toBe(1);
  });
});
