import type { RedisConnection } from '@exam/server-kit/redis';
import type { FastifyBaseLogger } from 'fastify';
import type { PresenceStore } from '../../deps.ts';
import type { LiveRepository } from './live.repository.ts';

/**
 * How long Redis keeps an attempt's last-seen time after its last write: far longer than any sitting,
 * so the live view shows the same time the database would for every attempt it lists.
 */
export const PRESENCE_TTL_MS = 30 * 24 * 3600 * 1000;

/**
 * How long touches collect before they go to the database in one statement. Presence is a hint to the proctor: a
 * candidate's page shows as seen this much later at most, and a replica that dies loses this much of it (a clean
 * shutdown writes it first). Every candidate request used to cost a statement of its own; now a replica sends one
 * every interval, whatever the number of candidates.
 */
export const PRESENCE_FLUSH_MS = 2000;

/** A presence store that holds touches for a while; `close` writes them and makes later touches go at once. */
export type BufferedPresenceStore = PresenceStore & { close(): Promise<void> };

/**
 * attempt_presence: the live view's query joins it, so its rows already carry the time. Touches are kept per
 * replica (the latest per attempt) and written every `flushMs` in one statement, which keeps the database's own
 * throttle (a row fresher than the gap stays as it is), so replicas that saw the same attempt agree. If the
 * statement fails, each touch is tried on its own; a failure is only logged. Reading through the store (`find`)
 * writes what it holds first.
 */
export function databasePresence(
  repo: LiveRepository,
  log: Pick<FastifyBaseLogger, 'warn'>,
  flushMs = PRESENCE_FLUSH_MS,
): BufferedPresenceStore {
  type Touch = { attemptId: string; now: Date };
  // The latest touch of each attempt, grouped by gap (one gap in practice: PRESENCE_MIN_GAP_MS).
  let pending = new Map<number, Map<string, Touch>>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  let writing: Promise<void> = Promise.resolve();

  const write = async (batch: Map<number, Map<string, Touch>>) => {
    for (const [gap, latest] of batch) {
      try {
        await repo.touchMany([...latest.values()], gap);
      } catch {
        for (const touch of latest.values())
          await repo.touch(touch.attemptId, touch.now, gap).catch((err: unknown) => {
            log.warn({ err, attemptId: touch.attemptId }, 'could not record when the candidate was last seen');
          });
      }
    }
  };
  /** Writes what is held now, after any write under way (so an attempt's touches land in order). */
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    const batch = pending;
    pending = new Map();
    writing = writing.then(() => (batch.size > 0 ? write(batch) : undefined));
    return writing;
  };

  return {
    async touch(attemptId, now, minGapMs) {
      const latest = pending.get(minGapMs) ?? new Map<string, Touch>();
      pending.set(minGapMs, latest);
      const seen = latest.get(attemptId);
      if (!seen || seen.now < now) latest.set(attemptId, { attemptId, now });
      if (closed) await flush();
      else if (!timer) {
        timer = setTimeout(() => void flush(), flushMs);
        timer.unref();
      }
    },
    async find(attemptId) {
      await flush();
      return repo.findLastSeen(attemptId);
    },
    withLastSeen: async (rows) => rows,
    async close() {
      closed = true;
      await flush();
    },
  };
}

/**
 * The same throttle as the database's upsert: no write while the stored time is less than `minGapMs`
 * old, so a burst of saves costs one round trip each and a write every few seconds at most.
 */
const TOUCH = `
local last = redis.call('GET', KEYS[1])
if last and tonumber(last) >= tonumber(ARGV[1]) - tonumber(ARGV[2]) then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3])
return 1`;

/**
 * Presence in Redis (REDIS_URL): one key per attempt holding the epoch milliseconds it was last seen.
 * While Redis fails a touch goes to attempt_presence instead (logged), and the live view merges both,
 * the later time winning; when Redis cannot be read the view shows what the database has. Either way the
 * view answers: presence is a hint to the proctor, and the rest of the view needs no Redis.
 */
export function redisPresence(
  redis: RedisConnection,
  database: BufferedPresenceStore,
  log: FastifyBaseLogger,
): BufferedPresenceStore {
  const keyOf = (attemptId: string) => `${redis.keyPrefix}presence:${attemptId}`;
  const later = (a: Date | undefined | null, b: Date | undefined | null) =>
    a && b ? (a > b ? a : b) : (a ?? b ?? undefined);

  return {
    async touch(attemptId, now, minGapMs) {
      try {
        await redis.client.eval(TOUCH, 1, keyOf(attemptId), now.getTime(), minGapMs, PRESENCE_TTL_MS);
      } catch (err) {
        log.warn({ err, attemptId }, 'redis failed; recording presence in the database');
        await database.touch(attemptId, now, minGapMs);
      }
    },

    async find(attemptId) {
      const [stored, fallback] = await Promise.all([
        redis.client.get(keyOf(attemptId)).catch(() => null),
        database.find(attemptId),
      ]);
      return later(stored === null ? undefined : new Date(Number(stored)), fallback);
    },

    async withLastSeen(rows) {
      if (rows.length === 0) return rows;
      let stored: (string | null)[];
      try {
        stored = await redis.client.mget(rows.map((row) => keyOf(row.id)));
      } catch (err) {
        log.warn({ err }, 'redis failed; the live view shows the presence the database has');
        return rows;
      }
      return rows.map((row, i) => {
        const value = stored[i];
        if (value === null || value === undefined) return row;
        return { ...row, lastSeenAt: later(new Date(Number(value)), row.lastSeenAt) ?? null };
      });
    },

    close: () => database.close(),
  };
}
