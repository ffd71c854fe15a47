import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { lifecycleOf } from './lifecycle.ts';

export type RunServerOptions = {
  host: string;
  port: number;
  /**
   * SHUTDOWN_DELAY_MS: after a stop signal the server keeps serving this long while /ready answers 503, so a load
   * balancer or Kubernetes notices and stops routing here before the listener closes. 0 in development.
   */
  shutdownDelayMs?: number;
  /**
   * SHUTDOWN_DRAIN_MS: once the listener is closed, how long in-flight requests and streams may run on. When it
   * is up, streams are told to end (lifecycle's streamsEnd), and a moment later any connection still open is cut.
   */
  shutdownDrainMs?: number;
  /** The process exits 1 if closing takes longer than this; default: delay + drain + 5 s for the last hooks. */
  shutdownTimeoutMs?: number;
  /** Pending-connection queue; Node's default is 511, and the kernel caps it at net.core.somaxconn. */
  backlog?: number;
  /** node:http server timeouts, for services whose replies stream for a long time. */
  timeouts?: { headersTimeoutMs?: number; keepAliveTimeoutMs?: number; maxRequestsPerSocket?: number };
};

export const DEFAULT_SHUTDOWN_DRAIN_MS = 10_000;
/** How long streams told to end get to write their last event and store what they had before sockets are cut. */
const STREAM_END_GRACE_MS = 1_000;

/**
 * Listens, and on SIGINT/SIGTERM shuts down gracefully (ARCHITECTURE.md, "Graceful shutdown"):
 * 1. /ready answers 503 at once, and every response asks its client to close the connection, so keep-alive
 *    clients reconnect to another replica;
 * 2. after shutdownDelayMs the listener closes (new connections are refused), idle keep-alive sockets are
 *    closed, and requests in flight finish (saves complete);
 * 3. streams still open after shutdownDrainMs are told to end, then cut;
 * 4. onClose hooks run (jobs stop, the database closes) and the process exits 0.
 */
export async function runServer(app: FastifyInstance, opts: RunServerOptions) {
  const lifecycle = lifecycleOf(app);
  const delayMs = opts.shutdownDelayMs ?? 0;
  const drainMs = opts.shutdownDrainMs ?? DEFAULT_SHUTDOWN_DRAIN_MS;
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    lifecycle.beginDrain();
    app.log.info({ signal, delayMs, drainMs }, 'shutting down: no longer ready');
    const timer = setTimeout(
      () => {
        app.log.error('shutdown timed out; exiting');
        process.exit(1);
      },
      opts.shutdownTimeoutMs ?? delayMs + drainMs + STREAM_END_GRACE_MS + 5_000,
    );
    timer.unref();
    if (delayMs > 0) await sleep(delayMs);
    const drainTimer = setTimeout(() => {
      app.log.warn('drain time is up: ending the streams still open');
      lifecycle.endStreams();
      setTimeout(() => app.server.closeAllConnections(), STREAM_END_GRACE_MS).unref();
    }, drainMs);
    drainTimer.unref();
    try {
      // Fastify closes the listener and idle sockets, answers 503 to requests that still arrive on a busy
      // keep-alive socket, waits for the requests in flight, then runs the onClose hooks.
      await app.close();
      clearTimeout(drainTimer);
      app.log.info('closed');
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'error while closing');
      process.exit(1);
    }
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  // Runs before Fastify's own listener, so the header is in place whatever the route does.
  app.server.prependListener('request', (_request, response) => {
    if (lifecycle.isDraining && !response.headersSent) response.setHeader('connection', 'close');
  });
  if (opts.timeouts?.headersTimeoutMs !== undefined) app.server.headersTimeout = opts.timeouts.headersTimeoutMs;
  if (opts.timeouts?.keepAliveTimeoutMs !== undefined) app.server.keepAliveTimeout = opts.timeouts.keepAliveTimeoutMs;
  if (opts.timeouts?.maxRequestsPerSocket !== undefined)
    app.server.maxRequestsPerSocket = opts.timeouts.maxRequestsPerSocket;
  await app.listen({
    host: opts.host,
    port: opts.port,
    ...(opts.backlog !== undefined ? { backlog: opts.backlog } : {}),
  });
}

/** The shutdown settings from a service's config (SHUTDOWN_DELAY_MS, SHUTDOWN_DRAIN_MS). */
export const shutdownOptions = (config: { SHUTDOWN_DELAY_MS: number; SHUTDOWN_DRAIN_MS: number }) => ({
  shutdownDelayMs: config.SHUTDOWN_DELAY_MS,
  shutdownDrainMs: config.SHUTDOWN_DRAIN_MS,
});

/** Logs a startup failure (bad config, unreachable database) in one line and exits non-zero. */
export function exitOnStartupError(err: unknown): never {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
