import type { InsightsReport } from '@exam/domain/insights';
import type { AppModule } from '../../module-context.ts';
import { createInsightsCache, textOf } from './insights-cache.ts';
import { createInsightsCacheRepository } from './insights-cache.repository.ts';
import { createInsightsRepository } from './insights.repository.ts';
import { insightsRoutes } from './insights.routes.ts';
import { createInsightsService } from './insights.service.ts';

declare module '../../module-context.ts' {
  interface Provided {
    /**
     * The exam's report as GET …/insights serves it (the cached one while nothing changed): the collaboration
     * profile's independence and the results CSV's profile columns read it at request time.
     */
    insightsReport: (examId: string, ownerId: string) => Promise<InsightsReport>;
  }
}

/** The cohort's insights report and its cache. */
export const insightsModule: AppModule = async (app, { config, deps, use, provide }) => {
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
    collaborationCohort: use('collaborationCohort'),
    // The cache has refreshed the keepGrade with the exam it read: the report need not read it again.
    reportWith: (sources) => createInsightsService(insightsRepository, sources, app.log, async () => {}),
  });
  provide('insightsReport', async (examId, ownerId) => {
    // Checked against InsightsReportSchema when it was made (insights-cache.ts).
    return JSON.parse(await textOf(await insightsCache.reportJson(examId, ownerId))) as InsightsReport;
  });
  await app.register(insightsRoutes(insights, insightsCache, { serverTiming: config.INSIGHTS_SERVER_TIMING }));
};
