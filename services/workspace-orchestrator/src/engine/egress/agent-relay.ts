// In engine/: the Docker engine starts this relay on its bridges; it is the containers' network plumbing, not an HTTP feature.
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import { withoutHopByHop } from './refusals.ts';
import type { Identify } from './registry-proxy.ts';

/**
 * A workspace's one way to a model (docs/product.md#ai-in-the-workspace): the coding agent inside the container
 * talks to `http://exam-ai:<AGENT_RELAY_PORT>/v1/…` (an extra hosts entry for the bridge's gateway address), and
 * this relay, listening there on every workspace bridge, forwards `/v1/*` to llm-gateway's agent endpoint
 * (`${LLM_GATEWAY_URL}/api/agent/v1/*`) with the method, headers (the workspace token in Authorization or
 * x-api-key), body and the streamed answer as they come. Anything else is 404: the relay reaches the gateway's
 * agent endpoint and nothing else, so the workspace still has no way to a provider or to any other service. It
 * keeps no state: every replica runs its own, and replicas on one host share the port (SO_REUSEPORT).
 */

type Logger = { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };

export type AgentRelayOptions = {
  /** llm-gateway's base URL (LLM_GATEWAY_URL); requests go to its `/api/agent/v1/*`. */
  gatewayUrl: string;
  /** A request or answer quiet for this long is closed (an agent's stream sends tokens or keep-alives). */
  idleTimeoutMs?: number;
};

export type AgentRelay = {
  attach(hooks: { log?: Logger; identify?: Identify }): void;
  /**
   * Listens on every one of `hosts` at the first of `ports` free on all of them; answers the port (the base URL
   * a workspace is given names one port, whichever bridge it sits on).
   */
  listen(hosts: readonly string[], ports: readonly number[], opts?: { reusePort?: boolean }): Promise<number>;
  close(): Promise<void>;
};

/** The prefix of the gateway's agent endpoint the relay's `/v1` stands for. */
export const AGENT_ENDPOINT_PATH = '/api/agent';

/** The path a request may be relayed to (normalised: `..` and `%2e%2e` resolved first), or undefined. */
export function relayedPath(raw: string | undefined): string | undefined {
  if (!raw?.startsWith('/')) return undefined;
  let url: URL;
  try {
    url = new URL(raw, 'http://relay');
  } catch {
    return undefined;
  }
  if (url.pathname !== '/v1' && !url.pathname.startsWith('/v1/')) return undefined;
  return `${AGENT_ENDPOINT_PATH}${url.pathname}${url.search}`;
}

function answer(res: ServerResponse, status: number, message: string) {
  if (res.headersSent) return void res.destroy();
  res.writeHead(status, { 'content-type': 'application/json', 'x-exam-relay': 'refused' });
  res.end(JSON.stringify({ error: { type: 'relay_error', message } }));
}

export function createAgentRelay(opts: AgentRelayOptions): AgentRelay {
  let log: Logger = { info() {}, warn() {} };
  let identify: Identify = async () => undefined;
  const gateway = new URL(opts.gatewayUrl);
  const base = gateway.pathname.replace(/\/+$/, '');
  const send = gateway.protocol === 'https:' ? httpsRequest : request;
  const idleTimeoutMs = opts.idleTimeoutMs ?? 10 * 60_000;
  const servers: Server[] = [];
  const sockets = new Set<Socket>();

  async function record(req: IncomingMessage, fields: Record<string, unknown>, refused?: string) {
    const source = req.socket.remoteAddress;
    const who = source ? await identify(source).catch(() => undefined) : undefined;
    const entry = { source, ...who, method: req.method, path: req.url, ...fields };
    if (refused) log.warn({ ...entry, reason: refused }, 'agent relay refused');
    else log.info(entry, 'agent relay');
  }

  function onRequest(req: IncomingMessage, res: ServerResponse) {
    const path = relayedPath(req.url);
    if (!path) {
      const reason = 'the relay serves /v1/* (the exam gateway) only';
      void record(req, { status: 404 }, reason);
      req.resume();
      return answer(res, 404, reason);
    }
    const started = Date.now();
    const upstream = send({
      protocol: gateway.protocol,
      hostname: gateway.hostname,
      port: gateway.port,
      method: req.method,
      path: `${base}${path}`,
      headers: { ...withoutHopByHop(req.headers), host: gateway.host },
      timeout: idleTimeoutMs,
    });
    upstream.on('response', (reply) => {
      res.writeHead(reply.statusCode ?? 502, withoutHopByHop(reply.headers));
      // Each chunk of a streamed answer goes on as it arrives: nothing here waits for the whole body.
      res.flushHeaders();
      reply.pipe(res);
      reply.on('end', () => void record(req, { status: reply.statusCode, ms: Date.now() - started }));
    });
    upstream.on('timeout', () => upstream.destroy(new Error('timed out')));
    upstream.on('error', (err) => {
      const reason = `the exam gateway could not be reached (${(err as NodeJS.ErrnoException).code ?? err.message})`;
      void record(req, { status: 502 }, reason);
      answer(res, 502, reason);
    });
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  }

  function newServer() {
    const server = createServer(onRequest);
    // No CONNECT tunnels and no upgrades: without listeners Node closes those sockets.
    server.on('connection', (socket: Socket) => {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
    });
    return server;
  }

  const listenOn = (server: Server, host: string, port: number, reusePort: boolean) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ host, port, reusePort }, () => {
        server.off('error', reject);
        resolve();
      });
    });
  const closeServer = (server: Server) =>
    new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));

  return {
    attach(hooks) {
      if (hooks.log) log = hooks.log;
      if (hooks.identify) identify = hooks.identify;
    },
    async listen(hosts, ports, listenOpts = {}) {
      let lastError: Error | undefined;
      for (const port of ports) {
        const opened: Server[] = [];
        // Port 0 (tests): the port the first host got, on every other host too.
        let chosen = port;
        try {
          for (const host of hosts) {
            const server = newServer();
            await listenOn(server, host, chosen, listenOpts.reusePort ?? false);
            opened.push(server);
            chosen = (server.address() as { port: number }).port;
          }
          servers.push(...opened);
          return chosen;
        } catch (err) {
          lastError = err as Error;
          await Promise.all(opened.map(closeServer));
        }
      }
      throw new Error(
        `the agent relay cannot listen on ${hosts.join(', ')} (ports ${ports.join(', ')}): ${lastError?.message ?? 'no port given'}`,
      );
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await Promise.all(servers.splice(0).map(closeServer));
    },
  };
}
