// In engine/: the Docker engine starts this proxy on the egress bridge; it is the containers' network plumbing, not an HTTP feature.
import { createServer, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { AllowedHost } from './allowlist.ts';
import { decide } from './decision.ts';
import { onRequest } from './forward-request.ts';
import type { ProxyContext } from './proxy-context.ts';
import { refuse, refuseOnSocket } from './refusals.ts';
import { onConnect } from './tunnel.ts';

/**
 * The only way out for a workspace whose exam allows package registries. Containers sit on an internal
 * bridge with no route out; npm, pip, Maven, R and friends reach their registries through this forward
 * proxy (HTTP_PROXY/HTTPS_PROXY), which lets through the hosts of EGRESS_ALLOWED_HOSTS and nothing
 * else: `CONNECT host:port` for HTTPS (bytes are tunnelled only after the check) and absolute-URI
 * requests for plain HTTP. It keeps no state, so every orchestrator replica runs its own.
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

export function createRegistryProxy(opts: RegistryProxyOptions): RegistryProxy {
  let log: Logger = { info() {}, warn() {} };
  let identify: Identify = async () => undefined;
  const ctx: ProxyContext = {
    decide: (host, port) => decide(opts.allowed, host, port),
    async record(source, fields, refused) {
      const who = source ? await identify(source).catch(() => undefined) : undefined;
      const entry = { source, ...who, ...fields };
      if (refused) log.warn({ ...entry, reason: refused }, 'egress refused');
      else log.info(entry, 'egress allowed');
    },
    sockets: new Set<Socket>(),
    connectTimeoutMs: opts.connectTimeoutMs ?? 10_000,
    idleTimeoutMs: opts.idleTimeoutMs ?? 5 * 60_000,
  };
  const server = proxyServer(ctx);

  return {
    attach(hooks) {
      if (hooks.log) log = hooks.log;
      if (hooks.identify) identify = hooks.identify;
    },
    listen: (host, ports, listenOpts = {}) => listenOnFirstFree(server, host, ports, listenOpts.reusePort ?? false),
    async close() {
      for (const socket of ctx.sockets) socket.destroy();
      if (!server.listening) return;
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function proxyServer(ctx: ProxyContext) {
  const server = createServer();
  server.on('request', (req, res) => void onRequest(ctx, req, res).catch(() => refuse(res, 502, 'the proxy failed')));
  server.on(
    'connect',
    (req: IncomingMessage, socket: Duplex, head: Buffer) =>
      void onConnect(ctx, req, socket, head).catch(() => refuseOnSocket(socket, 502, 'the proxy failed')),
  );
  // WebSocket upgrades are not a registry's business; without a listener Node closes the socket.
  server.on('clientError', (err, socket) =>
    refuseOnSocket(socket, 400, `bad request (${(err as NodeJS.ErrnoException).code ?? err.message})`),
  );
  server.on('connection', (socket: Socket) => {
    ctx.sockets.add(socket);
    socket.once('close', () => ctx.sockets.delete(socket));
  });
  return server;
}

async function listenOnFirstFree(
  server: ReturnType<typeof createServer>,
  host: string,
  ports: readonly number[],
  reusePort: boolean,
): Promise<number> {
  let lastError: Error | undefined;
  for (const port of ports) {
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen({ host, port, reusePort }, () => {
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
}
