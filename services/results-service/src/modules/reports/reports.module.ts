import { ReportMessages } from '@exam/domain/candidate-report';
import type { AppModule } from '../../module-context.ts';
import { clientBucket } from '../attempts/client-bucket.ts';
import { RetryLaterError } from '../attempts/retry-later.ts';
import { redisStartCounters } from '../attempts/start-counters.redis.ts';
import { createStartLimitsRepository } from '../attempts/start-limits.repository.ts';
import { createReportsRepository } from './reports.repository.ts';
import { reportsRoutes } from './reports.routes.ts';
import { createReportsService } from './reports.service.ts';

/**
 * Report reads one network may make per minute: a panel opening a report a few times is far below it, and a token
 * guesser (256-bit tokens) or a scraper is stopped long before it costs the database anything that matters.
 */
export const REPORT_READS_PER_MINUTE = 60;

/**
 * Candidate reports (docs/product.md#candidate-report): share links and the public report. The collaboration
 * profile is read through the module context at request time (modules/collaboration sits below).
 */
export const reportsModule: AppModule = async (app, { deps, use }) => {
  const repo = createReportsRepository(deps.database);
  const service = createReportsService({
    ...deps,
    repo,
    profileOf: (resultId, ownerId) => use('collaborationProfile')(resultId, ownerId),
    log: app.log,
  });
  // Counted where the start limits count (the database, or Redis with REDIS_URL), so every replica counts alike.
  const limits = createStartLimitsRepository(deps.database);
  const counters = deps.redis ? redisStartCounters(deps.redis, limits, app.log) : limits;
  const windowMs = 60_000;
  const limitRead = async (ip: string) => {
    const now = deps.clock.now().getTime();
    const windowStart = Math.floor(now / windowMs) * windowMs;
    const count = await counters.count(`report:${clientBucket(ip)}`, new Date(windowStart), windowMs);
    if (count > REPORT_READS_PER_MINUTE)
      throw new RetryLaterError(windowStart + windowMs - now, ReportMessages.tooManyReads);
  };
  await app.register(reportsRoutes(service, limitRead));
};
