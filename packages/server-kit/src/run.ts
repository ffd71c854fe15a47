import type { FastifyInstance } from 'fastify';

/** Listens and closes gracefully on SIGINT/SIGTERM (in-flight requests finish, then hooks close the db). */
export type RunServerOptions = {
  host: string;
  port: number;
  shutdownTimeoutMs?: number;
  /** Pending-connection queue; Node's default is 511, and the kernel caps it at net.core.somaxconn. */
  backlog?: number;
  /** node:http server timeouts, for services whose replies stream for a long time. */
  timeouts?: { headersTimeoutMs?: number; keepAliveTimeoutMs?: number; maxRequestsPerSocket?: number };
};

export async function runServer(app: FastifyInstance, opts: RunServerOptions) {
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      app.log.error('shutdown timed out; exiting');
      process.exit(1);
    }, opts.shutdownTimeoutMs ?? 10_000);
    timer.unref();
    try {
      await app.close();
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'error while closing');
      process.exit(1);
    }
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
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

/** Logs a startup failure (bad config, unreachable database) in one line and exits non-zero. */
export function exitOnStartupError(err: unknown): never {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
