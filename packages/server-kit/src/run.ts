import type { FastifyInstance } from 'fastify';

/** Listens and closes gracefully on SIGINT/SIGTERM (in-flight requests finish, then hooks close the db). */
export async function runServer(
  app: FastifyInstance,
  opts: { host: string; port: number; shutdownTimeoutMs?: number },
) {
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
  await app.listen({ host: opts.host, port: opts.port });
}

/** Logs a startup failure (bad config, unreachable database) in one line and exits non-zero. */
export function exitOnStartupError(err: unknown): never {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
