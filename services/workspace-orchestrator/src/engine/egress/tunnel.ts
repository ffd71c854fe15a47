import type { IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import type { Duplex } from 'node:stream';
import { splitHostPort } from './allowlist.ts';
import { refuseOnSocket, unreachable } from './refusals.ts';
import type { ProxyContext } from './proxy-context.ts';

/** `CONNECT host:port` (HTTPS): the tunnel opens only after the check, then carries bytes both ways. */
export async function onConnect(ctx: ProxyContext, req: IncomingMessage, client: Duplex, head: Buffer) {
  const source = req.socket.remoteAddress;
  const target = splitHostPort(req.url ?? '');
  if (!target?.port) {
    void ctx.record(source, { method: 'CONNECT', target: req.url }, 'CONNECT needs host:port');
    return refuseOnSocket(client, 400, `CONNECT needs host:port, got "${req.url ?? ''}"`);
  }
  const decision = await ctx.decide(target.host, target.port);
  void ctx.record(
    source,
    { method: 'CONNECT', host: target.host, port: target.port },
    decision.ok ? undefined : decision.reason,
  );
  if (!decision.ok) return refuseOnSocket(client, decision.status, decision.reason);
  if (client.destroyed) return;
  const upstream = connect({ host: decision.address, port: target.port, timeout: ctx.connectTimeoutMs });
  ctx.sockets.add(upstream);
  upstream.once('close', () => ctx.sockets.delete(upstream));
  let open = false;
  upstream.once('connect', () => {
    open = true;
    upstream.setTimeout(ctx.idleTimeoutMs);
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
  });
  upstream.on('timeout', () => (open ? upstream.destroy() : upstream.destroy(new Error('connect timed out'))));
  upstream.on('error', (err) => {
    if (!open) refuseOnSocket(client, 502, unreachable(`${target.host}:${target.port}`, err));
    else client.destroy();
  });
  upstream.on('close', () => open && client.destroy());
  client.on('error', () => upstream.destroy());
  client.on('close', () => upstream.destroy());
}
