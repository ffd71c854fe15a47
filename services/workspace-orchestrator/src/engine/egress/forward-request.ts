import { request, type IncomingMessage, type ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import type { ProxyContext } from './proxy-context.ts';
import { refuse, unreachable, withoutHopByHop } from './refusals.ts';

function absoluteUrl(raw: string | undefined): URL | undefined {
  try {
    return new URL(raw ?? '');
  } catch {
    return undefined;
  }
}

/** An absolute-URI request (plain HTTP): forwarded to an allowed host with its Host kept and proxy headers dropped. */
export async function onRequest(ctx: ProxyContext, req: IncomingMessage, res: ServerResponse) {
  const source = req.socket.remoteAddress;
  const url = absoluteUrl(req.url);
  if (!url || url.protocol !== 'http:') {
    const reason = url
      ? `only http:// URLs are proxied as requests; use CONNECT for ${url.protocol}`
      : 'a forward proxy needs an absolute http:// URL or CONNECT host:port';
    void ctx.record(source, { method: req.method, target: req.url }, reason);
    req.resume();
    return refuse(res, 400, reason);
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = url.port ? Number(url.port) : 80;
  const decision = await ctx.decide(host, port);
  void ctx.record(source, { method: req.method, host, port }, decision.ok ? undefined : decision.reason);
  if (!decision.ok) {
    req.resume();
    return refuse(res, decision.status, decision.reason);
  }
  const upstream = request({
    host: decision.address,
    family: isIP(decision.address),
    port,
    method: req.method,
    path: `${url.pathname}${url.search}`,
    headers: { ...withoutHopByHop(req.headers), host: url.host },
    setHost: false,
    timeout: ctx.idleTimeoutMs,
  });
  upstream.on('response', (answer) => {
    res.writeHead(answer.statusCode ?? 502, withoutHopByHop(answer.headers));
    answer.pipe(res);
  });
  upstream.on('timeout', () => upstream.destroy(new Error('timed out')));
  upstream.on('error', (err) => refuse(res, 502, unreachable(`${host}:${port}`, err)));
  res.on('close', () => upstream.destroy());
  req.pipe(upstream);
}
