import { spawn, type ChildProcess } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const FIXTURE = fileURLToPath(new URL('./testing/draining-server/server.ts', import.meta.url));

type Running = { child: ChildProcess; port: number; output: string[]; exited: Promise<number | null> };
const children: ChildProcess[] = [];

async function start(env: Record<string, string>): Promise<Running> {
  const child = spawn(process.execPath, [FIXTURE], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const output: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.stdout!.setEncoding('utf8');
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', (part: string) => {
      for (const line of part.split('\n').filter(Boolean)) {
        output.push(line);
        const match = /^listening (\d+)$/.exec(line);
        if (match) resolve(Number(match[1]));
      }
    });
    child.once('exit', (code) => reject(new Error(`fixture exited with ${code}`)));
  });
  return { child, port, output, exited };
}

/** One request on a connection of its own (no keep-alive pool), so a refused connection shows as such. */
function get(port: number, path: string): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (part: string) => (body += part));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

describe('runServer shutdown', () => {
  it('answers 503 on /ready at once, finishes the request in flight, refuses new connections and exits 0', async () => {
    const server = await start({ SHUTDOWN_DELAY_MS: '600', SHUTDOWN_DRAIN_MS: '10000' });
    expect((await get(server.port, '/ready')).status).toBe(200);

    const slow = get(server.port, '/slow?ms=1500');
    await wait(100);
    server.child.kill('SIGTERM');
    await wait(100);

    // During the delay the server still serves, but tells routing it is going away.
    const ready = await get(server.port, '/ready');
    expect(ready.status).toBe(503);
    expect(JSON.parse(ready.body)).toMatchObject({ status: 'draining' });
    expect(ready.headers.connection).toBe('close');
    expect((await get(server.port, '/health')).status).toBe(200);

    await wait(700);
    await expect(get(server.port, '/health')).rejects.toMatchObject({ code: 'ECONNREFUSED' });

    const finished = await slow;
    expect(finished.status).toBe(200);
    expect(JSON.parse(finished.body)).toEqual({ saved: true });
    expect(await server.exited).toBe(0);
    // The onClose hooks (the database) ran only after the request in flight had finished.
    expect(server.output).toContain('closed');
  });

  it('tells a stream still open when the drain time is up to end, then exits 0', async () => {
    const server = await start({ SHUTDOWN_DELAY_MS: '0', SHUTDOWN_DRAIN_MS: '300' });
    const stream = get(server.port, '/stream');
    await wait(200);
    server.child.kill('SIGTERM');

    const { status, body } = await stream;
    expect(status).toBe(200);
    expect(body).toContain('{"type":"tick"}');
    expect(body.trim().endsWith('data: {"type":"interrupted"}')).toBe(true);
    expect(await server.exited).toBe(0);
  });

  it('exits 0 at once on SIGINT when nothing is in flight', async () => {
    const server = await start({});
    server.child.kill('SIGINT');
    expect(await server.exited).toBe(0);
    expect(server.output).toContain('closed');
  });
});
