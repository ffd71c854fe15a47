import { schemaCheck } from '@exam/server-kit/db';
import { createBaseApp } from '@exam/server-kit/base-app';
import type { Config } from './config.ts';
import type { Deps } from './deps.ts';
import { createProvided, type ModuleContext } from './module-context.ts';
import { accommodationsModule } from './modules/accommodations/accommodations.module.ts';
import { attemptsModule } from './modules/attempts/attempts.module.ts';
import { collaborationModule } from './modules/collaboration/collaboration.module.ts';
import { followUpModule } from './modules/follow-up/follow-up.module.ts';
import { gradingModule } from './modules/grading/grading.module.ts';
import { insightsModule } from './modules/insights/insights.module.ts';
import { internalModule } from './modules/internal/internal.module.ts';
import { liveModule } from './modules/live/live.module.ts';
import { ltiModule } from './modules/lti/lti.module.ts';
import { privacyModule } from './modules/privacy/privacy.module.ts';
import { questionGradingModule } from './modules/question-grading/question-grading.module.ts';
import { receiptsModule } from './modules/receipts/receipts.module.ts';
import { reportsModule } from './modules/reports/reports.module.ts';
import { resultsModule } from './modules/results/results.module.ts';
import { submissionsModule } from './modules/submissions/submissions.module.ts';
import { suggestionsModule } from './modules/suggestions/suggestions.module.ts';
import { timelineModule } from './modules/timeline/timeline.module.ts';
import { registerServiceMetrics } from './plugins/service-metrics.ts';
import { registerExamGuard } from './access/exam-guard.ts';

/**
 * The feature modules in registration order: live first, since its presence hook must precede every route
 * (modules/live/live.module.ts); then the module order, lowest first (eslint.config.js moduleOrder).
 */
const modules = [
  liveModule,
  submissionsModule,
  ltiModule,
  accommodationsModule,
  attemptsModule,
  resultsModule,
  gradingModule,
  questionGradingModule,
  suggestionsModule,
  followUpModule,
  timelineModule,
  receiptsModule,
  collaborationModule,
  insightsModule,
  reportsModule,
  internalModule,
  privacyModule,
];

export async function buildApp(config: Config, deps: Deps) {
  const app = await createBaseApp({
    service: 'results-service',
    logLevel: config.LOG_LEVEL,
    trustedProxies: config.TRUSTED_PROXIES,
    metrics: { token: config.METRICS_TOKEN, cacheMs: config.METRICS_CACHE_MS },
    apiDocs: config.API_DOCS,
    jwtSecret: config.jwtSecret,
    internalToken: config.internalToken,
    creatorSessions: deps.creatorSessions,
    checks: {
      database: () => deps.database.ping(),
      migrations: schemaCheck(deps.database),
    },
    // Redis down, the start limits and presence fall back to PostgreSQL: degraded, still ready.
    ...(deps.redis ? { degradable: { redis: deps.redis.ping } } : {}),
  });
  deps.redis?.useLog(app.log);
  registerServiceMetrics(app, deps.database);
  registerExamGuard(app, deps);

  const ctx: ModuleContext = { config, deps, ...createProvided() };
  for (const module of modules) await module(app, ctx);
  return app;
}
