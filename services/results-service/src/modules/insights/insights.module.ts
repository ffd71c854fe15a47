import type { AppModule } from '../../module-context.ts';
import { createInsightsCache } from './insights-cache.ts';
import { createInsightsCacheRepository } from './insights-cache.repository.ts';
import { createInsightsRepository } from './insights.repository.ts';
import { insightsRoutes } from './insights.routes.ts';
import { createInsightsService } from './insights.service.ts';

/** The cohort's insights report and its cache. */
export const insightsModule: AppModule = async (app, { config, deps, use }) => {
  const refreshKeepGrade = use('refreshKeepGrade');
  const insightsRepository = createInsightsRepository(deps.database);
  const insights = createInsightsService(insightsRepository, deps, app.log, refreshKeepGrade);
  const insightsCache = createInsightsCache({
    repo: createInsightsCacheRepository(deps.database),
    examSource: deps.examSource,
    transcripts: deps.transcripts,
    clock: deps.clock,
    refreshKeepGrade,
    gradingAgreement: use('gradingAgreement'),
    // The cache has refreshed the keepGrade with the exam it read: the report need not read it again.
    reportWith: (sources) => createInsightsService(insightsRepository, sources, app.log, async () => {}),
  });
  await app.register(insightsRoutes(insights, insightsCache, { serverTiming: config.INSIGHTS_SERVER_TIMING }));
};
