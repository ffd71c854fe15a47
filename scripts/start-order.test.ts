import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startInOrder } from './start-order.ts';

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
