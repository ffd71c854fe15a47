import type { RedisConnection } from '@exam/server-kit/redis';
import type { FastifyBaseLogger } from 'fastify';
import type { PresenceStore } from '../../deps.ts';
import type { LiveRepository } from './live.repository.ts';

/**
 * How long Redis keeps an attempt's last-seen time after its last write: far longer than any sitting,
 * so the live view shows the same time the database would for every attempt it lists.
 */
export const PRESENCE_TTL_MS = 30 * 24 * 3600 * 1000;

/** How long a touch waits for others to share its statement (touches run after the reply has gone). */
const TOUCH_BATCH_WINDOW_MS = 5;

/**
 * attempt_presence: the live view's query joins it, so its rows already carry the time. Every candidate
 * request touches it, so the touches of a few milliseconds go as one statement (the latest per attempt);
 * if that fails, each is tried on its own. Only touches not yet written wait here.
 */
export function databasePresence(repo: LiveRepository): PresenceStore {
  type Touch = { attemptId: string; now: Date; minGapMs: number; done: () => void; fail: (err: unknown) => void };
  let queue: Touch[] = [];
  const flush = async () => {
    const batch = queue;
    queue = [];
    // The latest touch of each attempt, grouped by gap (one gap in practice: PRESENCE_MIN_GAP_MS).
    const byGap = new Map<number, Map<string, Touch>>();
    for (const touch of batch) {
      const latest = byGap.get(touch.minGapMs) ?? new Map<string, Touch>();
      byGap.set(touch.minGapMs, latest);
      const seen = latest.get(touch.attemptId);
      if (!seen || seen.now < touch.now) latest.set(touch.attemptId, touch);
    }
    try {
      for (const [gap, latest] of byGap) await repo.touchMany([...latest.values()], gap);
      for (const touch of batch) touch.done();
    } catch {
      for (const touch of batch)
        await repo.touch(touch.attemptId, touch.now, touch.minGapMs).then(touch.done, touch.fail);
    }
  };
  return {
    touch: (attemptId, now, minGapMs) =>
      new Promise<void>((done, fail) => {
        if (queue.length === 0) setTimeout(() => void flush(), TOUCH_BATCH_WINDOW_MS);
        queue.push({ attemptId, now, minGapMs, done, fail });
      }),
    find: (attemptId) => repo.findLastSeen(attemptId),
    withLastSeen: async (rows) => rows,
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
export function redisPresence(redis: RedisConnection, database: PresenceStore, log: FastifyBaseLogger): PresenceStore {
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
  };
}
