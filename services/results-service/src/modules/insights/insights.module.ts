import { InsightsReportSchema, type InsightsReport } from '@exam/domain/insights';
import type { AppModule } from '../../module-context.ts';
import type { CsvExtraColumns } from '../results/results-csv.ts';
import { createInsightsCache, textOf } from './insights-cache.ts';
import { insightsCsvColumns } from './insights-csv.ts';
import { createInsightsCacheRepository } from './insights-cache.repository.ts';
import { createInsightsRepository } from './insights.repository.ts';
import { insightsRoutes } from './insights.routes.ts';
import { createInsightsService } from './insights.service.ts';

declare module '../../module-context.ts' {
  interface Provided {
    /**
     * The exam's report as GET …/insights serves it (the cached one while nothing changed): the collaboration
     * profile's independence reads it at request time (modules/collaboration sits below).
     */
    insightsReport: (examId: string, ownerId: string) => Promise<InsightsReport>;
    /** The insights columns of the results CSV (modules/results reads them at request time: it sits below). */
    insightsCsvColumns: (examId: string, ownerId: string, hasRows: boolean) => Promise<CsvExtraColumns>;
  }
}

/** The cohort's insights report and its cache. */
export const insightsModule: AppModule = async (app, { config, deps, provide, use }) => {
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
  // The CSV's figures are the report's own (the cached body when nothing changed). A report that cannot be made
  // (exam-service down for a shuffled exam) leaves the columns blank rather than failing the export.
  provide('insightsCsvColumns', async (examId, ownerId, hasRows) => {
    if (!hasRows) return insightsCsvColumns(null);
    try {
      const body = await insightsCache.reportJson(examId, ownerId);
      return insightsCsvColumns(InsightsReportSchema.parse(JSON.parse(await textOf(body))));
    } catch (err) {
      app.log.warn({ err, examId }, 'results CSV without the insights columns');
      return insightsCsvColumns(null);
    }
  });
  await app.register(insightsRoutes(insights, insightsCache, { serverTiming: config.INSIGHTS_SERVER_TIMING }));
};
