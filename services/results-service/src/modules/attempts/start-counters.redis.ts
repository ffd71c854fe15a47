import type { RedisConnection } from '@exam/server-kit/redis';
import type { FastifyBaseLogger } from 'fastify';
import type { StartCounters } from '../../deps.ts';

/**
 * One INCR per start; the first of a window also sets the key to expire a window later, so no sweep is
 * needed. In one script, so a key can never be left counted without its expiry. PEXPIRE is relative to
 * Redis's clock, which keeps it right under the tests' fake clocks too.
 */
const COUNT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n`;

/**
 * Start counters in Redis (REDIS_URL), one key per bucket and window. While Redis fails a start is counted
 * in the database instead (logged): attempts keep starting, and each store still stops a flood at its limit,
 * so an outage at most doubles one window's allowance. Refusing every start for the length of a Redis
 * outage would stop exams that were going to work.
 */
export function redisStartCounters(
  redis: RedisConnection,
  database: StartCounters,
  log: FastifyBaseLogger,
): StartCounters {
  return {
    async count(bucket, windowStart, windowMs) {
      const key = `${redis.keyPrefix}starts:${bucket}:${windowStart.getTime()}`;
      try {
        return Number(await redis.client.eval(COUNT, 1, key, windowMs));
      } catch (err) {
        log.warn({ err, bucket }, 'redis failed; counting this start in the database');
        return database.count(bucket, windowStart, windowMs);
      }
    },
    async peek(bucket, windowStart, windowMs) {
      try {
        return Number((await redis.client.get(`${redis.keyPrefix}starts:${bucket}:${windowStart.getTime()}`)) ?? 0);
      } catch (err) {
        log.warn({ err, bucket }, 'redis failed; reading this count from the database');
        return database.peek(bucket, windowStart, windowMs);
      }
    },
    // Redis expires its own windows; the database keeps those counted during an outage.
    prune: (before) => database.prune(before),
  };
}
