import { lookup } from 'node:dns/promises';
import { createServer, request, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, isIP, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { isInternalAddress } from '@exam/server-kit/internal-address';
import { findAllowed, splitHostPort, type AllowedHost } from './allowlist.ts';

/**
 * The only way out for a workspace whose exam allows package registries (issue 6). Containers sit on
 * an internal bridge with no route out; npm, pip, Maven, R and friends reach their registries through
 * this forward proxy (HTTP_PROXY/HTTPS_PROXY), which lets through the hosts of EGRESS_ALLOWED_HOSTS
 * and nothing else: `CONNECT host:port` for HTTPS (bytes are tunnelled only after the check) and
 * absolute-URI requests for plain HTTP. It keeps no state, so every orchestrator replica runs its own.
 */

type Logger = { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
/** Who is behind a source address (a workspace container's address on the egress bridge). */
export type Identify = (address: string) => Promise<Record<string, unknown> | undefined>;

export type RegistryProxyOptions = {
  allowed: readonly AllowedHost[];
  /** How long the connection to a registry may take to open. */
  connectTimeoutMs?: number;
  /** A tunnel or request quiet for this long is closed. */
  idleTimeoutMs?: number;
};

export type RegistryProxy = {
  /** Where requests are logged and how a source address is named (the app wires its logger and the sessions table); either may be given alone. */
  attach(hooks: { log?: Logger; identify?: Identify }): void;
  /**
   * Listens on `host` at the first of `ports` that is free; answers the port. `reusePort`: replicas on one
   * host share the port (the kernel spreads connections; the proxy is stateless, so any replica may answer).
   */
  listen(host: string, ports: readonly number[], opts?: { reusePort?: boolean }): Promise<number>;
  close(): Promise<void>;
};

type Decision = { ok: true; address: string } | { ok: false; status: 403 | 502; reason: string };
const STATUS_TEXT = { 400: 'Bad Request', 403: 'Forbidden', 502: 'Bad Gateway' } as const;
/** Hop-by-hop headers (RFC 9110 §7.6.1) and the proxy's own, never passed on. */
const HOP_BY_HOP = [
  'connection',
  'proxy-connection',
  'keep-alive',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
];

function withoutHopByHop(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const listed = String(headers.connection ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase());
  return Object.fromEntries(
    Object.entries(headers).filter(([name]) => !HOP_BY_HOP.includes(name) && !listed.includes(name)),
  );
}

/** A refusal as a complete HTTP response on a raw socket (CONNECT and client errors have no ServerResponse). */
function refuseOnSocket(socket: Duplex, status: keyof typeof STATUS_TEXT, reason: string) {
  if (socket.destroyed) return;
  const body = `${reason}\n`;
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_TEXT[status]}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Exam-Egress: refused\r\nConnection: close\r\n\r\n${body}`,
  );
}

function refuse(res: ServerResponse, status: keyof typeof STATUS_TEXT, reason: string) {
  if (res.headersSent) return void res.destroy();
  res.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'x-exam-egress': 'refused',
    connection: 'close',
  });
  res.end(`${reason}\n`);
}

export function createRegistryProxy(opts: RegistryProxyOptions): RegistryProxy {
  const connectTimeoutMs = opts.connectTimeoutMs ?? 10_000;
  const idleTimeoutMs = opts.idleTimeoutMs ?? 5 * 60_000;
  let log: Logger = { info() {}, warn() {} };
  let identify: Identify = async () => undefined;
  const sockets = new Set<Socket>();

  /** Allowlist first (no DNS for a refused name), then the resolved address, which is the one connected to. */
  async function decide(host: string, port: number): Promise<Decision> {
    const entry = findAllowed(opts.allowed, host, port);
    if (!entry)
      return {
        ok: false,
        status: 403,
        reason: `${host}:${port} is not one of the package registries this exam allows`,
      };
    // An address named in the allowlist is taken as it is, even an internal one (a registry mirror on the LAN).
    if (entry.isAddress) return { ok: true, address: entry.host };
    let addresses: string[];
    try {
      addresses = (await lookup(entry.host, { all: true })).map((a) => a.address);
    } catch (err) {
      return {
        ok: false,
        status: 502,
        reason: `${host} could not be resolved (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
      };
    }
    // Any internal answer refuses the name: it would let the proxy reach this host's own services.
    const inside = addresses.find(isInternalAddress);
    if (inside || !addresses[0])
      return {
        ok: false,
        status: 403,
        reason: `${host} resolves to an internal address (${inside ?? 'none'}), which workspaces may not reach`,
      };
    return { ok: true, address: addresses[0] };
  }

  async function record(source: string | undefined, fields: Record<string, unknown>, refused?: string) {
    const who = source ? await identify(source).catch(() => undefined) : undefined;
    const entry = { source, ...who, ...fields };
    if (refused) log.warn({ ...entry, reason: refused }, 'egress refused');
    else log.info(entry, 'egress allowed');
  }

  async function onConnect(req: IncomingMessage, client: Duplex, head: Buffer) {
    const source = req.socket.remoteAddress;
    const target = splitHostPort(req.url ?? '');
    if (!target?.port) {
      void record(source, { method: 'CONNECT', target: req.url }, 'CONNECT needs host:port');
      return refuseOnSocket(client, 400, `CONNECT needs host:port, got "${req.url ?? ''}"`);
    }
    const decision = await decide(target.host, target.port);
    void record(
      source,
      { method: 'CONNECT', host: target.host, port: target.port },
      decision.ok ? undefined : decision.reason,
    );
    if (!decision.ok) return refuseOnSocket(client, decision.status, decision.reason);
    if (client.destroyed) return;
    const upstream = connect({ host: decision.address, port: target.port, timeout: connectTimeoutMs });
    sockets.add(upstream);
    upstream.once('close', () => sockets.delete(upstream));
    let open = false;
    upstream.once('connect', () => {
      open = true;
      upstream.setTimeout(idleTimeoutMs);
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('timeout', () => (open ? upstream.destroy() : upstream.destroy(new Error('connect timed out'))));
    upstream.on('error', (err) => {
      if (!open)
        refuseOnSocket(
          client,
          502,
          `${target.host}:${target.port} could not be reached (${(err as NodeJS.ErrnoException).code ?? err.message})`,
        );
      else client.destroy();
    });
    upstream.on('close', () => open && client.destroy());
    client.on('error', () => upstream.destroy());
    client.on('close', () => upstream.destroy());
  }

  async function onRequest(req: IncomingMessage, res: ServerResponse) {
    const source = req.socket.remoteAddress;
    let url: URL | undefined;
    try {
      url = new URL(req.url ?? '');
    } catch {
      url = undefined;
    }
    if (!url || url.protocol !== 'http:') {
      const reason = url
        ? `only http:// URLs are proxied as requests; use CONNECT for ${url.protocol}`
        : 'a forward proxy needs an absolute http:// URL or CONNECT host:port';
      void record(source, { method: req.method, target: req.url }, reason);
      req.resume();
      return refuse(res, 400, reason);
    }
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    const port = url.port ? Number(url.port) : 80;
    const decision = await decide(host, port);
    void record(source, { method: req.method, host, port }, decision.ok ? undefined : decision.reason);
    if (!decision.ok) {
      req.resume();
      return refuse(res, decision.status, decision.reason);
    }
    const headers = { ...withoutHopByHop(req.headers), host: url.host };
    const upstream = request({
      host: decision.address,
      family: isIP(decision.address),
      port,
      method: req.method,
      path: `${url.pathname}${url.search}`,
      headers,
      setHost: false,
      timeout: idleTimeoutMs,
    });
    upstream.on('response', (answer) => {
      res.writeHead(answer.statusCode ?? 502, withoutHopByHop(answer.headers));
      answer.pipe(res);
    });
    upstream.on('timeout', () => upstream.destroy(new Error('timed out')));
    upstream.on('error', (err) =>
      refuse(res, 502, `${host}:${port} could not be reached (${(err as NodeJS.ErrnoException).code ?? err.message})`),
    );
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  }

  const server = createServer();
  server.on('request', (req, res) => void onRequest(req, res).catch(() => refuse(res, 502, 'the proxy failed')));
  server.on(
    'connect',
    (req: IncomingMessage, socket: Duplex, head: Buffer) =>
      void onConnect(req, socket, head).catch(() => refuseOnSocket(socket, 502, 'the proxy failed')),
  );
  // WebSocket upgrades are not a registry's business; without a listener Node closes the socket.
  server.on('clientError', (err, socket) =>
    refuseOnSocket(socket, 400, `bad request (${(err as NodeJS.ErrnoException).code ?? err.message})`),
  );
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });

  return {
    attach(hooks) {
      if (hooks.log) log = hooks.log;
      if (hooks.identify) identify = hooks.identify;
    },

    async listen(host, ports, listenOpts = {}) {
      let lastError: Error | undefined;
      for (const port of ports) {
        try {
          await new Promise<void>((resolve, reject) => {
            server.once('error', reject);
            server.listen({ host, port, reusePort: listenOpts.reusePort ?? false }, () => {
              server.off('error', reject);
              resolve();
            });
          });
          return (server.address() as { port: number }).port;
        } catch (err) {
          lastError = err as Error;
        }
      }
      throw new Error(
        `the egress proxy cannot listen on ${host} (ports ${ports.join(', ')}): ${lastError?.message ?? 'no port given'}`,
      );
    },

    async close() {
      for (const socket of sockets) socket.destroy();
      if (!server.listening) return;
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
