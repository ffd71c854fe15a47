import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { createServer } from '../../create-server.ts';
import { lifecycleOf } from '../../lifecycle.ts';
import { healthPlugin } from '../../plugins/health.ts';
import { runServer } from '../../run.ts';

/**
 * A server run by runServer for run.test.ts: `GET /slow?ms=` answers after ms, `GET /stream` sends a frame every
 * 50 ms until the drain time is up, then an `interrupted` frame. Prints `listening <port>`, and `closed` from an
 * onClose hook (where a service closes its database).
 */
const app = createServer({ logLevel: 'silent' });
await app.register(healthPlugin, { service: 'drain-fixture', checks: {} });
app.get('/slow', async (request) => {
  await sleep(Number((request.query as { ms?: string }).ms ?? 1000));
  return { saved: true };
});
app.get('/stream', async (_request, reply) => {
  reply.hijack();
  reply.raw.writeHead(200, { 'content-type': 'text/event-stream' });
  const end = lifecycleOf(app).streamsEnd;
  while (!end.aborted) {
    reply.raw.write('data: {"type":"tick"}\n\n');
    await sleep(50);
  }
  reply.raw.end('data: {"type":"interrupted"}\n\n');
});
app.addHook('onClose', async () => {
  process.stdout.write('closed\n');
});
await runServer(app, {
  host: '127.0.0.1',
  port: 0,
  shutdownDelayMs: Number(process.env.SHUTDOWN_DELAY_MS ?? 0),
  shutdownDrainMs: Number(process.env.SHUTDOWN_DRAIN_MS ?? 10_000),
});
process.stdout.write(`listening ${(app.server.address() as AddressInfo).port}\n`);
