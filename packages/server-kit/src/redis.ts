import { Redis } from 'ioredis';

export type { Redis } from 'ioredis';

type Log = { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };

/** One Redis connection of a service: its client, the key prefix its stores use, a readiness ping and close. */
export type RedisConnection = {
  client: Redis;
  /** Prepended to every key, so services (and test runs) sharing one Redis never read each other's keys. */
  keyPrefix: string;
  /** Resolves once connected, or after `timeoutMs` whatever happened (a down Redis must not stop the start). */
  connected(timeoutMs?: number): Promise<boolean>;
  /** Throws unless Redis answers PONG: the /ready check. */
  ping(): Promise<void>;
  close(): Promise<void>;
  /** Logs its changes of state through the app's logger from now on (the app is built after the connection). */
  useLog(log: Log): void;
};

export type RedisOptions = {
  keyPrefix: string;
  /** Until useLog is called; stderr without it. */
  log?: Log;
  /** Longest a command may take before it fails (and the caller falls back or refuses). */
  commandTimeoutMs?: number;
  connectTimeoutMs?: number;
};

/**
 * Connects to REDIS_URL. Commands fail at once while the connection is down (no offline queue) and
 * after `commandTimeoutMs` when Redis stalls, so a caller is never held longer than that: every store
 * built on this connection decides what a failure means (see ARCHITECTURE.md, "Shared fast state").
 * The client reconnects by itself with a back-off capped at 2 s; only the changes of state are logged,
 * not every failed reconnect.
 */
export function connectRedis(url: string, opts: RedisOptions): RedisConnection {
  const client = new Redis(url, {
    connectTimeout: opts.connectTimeoutMs ?? 2000,
    commandTimeout: opts.commandTimeoutMs ?? 1000,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    retryStrategy: (times) => Math.min(times * 100, 2000),
  });
  let log: Log = opts.log ?? {
    info: (_obj, msg) => process.stderr.write(`${msg}\n`),
    warn: (obj, msg) => process.stderr.write(`${msg}: ${String((obj as { err?: unknown }).err)}\n`),
  };
  let down = false;
  client.on('ready', () => {
    if (down) log.info({}, 'redis reachable again');
    down = false;
  });
  client.on('error', (err: Error) => {
    if (!down) log.warn({ err }, 'redis unreachable; retrying in the background');
    down = true;
  });
  let closed = false;

  return {
    client,
    keyPrefix: opts.keyPrefix,
    connected(timeoutMs = opts.connectTimeoutMs ?? 2000) {
      if (client.status === 'ready') return Promise.resolve(true);
      return new Promise((resolve) => {
        const done = (ok: boolean) => {
          clearTimeout(timer);
          client.off('ready', onReady);
          resolve(ok);
        };
        const onReady = () => done(true);
        const timer = setTimeout(() => done(false), timeoutMs);
        client.on('ready', onReady);
      });
    },
    async ping() {
      const answer = await client.ping();
      if (answer !== 'PONG') throw new Error(`redis answered ${answer} to PING`);
    },
    useLog(next) {
      log = next;
    },
    async close() {
      if (closed) return;
      closed = true;
      // QUIT lets the replies in flight arrive; a connection that is down has nothing to wait for.
      if (client.status === 'ready') await client.quit().catch(() => client.disconnect());
      else client.disconnect();
    },
  };
}
