import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { embeddedDatabase, startInOrder, waitForPort } from './start-order.ts';

describe("pnpm start's order", () => {
  const servers: Server[] = [];
  afterEach(() => servers.splice(0).forEach((s) => s.close()));

  /** A service whose /ready answers 503 until `becomeReady()`. */
  async function service() {
    let ready = false;
    const server = createServer((_req, res) => {
      res.writeHead(ready ? 200 : 503).end();
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/ready`;
    return { url, becomeReady: () => void (ready = true) };
  }

  it('starts the web servers only after every service answers its readiness check', async () => {
    const a = await service();
    const b = await service();
    const web = await service();
    web.becomeReady();
    const events: string[] = [];
    setTimeout(() => {
      events.push('a ready');
      a.becomeReady();
    }, 300);
    setTimeout(() => {
      events.push('b ready');
      b.becomeReady();
    }, 900);
    const failed = await startInOrder({
      services: [
        { name: 'a', url: a.url },
        { name: 'b', url: b.url },
      ],
      startWeb: () => {
        events.push('web started');
        return [{ name: 'web', url: web.url }];
      },
      timeoutMs: 10_000,
    });
    expect(failed).toEqual([]);
    expect(events).toEqual(['a ready', 'b ready', 'web started']);
  });

  it('never starts the web servers when a service does not become ready', async () => {
    const a = await service();
    let started = false;
    const failed = await startInOrder({
      services: [{ name: 'a', url: a.url }],
      startWeb: () => {
        started = true;
        return [];
      },
      timeoutMs: 800,
    });
    expect(failed).toEqual(['a']);
    expect(started).toBe(false);
  });
});

describe("pnpm start's embedded database", () => {
  const services = ['exam-service', 'results-service'];
  const choose = (databaseUrl: string | undefined, files: string[]) =>
    embeddedDatabase({
      databaseUrl,
      dataDir: '/data',
      services,
      port: 4032,
      exists: (path) => files.includes(path),
    });

  it('serves one shared database to every service on a fresh data directory', () => {
    expect(choose(undefined, [])).toEqual({
      mode: 'shared',
      port: 4032,
      url: 'postgres://postgres@127.0.0.1:4032/postgres',
    });
    expect(choose(undefined, [join('/data', 'postgres', 'PG_VERSION')])).toMatchObject({ mode: 'shared' });
    expect(choose(undefined, [join('/data', 'postgresql', 'PG_VERSION')])).toMatchObject({ mode: 'shared' });
  });

  it('keeps the per-service layout a data directory already holds, and leaves DATABASE_URL alone', () => {
    expect(choose(undefined, [join('/data', 'results-service', 'PG_VERSION')])).toEqual({ mode: 'per-service' });
    // Once the shared database exists it wins: the old folders are leftovers.
    expect(
      choose(undefined, [join('/data', 'results-service', 'PG_VERSION'), join('/data', 'postgres', 'PG_VERSION')]),
    ).toMatchObject({ mode: 'shared' });
    expect(
      choose(undefined, [join('/data', 'results-service', 'PG_VERSION'), join('/data', 'postgresql', 'PG_VERSION')]),
    ).toMatchObject({ mode: 'shared' });
    expect(choose('postgres://db/exam', [])).toEqual({ mode: 'external' });
  });

  it('waits for the database port to accept connections', async () => {
    const probe = createTcpServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    expect(await waitForPort('127.0.0.1', port, 300)).toBe(false);

    const server = createTcpServer((socket) => socket.end());
    setTimeout(() => server.listen(port, '127.0.0.1'), 400);
    try {
      expect(await waitForPort('127.0.0.1', port, 10_000)).toBe(true);
    } finally {
      server.close();
    }
  });
});
